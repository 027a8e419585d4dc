package linkset

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzParseCheck feeds arbitrary bytes to Parse and every mode of
// Evaluate: nothing panics, and a document that parses survives a round
// trip through MarshalJSON and its canonical bytes unchanged.
func FuzzParseCheck(f *testing.F) {
	f.Add(readVector(f, vectorFull))
	f.Add(readVector(f, vectorReduced))
	for _, tc := range corpus {
		f.Add(tc.data(f))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, r := evaluateBytes(data, ModeStrict)
		if d == nil {
			if len(r.Problems) == 0 {
				t.Fatal("a refused document has no problem")
			}
			return
		}
		d.Evaluate(ModePublisher)
		d.Evaluate(ModeReader)
		d.peers()
		d.successors()
		d.ledgerHead()
		out, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		d2, err := Parse(out)
		if err != nil {
			t.Fatalf("the output of MarshalJSON does not parse: %v\n%s", err, out)
		}
		out2, err := json.Marshal(d2)
		if err != nil || string(out) != string(out2) {
			t.Fatalf("the round trip is not stable:\n%s\n%s", out, out2)
		}
		canon, err := d.Canonical()
		if err != nil {
			t.Fatal(err)
		}
		if _, r := evaluateBytes(canon, ModeStrict); len(r.Problems) != 0 && r.Problems[len(r.Problems)-1].Rule == "canonical-bytes" {
			t.Fatalf("canonical bytes are not canonical: %s", canon)
		}
	})
}

// FuzzParseDigest checks that the digest parser never panics and that what
// it accepts formats back to a value it reads as the same digest.
func FuzzParseDigest(f *testing.F) {
	for _, s := range []string{
		"sha-256=:JeigkAtOPS9f9BzKym+X6J2O4awt53GEua1AhIAiLfE=:",
		"sha-256=:AAAA:", "sha-512=:AA==:", "sha-256=?1", "sha-256=(:AA==:)", "sha-256=:x:;a=1",
		" sha-256=:JeigkAtOPS9f9BzKym+X6J2O4awt53GEua1AhIAiLfE=:", "", "a=1, b=2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// The canonical fast path agrees with the RFC 9651 parser.
		if fast, ok := parseCanonicalDigest(s); ok {
			slow, err := parseDigestBytes(s)
			if err != nil || !bytes.Equal(slow, fast[:]) {
				t.Fatalf("%q: fast path %v, httpsfv %v, %v", s, fast, slow, err)
			}
		}
		d, err := ParseDigest(s)
		if err != nil {
			ve := asValidationError(err)
			if ve == nil || len(ve.Problems) != 1 || !errors.Is(err, ErrDigest) {
				t.Fatalf("error %T %v is not a one-problem *ValidationError wrapping ErrDigest", err, err)
			}
			return
		}
		d2, err := ParseDigest(d.String())
		if err != nil || d2 != d {
			t.Fatalf("%q formats as %q, which reads back as %v, %v", s, d.String(), d2, err)
		}
	})
}
