package strictjson

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/benchratio"
)

// genDoc returns a deterministic JSON document of about size bytes shaped
// like the documents agentweb reads: an object holding an array of link-like
// objects with URLs, titles (some with escapes and non-ASCII text), numbers,
// booleans, nulls and small nested arrays.
func genDoc(size int) []byte {
	r := rand.New(rand.NewPCG(1, uint64(size)))
	words := []string{"agent", "site", "profile", "knowledge", "link", "set", "résumé", "über", "naïve", "日本語", "emoji 😀", "tab\there", "quote \"q\"", "slash \\ back"}
	var b strings.Builder
	b.WriteString(`{"version":"1.1","generated":"2026-11-29T19:00:00Z","linkset":[`)
	for i := 0; b.Len() < size-200; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		title, _ := json.Marshal(words[r.IntN(len(words))] + " " + words[r.IntN(len(words))])
		fmt.Fprintf(&b, `{"anchor":"https://example.com/docs/%d","rel":["describedby","item"],"title":%s,"weight":%d,"score":%g,"public":%t,"note":null,"langs":["en","de","ja"],"meta":{"size":%d,"etag":"\"%x\"","digest":"sha-256=:%x=:"}}`,
			i, title, r.IntN(1000), r.Float64()*100, r.IntN(2) == 0, r.IntN(1<<20), r.Uint64(), r.Uint64())
	}
	b.WriteString(`],"count":1}`)
	return []byte(b.String())
}

func benchDocs(b *testing.B) map[string][]byte {
	full, err := os.ReadFile("testdata/knowledge-linkset-appendix-a-full.json")
	if err != nil {
		b.Fatal(err)
	}
	return map[string][]byte{"linkset-4.5KB": full, "gen-5KB": genDoc(5 << 10), "gen-60KB": genDoc(60 << 10)}
}

// BenchmarkDecode compares Decode and DecodeOrdered with encoding/json
// decoding into any (with UseNumber, the same tree) on the same documents in
// the same run; the ratio of Decode's and encoding/json's ns/op figures is
// what the package promises to keep at or below 1.
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"linkset-4.5KB", "gen-5KB", "gen-60KB"} {
		doc := benchDocs(b)[name]
		b.Run(name+"/strictjson", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Decode(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/strictjson-ordered", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeOrdered(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-json-unmarshal", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(doc, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-json-usenumber", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := stdDecode(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValid measures the checks alone, against json.Valid.
func BenchmarkValid(b *testing.B) {
	for _, name := range []string{"gen-5KB", "gen-60KB"} {
		doc := benchDocs(b)[name]
		b.Run(name+"/strictjson", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if err := Valid(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if !json.Valid(doc) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkDecodeRatio interleaves Decode and json.Unmarshal into any on the
// same document, so that machine load affects both alike, and reports the
// ratio of their times (at most 1 is the target).
func BenchmarkDecodeRatio(b *testing.B) {
	benchRatio(b, func(doc []byte) error { _, err := Decode(doc); return err },
		func(doc []byte) error { var v any; return json.Unmarshal(doc, &v) })
}

// BenchmarkDecodeOrderedRatio interleaves DecodeOrdered and Decode on the
// same document and reports the ratio of their times.
func BenchmarkDecodeOrderedRatio(b *testing.B) {
	benchRatio(b, func(doc []byte) error { _, err := DecodeOrdered(doc); return err },
		func(doc []byte) error { _, err := Decode(doc); return err })
}

// benchRatio runs ours and theirs alternately on each benchmark document and
// reports the ratio of the time spent in ours to the time spent in theirs.
func benchRatio(b *testing.B, ours, theirs func(doc []byte) error) {
	for _, name := range []string{"linkset-4.5KB", "gen-5KB", "gen-60KB"} {
		doc := benchDocs(b)[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			benchratio.Run(b, func() error { return ours(doc) }, func() error { return theirs(doc) })
		})
	}
}
