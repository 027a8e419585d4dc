package agentsignup

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	testIssuer = "https://agentregistrar.dev"
	testOrigin = "https://example.com"
)

var testNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func testKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

func enc(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// signRaw builds a compact JWS over arbitrary header and claims, signed with
// Ed25519, so that tests can produce tokens no honest signer would.
func signRaw(priv ed25519.PrivateKey, header, claims any) string {
	input := enc(header) + "." + enc(claims)
	return input + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(input)))
}

func goodHeader() map[string]any {
	return map[string]any{"alg": "EdDSA", "typ": AttestationType, "kid": "k1"}
}

func goodClaims() map[string]any {
	pub := testKey(1).Public().(ed25519.PublicKey)
	return map[string]any{
		"iss":       testIssuer,
		"iat":       testNow.Add(-time.Hour).Unix(),
		"exp":       testNow.Add(24 * time.Hour).Unix(),
		"rp":        map[string]any{"origin": testOrigin, "audience": "example-rp"},
		"provider":  map[string]any{"name": "Example RP", "legal_name": "Example RP Ltd"},
		"assurance": "organization",
		"keys":      []any{map[string]any{"kty": "OKP", "crv": "Ed25519", "x": base64.RawURLEncoding.EncodeToString(pub), "kid": "rp-1"}},
	}
}

func testKeys() StaticKeySet {
	return StaticKeySet{testIssuer: {{KeyID: "k1", Key: testKey(1).Public().(ed25519.PublicKey)}}}
}

func docWith(t testing.TB, token string) *Document {
	t.Helper()
	d, err := Parse(seedBytes(t))
	require.NoError(t, err)
	d.RPAttestation = token
	return d
}

func with(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for kk, vv := range m {
		out[kk] = vv
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

type failingKeys struct{}

func (failingKeys) IssuerKeys(context.Context, string, string) ([]PublicKey, error) {
	return nil, errors.New("jwks unavailable")
}

func TestVerifyAttestation(t *testing.T) {
	k1, k2 := testKey(1), testKey(2)
	good := signRaw(k1, goodHeader(), goodClaims())
	hs256 := func() string {
		// HS256 with the issuer's public key as the HMAC secret: the classic
		// algorithm-confusion forgery.
		input := enc(map[string]any{"alg": "HS256", "typ": AttestationType}) + "." + enc(goodClaims())
		mac := hmac.New(sha256.New, k1.Public().(ed25519.PublicKey))
		mac.Write([]byte(input))
		return input + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	}()
	attackerJWK := map[string]any{"kty": "OKP", "crv": "Ed25519", "x": base64.RawURLEncoding.EncodeToString(k2.Public().(ed25519.PublicKey))}
	segs := strings.Split(good, ".")

	tests := []struct {
		name   string
		token  string
		origin string
		keys   KeySet
		now    time.Time
		want   AttestationStatus
		detail string
	}{
		{name: "absent", token: "", want: StatusAbsent},
		{name: "verified", token: good, want: StatusVerified},
		{name: "verified without kid", token: signRaw(k1, with(goodHeader(), "kid", nil), goodClaims()), want: StatusVerified},
		{name: "verified with application/ typ", token: signRaw(k1, with(goodHeader(), "typ", "application/"+AttestationType), goodClaims()), want: StatusVerified},
		{name: "verified with key without kid", token: good, keys: StaticKeySet{testIssuer: {{Key: k1.Public().(ed25519.PublicKey)}}}, want: StatusVerified},
		{name: "verified among several keys", token: good, keys: StaticKeySet{testIssuer: {{KeyID: "k1", Key: k2.Public().(ed25519.PublicKey)}, {KeyID: "k1", Key: k1.Public().(ed25519.PublicKey)}}}, want: StatusVerified},
		{name: "verified: origin canonicalised", token: good, origin: "https://EXAMPLE.com:443/", want: StatusVerified},
		{name: "verified: expiry within leeway", token: good, now: testNow.Add(24*time.Hour + 30*time.Second), want: StatusVerified},
		{name: "verified: iat within leeway", token: signRaw(k1, goodHeader(), with(goodClaims(), "iat", testNow.Add(30*time.Second).Unix())), want: StatusVerified},
		{name: "verified: fractional dates", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", json.Number("1900000000.5"))), want: StatusVerified},
		{name: "expired", token: good, now: testNow.Add(25 * time.Hour), want: StatusExpired},
		{name: "expired at leeway", token: good, now: testNow.Add(24*time.Hour + AttestationLeeway), want: StatusExpired},
		{name: "not yet valid: iat", token: signRaw(k1, goodHeader(), with(goodClaims(), "iat", testNow.Add(time.Hour).Unix())), want: StatusNotYetValid},
		{name: "not yet valid: nbf", token: signRaw(k1, goodHeader(), with(goodClaims(), "nbf", testNow.Add(2*time.Minute).Unix())), want: StatusNotYetValid},
		{name: "bad signature: other key", token: signRaw(k2, goodHeader(), goodClaims()), want: StatusBadSignature},
		{name: "bad signature: payload swapped", token: segs[0] + "." + enc(with(goodClaims(), "rp", map[string]any{"origin": "https://evil.example", "audience": "example-rp"})) + "." + segs[2], want: StatusBadSignature},
		{name: "bad signature: flipped bit", token: segs[0] + "." + segs[1] + "." + flipLast(segs[2]), want: StatusBadSignature},
		{name: "untrusted issuer: not allow-listed", token: signRaw(k1, goodHeader(), with(goodClaims(), "iss", "https://evil-broker.example")), keys: StaticKeySet{"https://evil-broker.example": {{Key: k1.Public().(ed25519.PublicKey)}}}, want: StatusUntrustedIssuer, detail: "issuer_allowlist"},
		{name: "untrusted issuer: no key", token: good, keys: StaticKeySet{"https://other.example": {{Key: k1.Public().(ed25519.PublicKey)}}}, want: StatusUntrustedIssuer},
		{name: "untrusted issuer: nil key set", token: good, keys: KeySet(nil), want: StatusUntrustedIssuer, detail: "no key set"},
		{name: "untrusted issuer: kid unknown", token: signRaw(k1, with(goodHeader(), "kid", "k9"), goodClaims()), want: StatusUntrustedIssuer, detail: "k9"},
		{name: "untrusted issuer: key of wrong size", token: good, keys: StaticKeySet{testIssuer: {{KeyID: "k1", Key: ed25519.PublicKey("short")}}}, want: StatusUntrustedIssuer},
		{name: "origin mismatch", token: good, origin: "https://copycat.example", want: StatusOriginMismatch},
		{name: "origin mismatch: www", token: good, origin: "https://www.example.com", want: StatusOriginMismatch},
		{name: "origin mismatch: port", token: good, origin: "https://example.com:8443", want: StatusOriginMismatch},
		{name: "origin mismatch: claim not canonical", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", map[string]any{"origin": "https://Example.com/", "audience": "example-rp"})), want: StatusOriginMismatch},
		{name: "audience mismatch", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", map[string]any{"origin": testOrigin, "audience": "other-rp"})), want: StatusAudienceMismatch},
		{name: "forbidden claim: terms hash", token: signRaw(k1, goodHeader(), with(goodClaims(), "terms_hash", seedHash)), want: StatusForbiddenClaims, detail: "/terms_hash (terms hash)"},
		{name: "forbidden claim: scopes", token: signRaw(k1, goodHeader(), with(goodClaims(), "scopes", []any{"tos:accept"})), want: StatusForbiddenClaims, detail: "/scopes"},
		{name: "forbidden claim: endpoints", token: signRaw(k1, goodHeader(), with(goodClaims(), "endpoints", map[string]any{})), want: StatusForbiddenClaims, detail: "/endpoints"},
		{name: "forbidden claim: provider_url nested", token: signRaw(k1, goodHeader(), with(goodClaims(), "provider", map[string]any{"name": "x", "provider_url": "https://x"})), want: StatusForbiddenClaims, detail: "/provider/provider_url"},
		{name: "forbidden claim: account ids", token: signRaw(k1, goodHeader(), with(goodClaims(), "account_ids", []any{"a1"})), want: StatusForbiddenClaims, detail: "/account_ids"},
		{name: "forbidden claim: prices", token: signRaw(k1, goodHeader(), with(goodClaims(), "prices", map[string]any{"pro": 10})), want: StatusForbiddenClaims, detail: "/prices"},
		{name: "forbidden claim: private JWK member d", token: signRaw(k1, goodHeader(), with(goodClaims(), "keys", []any{map[string]any{"kty": "OKP", "crv": "Ed25519", "x": "AA", "d": "AA"}})), want: StatusForbiddenClaims, detail: "/keys/0/d (private key material)"},
		{name: "forbidden claim: symmetric JWK", token: signRaw(k1, goodHeader(), with(goodClaims(), "keys", []any{map[string]any{"kty": "oct", "k": "c2VjcmV0"}})), want: StatusForbiddenClaims, detail: "/keys/0/k"},
		{name: "unsafe header: jwk", token: signRaw(k2, with(goodHeader(), "jwk", attackerJWK), goodClaims()), want: StatusUnsafeHeader, detail: "jwk"},
		{name: "unsafe header: jku", token: signRaw(k1, with(goodHeader(), "jku", "https://evil.example/jwks.json"), goodClaims()), want: StatusUnsafeHeader, detail: "jku"},
		{name: "unsafe header: x5u", token: signRaw(k1, with(goodHeader(), "x5u", "https://evil.example/cert.pem"), goodClaims()), want: StatusUnsafeHeader, detail: "x5u"},
		{name: "unsafe header: x5c", token: signRaw(k1, with(goodHeader(), "x5c", []any{"MIIB"}), goodClaims()), want: StatusUnsafeHeader},
		{name: "unsafe header: crit", token: signRaw(k1, with(goodHeader(), "crit", []any{"exp"}), goodClaims()), want: StatusUnsafeHeader},
		{name: "unsafe header: b64 false", token: signRaw(k1, with(with(goodHeader(), "b64", false), "crit", []any{"b64"}), goodClaims()), want: StatusUnsafeHeader},
		{name: "malformed: alg none", token: enc(map[string]any{"alg": "none", "typ": AttestationType}) + "." + enc(goodClaims()) + ".", want: StatusMalformed, detail: `"none"`},
		{name: "malformed: HS256 with the public key as secret", token: hs256, want: StatusMalformed, detail: "HS256"},
		{name: "malformed: alg case", token: signRaw(k1, with(goodHeader(), "alg", "eddsa"), goodClaims()), want: StatusMalformed},
		{name: "malformed: alg Ed25519", token: signRaw(k1, with(goodHeader(), "alg", "Ed25519"), goodClaims()), want: StatusMalformed},
		{name: "malformed: alg missing", token: signRaw(k1, with(goodHeader(), "alg", nil), goodClaims()), want: StatusMalformed},
		{name: "malformed: typ JWT", token: signRaw(k1, with(goodHeader(), "typ", "JWT"), goodClaims()), want: StatusMalformed, detail: "typ"},
		{name: "malformed: typ missing", token: signRaw(k1, with(goodHeader(), "typ", nil), goodClaims()), want: StatusMalformed},
		{name: "malformed: kid number", token: signRaw(k1, with(goodHeader(), "kid", 7), goodClaims()), want: StatusMalformed},
		{name: "malformed: huge", token: strings.Repeat("A", MaxAttestationBytes+1), want: StatusMalformed, detail: "cap"},
		{name: "malformed: huge valid-looking", token: signRaw(k1, goodHeader(), with(goodClaims(), "pad", strings.Repeat("x", MaxAttestationBytes))), want: StatusMalformed, detail: "cap"},
		{name: "malformed: one segment", token: "abc", want: StatusMalformed, detail: "1 segments"},
		{name: "malformed: two segments", token: segs[0] + "." + segs[1], want: StatusMalformed},
		{name: "malformed: four segments", token: good + ".x", want: StatusMalformed},
		{name: "malformed: JWE-like five segments", token: "a.b.c.d.e", want: StatusMalformed},
		{name: "malformed: only dots", token: "..", want: StatusMalformed},
		{name: "malformed: padded base64", token: segs[0] + "=." + segs[1] + "." + segs[2], want: StatusMalformed, detail: "base64url"},
		{name: "malformed: standard base64 alphabet", token: strings.NewReplacer("-", "+", "_", "/").Replace(segs[0]) + "+/." + segs[1] + "." + segs[2], want: StatusMalformed},
		{name: "malformed: non-ASCII", token: segs[0] + "." + segs[1] + "é." + segs[2], want: StatusMalformed},
		{name: "malformed: embedded newline", token: segs[0][:4] + "\n" + segs[0][4:] + "." + segs[1] + "." + segs[2], want: StatusMalformed, detail: "base64url alphabet"},
		{name: "malformed: space", token: " " + good, want: StatusMalformed},
		{name: "malformed: header not JSON", token: base64.RawURLEncoding.EncodeToString([]byte("{alg:EdDSA")) + "." + segs[1] + "." + segs[2], want: StatusMalformed},
		{name: "malformed: header duplicate alg", token: base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","alg":"EdDSA","typ":"agent-rp-attestation+jwt"}`)) + "." + segs[1] + "." + segs[2], want: StatusMalformed},
		{name: "malformed: claims duplicate iss", token: signRawPayload(k1, goodHeader(), `{"iss":"https://evil.example","iss":"https://agentregistrar.dev","iat":1,"exp":2000000000,"rp":{"origin":"https://example.com","audience":"example-rp"}}`), want: StatusMalformed},
		{name: "malformed: claims array", token: signRawPayload(k1, goodHeader(), `[1,2]`), want: StatusMalformed},
		{name: "malformed: short signature", token: segs[0] + "." + segs[1] + "." + base64.RawURLEncoding.EncodeToString([]byte("sig")), want: StatusMalformed, detail: "64"},
		{name: "malformed: iss missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "iss", nil)), want: StatusMalformed},
		{name: "malformed: exp missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", nil)), want: StatusMalformed},
		{name: "malformed: exp string", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", "tomorrow")), want: StatusMalformed},
		{name: "malformed: exp huge", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", json.Number("1e300"))), want: StatusMalformed},
		{name: "malformed: exp negative", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", -5)), want: StatusMalformed},
		{name: "malformed: exp before iat", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", testNow.Add(-2*time.Hour).Unix())), want: StatusMalformed},
		{name: "malformed: rp missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", nil)), want: StatusMalformed},
		{name: "malformed: rp.origin missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", map[string]any{"audience": "example-rp"})), want: StatusMalformed},
		{name: "malformed: keys not array", token: signRaw(k1, goodHeader(), with(goodClaims(), "keys", "k")), want: StatusMalformed},
		{name: "malformed: deeply nested claims", token: signRawPayload(k1, goodHeader(), strings.Repeat("[", 200)+strings.Repeat("]", 200)), want: StatusMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			origin := tt.origin
			if origin == "" {
				origin = testOrigin
			}
			keys := tt.keys
			if keys == nil && !strings.Contains(tt.name, "nil key set") {
				keys = testKeys()
			}
			now := tt.now
			if now.IsZero() {
				now = testNow
			}
			doc := docWith(t, tt.token)
			var res *AttestationResult
			var err error
			require.NotPanics(t, func() { res, err = VerifyAttestation(t.Context(), doc, origin, keys, now) })
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Status, "detail: %s", res.Detail)
			assert.Contains(t, res.Detail, tt.detail)
			assert.Equal(t, tt.want == StatusVerified, res.Verified())
			switch tt.want {
			case StatusVerified, StatusExpired, StatusNotYetValid, StatusOriginMismatch, StatusAudienceMismatch, StatusForbiddenClaims:
				require.NotNil(t, res.Claims, "claims are exposed once the signature verified")
				assert.Equal(t, testIssuer, res.Claims.Issuer)
			default:
				assert.Nil(t, res.Claims, "never expose claims of an unverified token")
			}
			// Parse agrees: only a malformed attestation is a conformance error.
			if tt.token == "" {
				return
			}
			m := seedTree(t)
			m["rp_attestation"] = tt.token
			_, perr := Parse(marshal(t, m))
			if tt.want == StatusMalformed {
				ve := problemsOf(t, perr)
				require.Len(t, ve.Problems, 1)
				assert.Equal(t, RuleAttestationMalformed, ve.Problems[0].Rule)
				assert.Equal(t, "/rp_attestation", ve.Problems[0].Pointer)
			} else {
				assert.NoError(t, perr)
			}
		})
	}
}

func signRawPayload(priv ed25519.PrivateKey, header any, payload string) string {
	input := enc(header) + "." + base64.RawURLEncoding.EncodeToString([]byte(payload))
	return input + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(input)))
}

func flipLast(s string) string {
	b, _ := base64.RawURLEncoding.DecodeString(s)
	b[0] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

func TestVerifyAttestationGoJoseSigner(t *testing.T) {
	// A token produced by an ordinary go-jose signer verifies.
	k := testKey(1)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.EdDSA, Key: k},
		(&jose.SignerOptions{}).WithType(AttestationType).WithHeader("kid", "k1"))
	require.NoError(t, err)
	payload, err := json.Marshal(goodClaims())
	require.NoError(t, err)
	jws, err := signer.Sign(payload)
	require.NoError(t, err)
	token, err := jws.CompactSerialize()
	require.NoError(t, err)
	res, err := VerifyAttestation(t.Context(), docWith(t, token), testOrigin, testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, StatusVerified, res.Status, res.Detail)
	assert.Equal(t, "k1", res.KeyID)
	assert.Equal(t, AttestedRP{Origin: testOrigin, Audience: "example-rp"}, res.Claims.RP)
	assert.Equal(t, testNow.Add(24*time.Hour), res.Claims.Expiry)
	assert.JSONEq(t, string(payload), string(res.Claims.Raw))
	require.Len(t, res.Claims.Keys, 1)
}

func TestVerifyAttestationErrors(t *testing.T) {
	good := signRaw(testKey(1), goodHeader(), goodClaims())
	_, err := VerifyAttestation(t.Context(), docWith(t, good), testOrigin, failingKeys{}, testNow)
	require.Error(t, err, "a key set that cannot be consulted is an error, not a result")
	assert.Contains(t, err.Error(), "jwks unavailable")
	for _, origin := range []string{"", "example.com", "https://example.com/path", "ftp://example.com", "https://u:p@example.com"} {
		_, err := VerifyAttestation(t.Context(), docWith(t, good), origin, testKeys(), testNow)
		assert.Error(t, err, origin)
	}
	res, err := VerifyAttestation(t.Context(), nil, testOrigin, testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, StatusAbsent, res.Status)
}

func TestVerifyAttestationIDNOrigin(t *testing.T) {
	k := testKey(1)
	token := signRaw(k, goodHeader(), with(goodClaims(), "rp", map[string]any{"origin": "https://xn--bcher-kva.example", "audience": "example-rp"}))
	res, err := VerifyAttestation(t.Context(), docWith(t, token), "https://BÜCHER.example", testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, StatusVerified, res.Status, res.Detail)
}

func TestVerifyAttestationGeneratedKeys(t *testing.T) {
	// Freshly generated keys, several per issuer: only the signer's key
	// verifies, and a token signed by one issuer's key does not verify as
	// another allow-listed issuer.
	pubA, privA, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	pubB, privB, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	other := "https://broker-two.example"
	keys := StaticKeySet{testIssuer: {{Key: pubA}}, other: {{Key: pubB}}}
	doc := docWith(t, "")
	doc.IssuerAllowlist = []string{testIssuer, other}

	doc.RPAttestation = signRaw(privA, with(goodHeader(), "kid", nil), goodClaims())
	res, err := VerifyAttestation(t.Context(), doc, testOrigin, keys, testNow)
	require.NoError(t, err)
	assert.Equal(t, StatusVerified, res.Status, res.Detail)

	doc.RPAttestation = signRaw(privA, with(goodHeader(), "kid", nil), with(goodClaims(), "iss", other))
	res, err = VerifyAttestation(t.Context(), doc, testOrigin, keys, testNow)
	require.NoError(t, err)
	assert.Equal(t, StatusBadSignature, res.Status, "A's key does not speak for issuer B")

	doc.RPAttestation = signRaw(privB, with(goodHeader(), "kid", nil), with(goodClaims(), "iss", other))
	res, err = VerifyAttestation(t.Context(), doc, testOrigin, keys, testNow)
	require.NoError(t, err)
	assert.Equal(t, StatusVerified, res.Status, res.Detail)
	assert.Equal(t, other, res.Issuer)
}
