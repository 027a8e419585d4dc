package benchratio

import (
	"encoding/json"
	"testing"
)

// Bytes calls parse with data once per iteration of b.Loop. It reports the
// allocations, and the throughput in bytes of data. An error from parse
// stops the benchmark with b.Fatal.
func Bytes(b *testing.B, data []byte, parse func(data []byte) error) {
	b.Helper()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// DecodeAny decodes data with encoding/json into an any. It is the baseline
// a parser of JSON documents is measured against.
func DecodeAny(data []byte) error {
	var v any
	return json.Unmarshal(data, &v)
}
