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

	"github.com/agentweb/agentweb/internal/strictjson"
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
		{name: "absent", token: "", want: AttestationStatusAbsent},
		{name: "verified", token: good, want: AttestationStatusVerified},
		{name: "verified without kid", token: signRaw(k1, with(goodHeader(), "kid", nil), goodClaims()), want: AttestationStatusVerified},
		{name: "verified with application/ typ", token: signRaw(k1, with(goodHeader(), "typ", "application/"+AttestationType), goodClaims()), want: AttestationStatusVerified},
		{name: "verified with key without kid", token: good, keys: StaticKeySet{testIssuer: {{Key: k1.Public().(ed25519.PublicKey)}}}, want: AttestationStatusVerified},
		{name: "verified among several keys", token: good, keys: StaticKeySet{testIssuer: {{KeyID: "k1", Key: k2.Public().(ed25519.PublicKey)}, {KeyID: "k1", Key: k1.Public().(ed25519.PublicKey)}}}, want: AttestationStatusVerified},
		{name: "verified: origin canonicalised", token: good, origin: "https://EXAMPLE.com:443/", want: AttestationStatusVerified},
		{name: "verified: expiry within leeway", token: good, now: testNow.Add(24*time.Hour + 30*time.Second), want: AttestationStatusVerified},
		{name: "verified: iat within leeway", token: signRaw(k1, goodHeader(), with(goodClaims(), "iat", testNow.Add(30*time.Second).Unix())), want: AttestationStatusVerified},
		{name: "verified: fractional dates", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", json.Number("1900000000.5"))), want: AttestationStatusVerified},
		{name: "expired", token: good, now: testNow.Add(25 * time.Hour), want: AttestationStatusExpired},
		{name: "expired at leeway", token: good, now: testNow.Add(24*time.Hour + defaultLeeway), want: AttestationStatusExpired},
		{name: "not yet valid: iat", token: signRaw(k1, goodHeader(), with(goodClaims(), "iat", testNow.Add(time.Hour).Unix())), want: AttestationStatusNotYetValid},
		{name: "not yet valid: nbf", token: signRaw(k1, goodHeader(), with(goodClaims(), "nbf", testNow.Add(2*time.Minute).Unix())), want: AttestationStatusNotYetValid},
		{name: "bad signature: other key", token: signRaw(k2, goodHeader(), goodClaims()), want: AttestationStatusBadSignature},
		{name: "bad signature: payload swapped", token: segs[0] + "." + enc(with(goodClaims(), "rp", map[string]any{"origin": "https://evil.example", "audience": "example-rp"})) + "." + segs[2], want: AttestationStatusBadSignature},
		{name: "bad signature: flipped bit", token: segs[0] + "." + segs[1] + "." + flipLast(segs[2]), want: AttestationStatusBadSignature},
		{name: "untrusted issuer: not allow-listed", token: signRaw(k1, goodHeader(), with(goodClaims(), "iss", "https://evil-broker.example")), keys: StaticKeySet{"https://evil-broker.example": {{Key: k1.Public().(ed25519.PublicKey)}}}, want: AttestationStatusUntrustedIssuer, detail: "issuer_allowlist"},
		{name: "untrusted issuer: no key", token: good, keys: StaticKeySet{"https://other.example": {{Key: k1.Public().(ed25519.PublicKey)}}}, want: AttestationStatusUntrustedIssuer},
		{name: "untrusted issuer: nil key set", token: good, keys: KeySet(nil), want: AttestationStatusUntrustedIssuer, detail: "no key set"},
		{name: "untrusted issuer: kid unknown", token: signRaw(k1, with(goodHeader(), "kid", "k9"), goodClaims()), want: AttestationStatusUntrustedIssuer, detail: "k9"},
		{name: "untrusted issuer: key of wrong size", token: good, keys: StaticKeySet{testIssuer: {{KeyID: "k1", Key: ed25519.PublicKey("short")}}}, want: AttestationStatusUntrustedIssuer},
		{name: "origin mismatch", token: good, origin: "https://copycat.example", want: AttestationStatusOriginMismatch},
		{name: "origin mismatch: www", token: good, origin: "https://www.example.com", want: AttestationStatusOriginMismatch},
		{name: "origin mismatch: port", token: good, origin: "https://example.com:8443", want: AttestationStatusOriginMismatch},
		{name: "origin mismatch: claim not canonical", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", map[string]any{"origin": "https://Example.com/", "audience": "example-rp"})), want: AttestationStatusOriginMismatch},
		{name: "audience mismatch", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", map[string]any{"origin": testOrigin, "audience": "other-rp"})), want: AttestationStatusAudienceMismatch},
		{name: "forbidden claim: terms hash", token: signRaw(k1, goodHeader(), with(goodClaims(), "terms_hash", seedHash)), want: AttestationStatusForbiddenClaims, detail: "/terms_hash (terms hash)"},
		{name: "forbidden claim: scopes", token: signRaw(k1, goodHeader(), with(goodClaims(), "scopes", []any{"tos:accept"})), want: AttestationStatusForbiddenClaims, detail: "/scopes"},
		{name: "forbidden claim: endpoints", token: signRaw(k1, goodHeader(), with(goodClaims(), "endpoints", map[string]any{})), want: AttestationStatusForbiddenClaims, detail: "/endpoints"},
		{name: "forbidden claim: provider_url nested", token: signRaw(k1, goodHeader(), with(goodClaims(), "provider", map[string]any{"name": "x", "provider_url": "https://x"})), want: AttestationStatusForbiddenClaims, detail: "/provider/provider_url"},
		{name: "forbidden claim: account ids", token: signRaw(k1, goodHeader(), with(goodClaims(), "account_ids", []any{"a1"})), want: AttestationStatusForbiddenClaims, detail: "/account_ids"},
		{name: "forbidden claim: prices", token: signRaw(k1, goodHeader(), with(goodClaims(), "prices", map[string]any{"pro": 10})), want: AttestationStatusForbiddenClaims, detail: "/prices"},
		{name: "forbidden claim: private JWK member d", token: signRaw(k1, goodHeader(), with(goodClaims(), "keys", []any{map[string]any{"kty": "OKP", "crv": "Ed25519", "x": "AA", "d": "AA"}})), want: AttestationStatusForbiddenClaims, detail: "/keys/0/d (private key material)"},
		{name: "forbidden claim: symmetric JWK", token: signRaw(k1, goodHeader(), with(goodClaims(), "keys", []any{map[string]any{"kty": "oct", "k": "c2VjcmV0"}})), want: AttestationStatusForbiddenClaims, detail: "/keys/0/k"},
		{name: "unsafe header: jwk", token: signRaw(k2, with(goodHeader(), "jwk", attackerJWK), goodClaims()), want: AttestationStatusUnsafeHeader, detail: "jwk"},
		{name: "unsafe header: jku", token: signRaw(k1, with(goodHeader(), "jku", "https://evil.example/jwks.json"), goodClaims()), want: AttestationStatusUnsafeHeader, detail: "jku"},
		{name: "unsafe header: x5u", token: signRaw(k1, with(goodHeader(), "x5u", "https://evil.example/cert.pem"), goodClaims()), want: AttestationStatusUnsafeHeader, detail: "x5u"},
		{name: "unsafe header: x5c", token: signRaw(k1, with(goodHeader(), "x5c", []any{"MIIB"}), goodClaims()), want: AttestationStatusUnsafeHeader},
		{name: "unsafe header: crit", token: signRaw(k1, with(goodHeader(), "crit", []any{"exp"}), goodClaims()), want: AttestationStatusUnsafeHeader},
		{name: "unsafe header: b64 false", token: signRaw(k1, with(with(goodHeader(), "b64", false), "crit", []any{"b64"}), goodClaims()), want: AttestationStatusUnsafeHeader},
		{name: "malformed: alg none", token: enc(map[string]any{"alg": "none", "typ": AttestationType}) + "." + enc(goodClaims()) + ".", want: AttestationStatusMalformed, detail: `"none"`},
		{name: "malformed: HS256 with the public key as secret", token: hs256, want: AttestationStatusMalformed, detail: "HS256"},
		{name: "malformed: alg case", token: signRaw(k1, with(goodHeader(), "alg", "eddsa"), goodClaims()), want: AttestationStatusMalformed},
		{name: "malformed: alg Ed25519", token: signRaw(k1, with(goodHeader(), "alg", "Ed25519"), goodClaims()), want: AttestationStatusMalformed},
		{name: "malformed: alg missing", token: signRaw(k1, with(goodHeader(), "alg", nil), goodClaims()), want: AttestationStatusMalformed},
		{name: "malformed: typ JWT", token: signRaw(k1, with(goodHeader(), "typ", "JWT"), goodClaims()), want: AttestationStatusMalformed, detail: "typ"},
		{name: "malformed: typ missing", token: signRaw(k1, with(goodHeader(), "typ", nil), goodClaims()), want: AttestationStatusMalformed},
		{name: "malformed: kid number", token: signRaw(k1, with(goodHeader(), "kid", 7), goodClaims()), want: AttestationStatusMalformed},
		{name: "malformed: huge", token: strings.Repeat("A", maxAttestationBytes+1), want: AttestationStatusMalformed, detail: "cap"},
		{name: "malformed: huge valid-looking", token: signRaw(k1, goodHeader(), with(goodClaims(), "pad", strings.Repeat("x", maxAttestationBytes))), want: AttestationStatusMalformed, detail: "cap"},
		{name: "malformed: one segment", token: "abc", want: AttestationStatusMalformed, detail: "1 segments"},
		{name: "malformed: two segments", token: segs[0] + "." + segs[1], want: AttestationStatusMalformed},
		{name: "malformed: four segments", token: good + ".x", want: AttestationStatusMalformed},
		{name: "malformed: JWE-like five segments", token: "a.b.c.d.e", want: AttestationStatusMalformed},
		{name: "malformed: only dots", token: "..", want: AttestationStatusMalformed},
		{name: "malformed: padded base64", token: segs[0] + "=." + segs[1] + "." + segs[2], want: AttestationStatusMalformed, detail: "base64url"},
		{name: "malformed: standard base64 alphabet", token: strings.NewReplacer("-", "+", "_", "/").Replace(segs[0]) + "+/." + segs[1] + "." + segs[2], want: AttestationStatusMalformed},
		{name: "malformed: non-ASCII", token: segs[0] + "." + segs[1] + "é." + segs[2], want: AttestationStatusMalformed},
		{name: "malformed: embedded newline", token: segs[0][:4] + "\n" + segs[0][4:] + "." + segs[1] + "." + segs[2], want: AttestationStatusMalformed, detail: "base64url alphabet"},
		{name: "malformed: space", token: " " + good, want: AttestationStatusMalformed},
		{name: "malformed: header not JSON", token: base64.RawURLEncoding.EncodeToString([]byte("{alg:EdDSA")) + "." + segs[1] + "." + segs[2], want: AttestationStatusMalformed},
		{name: "malformed: header duplicate alg", token: base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","alg":"EdDSA","typ":"agent-rp-attestation+jwt"}`)) + "." + segs[1] + "." + segs[2], want: AttestationStatusMalformed},
		{name: "malformed: claims duplicate iss", token: signRawPayload(k1, goodHeader(), `{"iss":"https://evil.example","iss":"https://agentregistrar.dev","iat":1,"exp":2000000000,"rp":{"origin":"https://example.com","audience":"example-rp"}}`), want: AttestationStatusMalformed},
		{name: "malformed: claims array", token: signRawPayload(k1, goodHeader(), `[1,2]`), want: AttestationStatusMalformed},
		{name: "malformed: short signature", token: segs[0] + "." + segs[1] + "." + base64.RawURLEncoding.EncodeToString([]byte("sig")), want: AttestationStatusMalformed, detail: "64"},
		{name: "malformed: iss missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "iss", nil)), want: AttestationStatusMalformed},
		{name: "malformed: exp missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", nil)), want: AttestationStatusMalformed},
		{name: "malformed: exp string", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", "tomorrow")), want: AttestationStatusMalformed},
		{name: "malformed: exp huge", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", json.Number("1e300"))), want: AttestationStatusMalformed},
		{name: "malformed: exp negative", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", -5)), want: AttestationStatusMalformed},
		{name: "malformed: exp before iat", token: signRaw(k1, goodHeader(), with(goodClaims(), "exp", testNow.Add(-2*time.Hour).Unix())), want: AttestationStatusMalformed},
		{name: "malformed: rp missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", nil)), want: AttestationStatusMalformed},
		{name: "malformed: rp.origin missing", token: signRaw(k1, goodHeader(), with(goodClaims(), "rp", map[string]any{"audience": "example-rp"})), want: AttestationStatusMalformed},
		{name: "malformed: keys not array", token: signRaw(k1, goodHeader(), with(goodClaims(), "keys", "k")), want: AttestationStatusMalformed},
		{name: "malformed: deeply nested claims", token: signRawPayload(k1, goodHeader(), strings.Repeat("[", 200)+strings.Repeat("]", 200)), want: AttestationStatusMalformed},
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
			require.NotPanics(t, func() { res, err = verifyAttestation(t.Context(), doc, origin, keys, now) })
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Status, "detail: %s", res.Detail)
			assert.Contains(t, res.Detail, tt.detail)
			assert.Equal(t, tt.want == AttestationStatusVerified, res.Verified())
			switch tt.want {
			case AttestationStatusVerified, AttestationStatusExpired, AttestationStatusNotYetValid, AttestationStatusOriginMismatch, AttestationStatusAudienceMismatch, AttestationStatusForbiddenClaims:
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
			if tt.want == AttestationStatusMalformed {
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
	res, err := verifyAttestation(t.Context(), docWith(t, token), testOrigin, testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusVerified, res.Status, res.Detail)
	assert.Equal(t, "k1", res.KeyID)
	assert.Equal(t, AttestedRP{Origin: testOrigin, Audience: "example-rp"}, res.Claims.RP)
	assert.Equal(t, testNow.Add(24*time.Hour), res.Claims.Expiry)
	assert.JSONEq(t, string(payload), string(res.Claims.Raw))
	require.Len(t, res.Claims.Keys, 1)
}

func TestVerifyAttestationErrors(t *testing.T) {
	good := signRaw(testKey(1), goodHeader(), goodClaims())
	_, err := verifyAttestation(t.Context(), docWith(t, good), testOrigin, failingKeys{}, testNow)
	require.Error(t, err, "a key set that cannot be consulted is an error, not a result")
	assert.Contains(t, err.Error(), "jwks unavailable")
	for _, origin := range []string{"", "example.com", "https://example.com/path", "ftp://example.com", "https://u:p@example.com"} {
		_, err := verifyAttestation(t.Context(), docWith(t, good), origin, testKeys(), testNow)
		assert.Error(t, err, origin)
	}
	res, err := verifyAttestation(t.Context(), nil, testOrigin, testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusAbsent, res.Status)
}

func TestVerifyAttestationIDNOrigin(t *testing.T) {
	k := testKey(1)
	token := signRaw(k, goodHeader(), with(goodClaims(), "rp", map[string]any{"origin": "https://xn--bcher-kva.example", "audience": "example-rp"}))
	res, err := verifyAttestation(t.Context(), docWith(t, token), "https://BÜCHER.example", testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusVerified, res.Status, res.Detail)
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
	res, err := verifyAttestation(t.Context(), doc, testOrigin, keys, testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusVerified, res.Status, res.Detail)

	doc.RPAttestation = signRaw(privA, with(goodHeader(), "kid", nil), with(goodClaims(), "iss", other))
	res, err = verifyAttestation(t.Context(), doc, testOrigin, keys, testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusBadSignature, res.Status, "A's key does not speak for issuer B")

	doc.RPAttestation = signRaw(privB, with(goodHeader(), "kid", nil), with(goodClaims(), "iss", other))
	res, err = verifyAttestation(t.Context(), doc, testOrigin, keys, testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusVerified, res.Status, res.Detail)
	assert.Equal(t, other, res.Issuer)
}

// verifyAttestation is NewVerifier(keys, now).Verify, for the tables.
func verifyAttestation(ctx context.Context, doc *Document, origin string, keys KeySet, now time.Time) (*AttestationResult, error) {
	cfg := &VerifierConfig{}
	if !now.IsZero() {
		cfg.Now = func() time.Time { return now }
	}
	return NewVerifier(keys, cfg).Verify(ctx, doc, origin)
}

// TestAttestationJSONDefectsAreNamed: a claims set or header that is not
// strict JSON is malformed, and the detail names the strict JSON rule and
// its message instead of "not a JSON object". The tokens are made with
// go-jose, which signs whatever payload it is given.
func TestAttestationJSONDefectsAreNamed(t *testing.T) {
	good, err := json.Marshal(goodClaims())
	require.NoError(t, err)
	deep := strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200)
	tests := []struct {
		name    string
		payload string
		header  map[string]any // extra protected header members; nil for none
		segment string
		rule    string
	}{
		{"exp of 1e400", strings.Replace(string(good), `"exp":`, `"exp":1e400,"x":`, 1), nil, "claims", strictjson.RuleNumberRange},
		{"byte-order mark", "\ufeff" + string(good), nil, "claims", strictjson.RuleBOM},
		{"nesting too deep", strings.Replace(string(good), `{`, `{"deep":`+deep+`,`, 1), nil, "claims", strictjson.RuleDepth},
		{"duplicate claim", strings.Replace(string(good), `{`, `{"iss":"https://a.example",`, 1), nil, "claims", strictjson.RuleDuplicate},
		{"header with a huge number", string(good), map[string]any{"n": json.RawMessage("1e400")}, "header", strictjson.RuleNumberRange},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := (&jose.SignerOptions{}).WithType(AttestationType).WithHeader("kid", "k1")
			for k, v := range tc.header {
				opts = opts.WithHeader(jose.HeaderKey(k), v)
			}
			signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.EdDSA, Key: testKey(1)}, opts)
			require.NoError(t, err)
			jws, err := signer.Sign([]byte(tc.payload))
			require.NoError(t, err)
			token, err := jws.CompactSerialize()
			require.NoError(t, err)

			res, err := verifyAttestation(t.Context(), docWith(t, token), testOrigin, testKeys(), testNow)
			require.NoError(t, err)
			assert.Equal(t, AttestationStatusMalformed, res.Status)
			assert.Contains(t, res.Detail, "rp_attestation "+tc.segment+" is not strict JSON")
			assert.Contains(t, res.Detail, "["+tc.rule+"]")
			assert.NotContains(t, res.Detail, "not a JSON object")

			// Parse reports the same defect, rule and all.
			var doc map[string]any
			require.NoError(t, json.Unmarshal(seedBytes(t), &doc))
			doc["rp_attestation"] = token
			data, err := json.Marshal(doc)
			require.NoError(t, err)
			_, err = Parse(data)
			ve := problemsOf(t, err)
			require.Len(t, ve.Problems, 1)
			assert.Equal(t, RuleAttestationMalformed, ve.Problems[0].Rule)
			assert.Contains(t, ve.Problems[0].Message, "["+tc.rule+"]")
		})
	}
}
