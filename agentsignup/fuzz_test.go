package agentsignup

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParse feeds arbitrary bytes to Parse, seeded with the seed example and
// the defect corpus. Parse must never panic, must return either a document
// or a *ValidationError with at least one problem, and a document it accepts
// must satisfy the cross-field rules.
func FuzzParse(f *testing.F) {
	f.Add(seedBytes(f))
	entries, err := os.ReadDir(filepath.Join("testdata", "defects"))
	require.NoError(f, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata", "defects", e.Name()))
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			ve, ok := err.(*ValidationError)
			if !ok || len(ve.Problems) == 0 {
				t.Fatalf("error is not a *ValidationError with problems: %v", err)
			}
			if d != nil {
				t.Fatal("document returned with an error")
			}
			return
		}
		if d.Protocol != Protocol || d.Terms.SHA256 != TermsHash(d.Terms.Text) {
			t.Fatalf("accepted a document breaking the cross-field rules: %+v", d)
		}
		for _, w := range d.Warnings {
			if w.Rule != RuleUnknownField {
				t.Fatalf("unexpected warning %v", w)
			}
		}
	})
}

// FuzzVerifyAttestation feeds arbitrary tokens to VerifyAttestation (and to
// Parse through a document carrying them). It must never panic or return an
// error for a token, and a fuzzed token must never verify.
func FuzzVerifyAttestation(f *testing.F) {
	k1 := testKey(1)
	good := signRaw(k1, goodHeader(), goodClaims())
	f.Add(good)
	f.Add(signRaw(k1, with(goodHeader(), "jwk", map[string]any{"kty": "OKP"}), goodClaims()))
	f.Add(enc(map[string]any{"alg": "none", "typ": AttestationType}) + "." + enc(goodClaims()) + ".")
	f.Add("a.b.c")
	f.Add("..")
	f.Add("eyJhbGciOiJFZERTQSJ9.e30.AAAA")
	keys := testKeys()
	doc := docWith(f, "")
	f.Fuzz(func(t *testing.T, token string) {
		d := *doc
		d.RPAttestation = token
		res, err := verifyAttestation(t.Context(), &d, testOrigin, keys, testNow)
		if err != nil {
			t.Fatalf("error for a token: %v", err)
		}
		if res.Status == AttestationStatusVerified && token != good {
			// Ed25519 signatures are not malleable in go's implementation;
			// only the seed itself may verify.
			t.Fatalf("fuzzed token verified: %q", token)
		}
		if res.Status == AttestationStatusAbsent && token != "" {
			t.Fatal("absent for a non-empty token")
		}
	})
}

// FuzzParseJWKS feeds arbitrary bytes to ParseJWKS: it must never panic,
// and every key it returns is a 32-byte Ed25519 public key.
func FuzzParseJWKS(f *testing.F) {
	f.Add(jwksJSON(okpJWK(testKey(1), "k1")))
	f.Add(jwksJSON(with(okpJWK(testKey(1), "k1"), "d", "AA")))
	f.Add([]byte(`{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"},{"kty":"oct","k":"AA"}]}`))
	f.Add([]byte(`{"keys":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, err := ParseJWKS(data)
		if err != nil {
			if keys != nil {
				t.Fatal("keys returned with an error")
			}
			return
		}
		if len(keys) > maxJWKSKeys {
			t.Fatalf("%d keys", len(keys))
		}
		for _, k := range keys {
			if len(k.Key) != 32 {
				t.Fatalf("key of %d bytes", len(k.Key))
			}
		}
	})
}
