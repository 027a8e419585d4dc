package agentsignup

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func signClaims() AttestationClaims {
	pub := testKey(1).Public().(ed25519.PublicKey)
	return AttestationClaims{
		Issuer:   testIssuer,
		IssuedAt: testNow.Add(-time.Hour),
		Expiry:   testNow.Add(24 * time.Hour),
		RP:       AttestedRP{Origin: testOrigin, Audience: "example-rp"},
		Keys:     []json.RawMessage{json.RawMessage(`{"kty":"OKP","crv":"Ed25519","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `","kid":"rp-1"}`)},
		Raw:      json.RawMessage(`{"provider":{"name":"Example RP"},"assurance":"organization"}`),
	}
}

func TestSignAttestationRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*AttestationClaims)
		kid    string
		wantKI string
	}{
		{"full", func(*AttestationClaims) {}, "k1", "k1"},
		{"no kid", func(*AttestationClaims) {}, "", "k1"},
		{"minimal", func(c *AttestationClaims) { c.Keys, c.Raw = nil, nil }, "k1", "k1"},
		{"nbf", func(c *AttestationClaims) { c.NotBefore = testNow.Add(-time.Minute) }, "k1", "k1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := signClaims()
			tt.edit(&c)
			token, err := SignAttestation(c, testKey(1), tt.kid)
			require.NoError(t, err)

			seg := strings.Split(token, ".")
			require.Len(t, seg, 3)
			hb, err := base64.RawURLEncoding.DecodeString(seg[0])
			require.NoError(t, err)
			var header map[string]any
			require.NoError(t, json.Unmarshal(hb, &header))
			want := map[string]any{"alg": "EdDSA", "typ": AttestationType}
			if tt.kid != "" {
				want["kid"] = tt.kid
			}
			assert.Equal(t, want, header)

			res, err := verifyAttestation(t.Context(), docWith(t, token), testOrigin, testKeys(), testNow)
			require.NoError(t, err)
			assert.Equal(t, AttestationStatusVerified, res.Status, res.Detail)
			assert.Equal(t, tt.wantKI, res.KeyID)
			require.NotNil(t, res.Claims)
			assert.Equal(t, c.RP, res.Claims.RP)
			assert.True(t, c.IssuedAt.Equal(res.Claims.IssuedAt))
			assert.True(t, c.Expiry.Equal(res.Claims.Expiry))
			assert.True(t, c.NotBefore.Equal(res.Claims.NotBefore))
			assert.Len(t, res.Claims.Keys, len(c.Keys))
			var raw map[string]any
			require.NoError(t, json.Unmarshal(res.Claims.Raw, &raw))
			if c.Raw != nil {
				assert.Equal(t, "organization", raw["assurance"])
			}

			// The same token under a key the verifier does not trust fails.
			other, err := SignAttestation(c, testKey(2), tt.kid)
			require.NoError(t, err)
			res, err = verifyAttestation(t.Context(), docWith(t, other), testOrigin, testKeys(), testNow)
			require.NoError(t, err)
			assert.Equal(t, AttestationStatusBadSignature, res.Status, res.Detail)
		})
	}
}

func TestSignAttestationTimesAndOrigin(t *testing.T) {
	// Sub-second times are written in whole seconds; a copied token fails
	// on another origin, an expired one after exp.
	c := signClaims()
	c.IssuedAt = c.IssuedAt.Add(700 * time.Millisecond)
	token, err := SignAttestation(c, testKey(1), "k1")
	require.NoError(t, err)
	doc := docWith(t, token)
	res, err := verifyAttestation(t.Context(), doc, "https://copycat.example", testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusOriginMismatch, res.Status)
	res, err = verifyAttestation(t.Context(), doc, testOrigin, testKeys(), testNow.Add(48*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusExpired, res.Status)
	res, err = verifyAttestation(t.Context(), doc, testOrigin, testKeys(), testNow)
	require.NoError(t, err)
	require.Equal(t, AttestationStatusVerified, res.Status, res.Detail)
	assert.Equal(t, c.IssuedAt.Truncate(time.Second), res.Claims.IssuedAt)
}

func TestSignAttestationRefused(t *testing.T) {
	tests := []struct {
		name      string
		edit      func(*AttestationClaims)
		key       ed25519.PrivateKey
		forbidden bool
		claims    bool
	}{
		{"terms hash in Raw", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"terms_sha256":"abc"}`) }, nil, true, true},
		{"scopes nested", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"provider":{"scopes":["a"]}}`) }, nil, true, true},
		{"endpoints", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"endpoints":{}}`) }, nil, true, true},
		{"provider_url", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"Provider_URL":"https://x"}`) }, nil, true, true},
		{"account id", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"account_id":"1"}`) }, nil, true, true},
		{"prices", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"pricing":[1]}`) }, nil, true, true},
		{"secret", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"client_secret":"s"}`) }, nil, true, true},
		{"private JWK", func(c *AttestationClaims) {
			c.Keys = []json.RawMessage{json.RawMessage(`{"kty":"OKP","crv":"Ed25519","x":"AA","d":"AA"}`)}
		}, nil, true, true},
		{"Raw repeats iss", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"iss":"https://other"}`) }, nil, false, true},
		{"Raw not object", func(c *AttestationClaims) { c.Raw = json.RawMessage(`[1]`) }, nil, false, true},
		{"Raw duplicate member", func(c *AttestationClaims) { c.Raw = json.RawMessage(`{"a":1,"a":2}`) }, nil, false, true},
		{"no issuer", func(c *AttestationClaims) { c.Issuer = "" }, nil, false, true},
		{"no iat", func(c *AttestationClaims) { c.IssuedAt = time.Time{} }, nil, false, true},
		{"exp not after iat", func(c *AttestationClaims) { c.Expiry = c.IssuedAt.Add(time.Millisecond) }, nil, false, true},
		{"no audience", func(c *AttestationClaims) { c.RP.Audience = "" }, nil, false, true},
		{"origin with path", func(c *AttestationClaims) { c.RP.Origin = testOrigin + "/" }, nil, false, true},
		{"origin not canonical", func(c *AttestationClaims) { c.RP.Origin = "https://EXAMPLE.com:443" }, nil, false, true},
		{"key not JWK", func(c *AttestationClaims) { c.Keys = []json.RawMessage{json.RawMessage(`"k"`)} }, nil, false, true},
		{"short key", func(*AttestationClaims) {}, ed25519.PrivateKey(make([]byte, 32)), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := signClaims()
			tt.edit(&c)
			key := tt.key
			if key == nil {
				key = testKey(1)
			}
			token, err := SignAttestation(c, key, "k1")
			require.Error(t, err)
			assert.Empty(t, token)
			assert.Equal(t, tt.forbidden, errors.Is(err, ErrForbiddenClaims), err.Error())
			assert.Equal(t, tt.claims, errors.Is(err, ErrAttestationClaims), err.Error())
			assert.True(t, strings.HasPrefix(err.Error(), "agentsignup: "), err.Error())
		})
	}
}

func TestSignAttestationForbiddenMatchesVerifier(t *testing.T) {
	// What SignAttestation refuses as forbidden, VerifyAttestation reports as
	// forbidden-claims when a dishonest signer signs it anyway.
	claims := goodClaims()
	claims["provider"] = map[string]any{"name": "x", "terms_hash": "abc"}
	res, err := verifyAttestation(t.Context(), docWith(t, signRaw(testKey(1), goodHeader(), claims)), testOrigin, testKeys(), testNow)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusForbiddenClaims, res.Status)

	c := signClaims()
	c.Raw = json.RawMessage(`{"provider":{"name":"x","terms_hash":"abc"}}`)
	_, err = SignAttestation(c, testKey(1), "k1")
	assert.ErrorIs(t, err, ErrForbiddenClaims)
}
