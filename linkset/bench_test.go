package linkset

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/benchratio"
)

// BenchmarkParseCheck measures Parse followed by Check on Appendix A's full
// document, beside encoding/json decoding the same bytes into any, in the
// same run (the target: within 4x).
func BenchmarkParseCheck(b *testing.B) {
	data := readVector(b, vectorFull)
	b.Run("linkset-parse-check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			d, err := Parse(data)
			if err != nil {
				b.Fatal(err)
			}
			if ps := d.Check(); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
	b.Run("encoding-json-any", func(b *testing.B) {
		benchratio.Bytes(b, data, benchratio.DecodeAny)
	})
}

// BenchmarkBuilder builds a document over 100 artefacts totalling 64 MiB
// (generated in memory), beside hashing the same bytes with crypto/sha256
// alone, in the same run (the target: within 1.2x).
func BenchmarkBuilder(b *testing.B) {
	const n, total = 100, 64 << 20
	r := rand.New(rand.NewPCG(1, 2))
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i] = make([]byte, total/n)
		for j := 0; j < len(bodies[i]); j += 8 {
			v := r.Uint64()
			for k := 0; k < 8 && j+k < len(bodies[i]); k++ {
				bodies[i][j+k] = byte(v >> (8 * k))
			}
		}
	}
	builder := func() *Builder {
		bl := &Builder{BundleIRI: "https://example.org/", SourceDate: time.Unix(1760000000, 0), SpecVersion: "1.0.0", BundleVersion: "v1", Counts: map[string]int{"items": n}}
		bl.Artefacts = append(bl.Artefacts, Artefact{Relation: "describedby", Href: "https://example.org/graph.jsonld", Type: "application/ld+json", Reader: bytes.NewReader(bodies[0])})
		bl.Artefacts = append(bl.Artefacts, Artefact{Relation: RelGraph, Href: "https://example.org/graph.nq", Type: "application/n-quads", Reader: bytes.NewReader(bodies[1])})
		for i := 2; i < n; i++ {
			bl.Artefacts = append(bl.Artefacts, Artefact{Relation: RelSkills, Href: fmt.Sprintf("https://example.org/skills/%03d.json", i), Type: "application/json", Reader: bytes.NewReader(bodies[i])})
		}
		return bl
	}
	b.Run("builder", func(b *testing.B) {
		b.SetBytes(total)
		for b.Loop() {
			if _, _, err := builder().Build(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sha256-alone", func(b *testing.B) {
		b.SetBytes(total)
		for b.Loop() {
			for _, body := range bodies {
				h := sha256.New()
				h.Write(body)
				h.Sum(nil)
			}
		}
	})
}
