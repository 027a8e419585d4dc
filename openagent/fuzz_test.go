package openagent

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics, that it returns either a profile
// or a *ValidationError with at least one problem, and that a profile it
// accepts survives Marshal and a second Parse unchanged.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			if p != nil {
				t.Fatal("profile returned with an error")
			}
			ve, ok := err.(*ValidationError)
			if !ok || len(ve.Problems) == 0 {
				t.Fatalf("error is not a non-empty *ValidationError: %v", err)
			}
			return
		}
		out, err := p.Marshal()
		if err != nil {
			t.Fatalf("Marshal of an accepted profile failed: %v", err)
		}
		q, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse rejected Marshal output: %v\n%s", err, out)
		}
		again, err := q.Marshal()
		if err != nil || string(again) != string(out) {
			t.Fatalf("Marshal not stable:\n%s\n%s", out, again)
		}
	})
}
