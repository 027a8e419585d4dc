package agentsignup

import (
	"crypto/sha256"
	"encoding/json"
	"testing"
)

// BenchmarkParse measures Parse on the seed example. Compare it with
// BenchmarkParseBaseline in the same run: the target is at most 4× the
// baseline (encoding/json into any plus one SHA-256 of the terms text).
func BenchmarkParse(b *testing.B) {
	data := seedBytes(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseBaseline is the reference for BenchmarkParse: encoding/json
// into any plus one SHA-256 of the terms text.
func BenchmarkParseBaseline(b *testing.B) {
	data := seedBytes(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		text := v.(map[string]any)["terms"].(map[string]any)["text"].(string)
		sum := sha256.Sum256([]byte(text))
		_ = sum
	}
}
