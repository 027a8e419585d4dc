package agentsignup

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// ErrAttestationClaims is wrapped by every error of SignAttestation that
// concerns the claims (a missing or ill-formed claim, or a claim the
// specification forbids); such a token would never verify, so none is made.
var ErrAttestationClaims = errors.New("agentsignup: attestation claims refused")

// ErrForbiddenClaims is wrapped (together with ErrAttestationClaims) when the
// claims carry what an attestation "must not carry": a terms hash, scopes,
// endpoints, provider_url, account ids, prices or private material (a private
// JWK member such as "d"). [Verifier.Verify] reports the same claims as
// AttestationStatusForbiddenClaims, so a broker cannot sign what verifiers must reject.
var ErrForbiddenClaims = errors.New("agentsignup: attestation carries forbidden claims")

// typedClaims are the members SignAttestation writes from the typed fields of
// AttestationClaims; Raw must not repeat them.
var typedClaims = []string{"iss", "iat", "exp", "nbf", "rp", "keys"}

// SignAttestation signs an rp_attestation for brokers and tests: a compact
// JWS whose protected header is exactly {"alg":"EdDSA","kid":kid,
// "typ":"agent-rp-attestation+jwt"} (kid omitted when empty) and whose
// payload is the claims set, signed with the Ed25519 key. The token is what
// [Verifier.Verify] accepts. It verifies as AttestationStatusVerified when
// key's public half is trusted for the issuer and the document's
// issuer_allowlist names the issuer. The document must also be fetched from
// rp.origin with audience rp.audience, and the clock be inside [iat, exp).
//
// The claims set is built from the typed fields. They are iss (Issuer,
// required), and iat and exp (IssuedAt and Expiry, required). Those two are
// written as integer NumericDates in whole seconds, exp after iat. Then nbf
// (NotBefore, omitted when zero), and rp: RP.Origin, a canonical origin such
// as "https://example.com", and RP.Audience, both required. And keys (Keys,
// public JWK objects, omitted when empty). Raw, when set, is a JSON object of
// further claims merged into the set. They are the provider identity and
// assurance level, whose member names the specification's lost field tables
// do not record. It must not repeat a typed claim. The Claims of a verified
// result carry the whole set in Raw: clear it before signing them again.
//
// SignAttestation refuses, with an error wrapping ErrAttestationClaims, any
// claims set a Verifier would report as malformed. It refuses, wrapping
// ErrForbiddenClaims as well, any set that carries forbidden claims. They
// count at any depth, including private members of a JWK in keys. The key
// must be a full Ed25519 private key (ed25519.PrivateKeySize bytes).
func SignAttestation(claims AttestationClaims, key ed25519.PrivateKey, kid string) (string, error) {
	if len(key) != ed25519.PrivateKeySize {
		return "", fmt.Errorf("agentsignup: signing key is %d bytes, an Ed25519 private key is %d", len(key), ed25519.PrivateKeySize)
	}
	payload, err := attestationPayload(claims)
	if err != nil {
		return "", err
	}
	opts := (&jose.SignerOptions{}).WithType(AttestationType)
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.EdDSA, Key: key}, opts)
	if err != nil {
		return "", fmt.Errorf("agentsignup: attestation signer: %w", err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("agentsignup: sign attestation: %w", err)
	}
	token, err := jws.CompactSerialize()
	if err != nil {
		return "", fmt.Errorf("agentsignup: serialize attestation: %w", err)
	}
	// The same parser a Verifier uses checks the finished token, so
	// that what is signed here is never reported as malformed there.
	tok, err := parseToken(token)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrAttestationClaims, err)
	}
	if tok.kid != kid {
		return "", fmt.Errorf("%w: kid %q did not survive signing", ErrAttestationClaims, kid)
	}
	return token, nil
}

// attestationPayload builds and checks the JSON claims set of SignAttestation.
func attestationPayload(c AttestationClaims) ([]byte, error) {
	set := map[string]any{}
	if len(c.Raw) > 0 {
		v, err := strictjson.Decode(c.Raw)
		if err != nil {
			return nil, fmt.Errorf("%w: Raw: %w", ErrAttestationClaims, err)
		}
		extra, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: Raw is not a JSON object", ErrAttestationClaims)
		}
		for _, name := range typedClaims {
			if _, dup := extra[name]; dup {
				return nil, fmt.Errorf("%w: Raw repeats the %q claim, which comes from its field", ErrAttestationClaims, name)
			}
		}
		set = extra
	}
	switch {
	case c.Issuer == "":
		return nil, fmt.Errorf("%w: Issuer (iss) is empty", ErrAttestationClaims)
	case c.IssuedAt.IsZero() || c.Expiry.IsZero():
		return nil, fmt.Errorf("%w: IssuedAt (iat) and Expiry (exp) are required", ErrAttestationClaims)
	case c.IssuedAt.Unix() < 0 || c.Expiry.Unix() > maxNumericDate || !c.NotBefore.IsZero() && (c.NotBefore.Unix() < 0 || c.NotBefore.Unix() > maxNumericDate):
		return nil, fmt.Errorf("%w: times must lie between 1970 and 9999", ErrAttestationClaims)
	case c.Expiry.Unix() <= c.IssuedAt.Unix():
		return nil, fmt.Errorf("%w: Expiry (exp) is not after IssuedAt (iat) in whole seconds", ErrAttestationClaims)
	case c.RP.Origin == "" || c.RP.Audience == "":
		return nil, fmt.Errorf("%w: RP.Origin and RP.Audience are required", ErrAttestationClaims)
	}
	if o, err := canonicalOrigin(c.RP.Origin); err != nil || o != c.RP.Origin {
		return nil, fmt.Errorf("%w: RP.Origin %q is not a canonical origin (want scheme://host[:port], e.g. %q); it would never match the origin a verifier fetched from", ErrAttestationClaims, c.RP.Origin, o)
	}
	set["iss"] = c.Issuer
	set["iat"] = c.IssuedAt.Unix()
	set["exp"] = c.Expiry.Unix()
	if !c.NotBefore.IsZero() {
		set["nbf"] = c.NotBefore.Unix()
	}
	set["rp"] = map[string]any{"origin": c.RP.Origin, "audience": c.RP.Audience}
	if len(c.Keys) > 0 {
		keys := make([]any, 0, len(c.Keys))
		for i, k := range c.Keys {
			v, err := strictjson.Decode(k)
			jwk, ok := v.(map[string]any)
			if err != nil || !ok {
				return nil, fmt.Errorf("%w: Keys[%d] is not a JWK object", ErrAttestationClaims, i)
			}
			keys = append(keys, jwk)
		}
		set["keys"] = keys
	}
	if bad := forbiddenClaims(set); len(bad) > 0 {
		return nil, fmt.Errorf("%w: %w: %s", ErrAttestationClaims, ErrForbiddenClaims, strings.Join(bad, ", "))
	}
	b, err := json.Marshal(set)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrAttestationClaims, err)
	}
	return b, nil
}
