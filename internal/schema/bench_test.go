package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/benchratio"
	"github.com/agentweb/agentweb/internal/strictjson"
)

const benchSchema = `{
	"type": "object",
	"required": ["version", "links"],
	"properties": {
		"version": {"const": "1.1"},
		"links": {
			"type": "array",
			"maxItems": 1000,
			"items": {
				"type": "object",
				"required": ["href", "rel"],
				"properties": {
					"href": {"type": "string", "format": "uri"},
					"rel": {"type": "array", "items": {"type": "string", "minLength": 1}},
					"title": {"type": "string", "maxLength": 200},
					"weight": {"type": "integer", "minimum": 0}
				},
				"additionalProperties": false
			}
		}
	},
	"additionalProperties": false
}`

func benchDoc(n int, bad bool) []byte {
	var b strings.Builder
	b.WriteString(`{"version":"1.1","links":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		w := i
		if bad && i%10 == 0 {
			w = -1
		}
		fmt.Fprintf(&b, `{"href":"https://example.com/doc/%d","rel":["item","describedby"],"title":"Document number %d","weight":%d}`, i, i, w)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkValidate measures Validate on a decoded ~5 KB and ~60 KB document,
// valid and with one violation in ten links, next to the cost of decoding
// the same document with encoding/json, so the Parse+validate ratio of a spec
// package can be read off one run.
func BenchmarkValidate(b *testing.B) {
	s := MustCompile("https://schemas.agentweb.invalid/bench.json", []byte(benchSchema))
	for _, size := range []struct {
		name string
		n    int
	}{{"5KB", 50}, {"60KB", 600}} {
		for _, bad := range []bool{false, true} {
			data := benchDoc(size.n, bad)
			doc, err := strictjson.Decode(data)
			if err != nil {
				b.Fatal(err)
			}
			name := fmt.Sprintf("%s/bad=%t", size.name, bad)
			b.Run(name+"/validate", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					v := s.Validate(doc)
					if (v != nil) != bad {
						b.Fatalf("violations: %v", v)
					}
				}
			})
			b.Run(name+"/decode+validate", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					d, err := strictjson.Decode(data)
					if err != nil {
						b.Fatal(err)
					}
					s.Validate(d)
				}
			})
			b.Run(name+"/encoding-json-unmarshal", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					var v any
					if err := json.Unmarshal(data, &v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkParseValidateRatio interleaves strict decoding plus validation
// with encoding/json decoding into any on the same valid document, so that
// machine load affects both alike, and reports the ratio of their times
// (the spec packages' budget for Parse+validate is 4x).
func BenchmarkParseValidateRatio(b *testing.B) {
	s := MustCompile("https://schemas.agentweb.invalid/bench.json", []byte(benchSchema))
	for _, size := range []struct {
		name string
		n    int
	}{{"5KB", 50}, {"60KB", 600}} {
		data := benchDoc(size.n, false)
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			benchratio.Run(b,
				func() error {
					d, err := strictjson.Decode(data)
					if err != nil {
						return err
					}
					if v := s.Validate(d); v != nil {
						return fmt.Errorf("unexpected violations: %v", v)
					}
					return nil
				},
				func() error { var v any; return json.Unmarshal(data, &v) })
		})
	}
}
