package agentsignup

import (
	"crypto/sha256"
	"encoding/json"
	"testing"

	"github.com/agentweb/agentweb/internal/benchratio"
)

// BenchmarkParse measures Parse on the seed example against its baseline,
// encoding/json into any plus one SHA-256 of the terms text, in the same
// run. The bound is Parse at most 1.2× the baseline (about 1.05× on
// 2 cores: the strict decoder reuses its scratch stacks and the terms
// digest is compared as bytes); the "ratio" sub-benchmark reports it
// directly. No test holds the bound: a loaded machine skews one run.
func BenchmarkParse(b *testing.B) {
	data := seedBytes(b)
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			baseline(b, data)
		}
	})
	// ratio alternates the two in one loop, so that both see the same
	// machine load, and reports Parse's time over the baseline's.
	b.Run("ratio", func(b *testing.B) {
		benchratio.Run(b,
			func() error { _, err := Parse(data); return err },
			func() error { baseline(b, data); return nil })
	})
}

// baseline is encoding/json into any plus one SHA-256 of the terms text.
func baseline(b *testing.B, data []byte) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		b.Fatal(err)
	}
	text := v.(map[string]any)["terms"].(map[string]any)["text"].(string)
	sum := sha256.Sum256([]byte(text))
	_ = sum
}

// BenchmarkParseDefective measures Parse on a document with several
// problems (the error path builds every problem).
func BenchmarkParseDefective(b *testing.B) {
	m := seedTree(b)
	delete(m, "audience")
	m["pricing"] = map[string]any{"plan": "pro"}
	termsOf(m)["url"] = "http://example.com/terms"
	data := marshal(b, m)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err == nil {
			b.Fatal("parsed")
		}
	}
}

// BenchmarkVerifyAttestation measures a full verification (parse, header
// checks, Ed25519 signature, claims).
func BenchmarkVerifyAttestation(b *testing.B) {
	doc := docWith(b, signRaw(testKey(1), goodHeader(), goodClaims()))
	keys := testKeys()
	b.ReportAllocs()
	for b.Loop() {
		res, err := verifyAttestation(b.Context(), doc, testOrigin, keys, testNow)
		if err != nil || res.Status != AttestationStatusVerified {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkTermsHash measures TermsHash on the seed's terms text.
func BenchmarkTermsHash(b *testing.B) {
	text := seedTree(b)["terms"].(map[string]any)["text"].(string)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = TermsHash(text)
	}
}

// BenchmarkParseJWKS measures ParseJWKS on a set of four Ed25519 keys.
func BenchmarkParseJWKS(b *testing.B) {
	data := jwksJSON(okpJWK(testKey(1), "a"), okpJWK(testKey(2), "b"), okpJWK(testKey(3), "c"), okpJWK(testKey(4), "d"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseJWKS(data); err != nil {
			b.Fatal(err)
		}
	}
}
