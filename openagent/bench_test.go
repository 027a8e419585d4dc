package openagent

import (
	"path/filepath"
	"testing"

	"github.com/agentweb/agentweb/internal/benchratio"
)

// BenchmarkParse measures Parse (strict decoding, schema validation, version
// check and the typed profile) on the full valid profile; compare it with
// BenchmarkParseEncodingJSONAny, encoding/json into any, in the same run.
func BenchmarkParse(b *testing.B) {
	benchratio.Bytes(b, readFile(b, filepath.Join("valid", "full.json")), parse)
}

// parse is Parse for a benchmark, without the profile.
func parse(data []byte) error { _, err := Parse(data); return err }

// BenchmarkParseEncodingJSONAny is the baseline of BenchmarkParse.
func BenchmarkParseEncodingJSONAny(b *testing.B) {
	benchratio.Bytes(b, readFile(b, filepath.Join("valid", "full.json")), benchratio.DecodeAny)
}

// BenchmarkParseRatio interleaves Parse with encoding/json decoding into any
// on the full valid profile, so that machine load affects both alike, and
// reports the ratio of their times (the budget is 4x).
func BenchmarkParseRatio(b *testing.B) {
	data := readFile(b, filepath.Join("valid", "full.json"))
	b.SetBytes(int64(len(data)))
	benchratio.Run(b,
		func() error { return parse(data) },
		func() error { return benchratio.DecodeAny(data) })
}

// BenchmarkParseInvalid measures Parse on a document with many problems.
func BenchmarkParseInvalid(b *testing.B) {
	data := []byte(`{"type":"agent","version":"1.2","name":"","did":"did:key:z6Mk","owner_did":"Operator",
		"skills":["a","a",""],"permissions_requested":["repo:*"],"pricing":{"model":"weekly","amount":-2,"extra":1},
		"platform_id":"x","webhook_url":"relative"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err == nil {
			b.Fatal("want an error")
		}
	}
}

// BenchmarkCheckPublic measures the publisher lint on the full profile.
func BenchmarkCheckPublic(b *testing.B) {
	p, err := Parse(readFile(b, filepath.Join("valid", "full.json")))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		CheckPublic(p, nil)
	}
}

// BenchmarkMarshal measures Profile.Marshal, which re-parses its output.
func BenchmarkMarshal(b *testing.B) {
	p, err := Parse(readFile(b, filepath.Join("valid", "full.json")))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}
