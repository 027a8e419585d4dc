package agentsjson

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics, keeps its bounds, and that every
// card it reads is written deterministically and read back with the same
// interfaces.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{`{"interfaces":{"a":"b"}}`, `{"intents":{"supported":[{"endpoints":[{"path":"/x"}]}]}}`, `[]`, `{"publishes":{"":"x"}}`, `{"contact":"mailto:"}`, `{"source":{"url":"/o.json"},"flows":[{"actions":[{"sourceId":"x"}]}]}`, `{"source":"","agentsJson":"1"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			return
		}
		if len(c.Interfaces) > MaxItems || len(c.Skipped) > MaxItems || len(c.Publishes) > MaxItems {
			t.Fatalf("bounds: %d interfaces, %d skipped, %d publications", len(c.Interfaces), len(c.Skipped), len(c.Publishes))
		}
		out, err := c.Marshal()
		if err != nil {
			return
		}
		again, err := c.Marshal()
		if err != nil || string(again) != string(out) {
			t.Fatalf("Marshal not deterministic: %v", err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Marshal wrote what Parse refuses: %v\n%s", err, out)
		}
		if len(back.Interfaces) != len(c.Interfaces) {
			t.Fatalf("%d interfaces written, %d read back\n%s", len(c.Interfaces), len(back.Interfaces), out)
		}
	})
}
