package agentsignup

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentweb/agentweb/safefetch"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/weburl"
)

// AttestationType is the protected-header typ of an rp_attestation
// ([agent-identity-v1 discovery fields], "a compact JWS (typ:
// agent-rp-attestation+jwt, alg: EdDSA)").
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
const AttestationType = "agent-rp-attestation+jwt"

// AttestationAlgorithm is the only signature algorithm accepted.
const AttestationAlgorithm = "EdDSA"

// maxAttestationBytes caps the length of an rp_attestation (16 KiB);
// longer tokens are malformed and are not decoded at all.
const maxAttestationBytes = 16 << 10

// defaultLeeway is the clock skew allowed on the time claims when
// VerifierConfig.Leeway is zero.
const defaultLeeway = time.Minute

// maxAttestationKeys caps how many caller keys are tried for one token.
const maxAttestationKeys = 16

// AttestationStatus is the result of [Verifier.Verify]. Every status but
// AttestationStatusVerified leaves the document unverified. None of them is a
// conformance failure by itself. [agent-identity-v1 discovery fields] says:
// "An expired, invalid, or untrusted attestation is a verification result,
// never a conformance failure by itself".
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
type AttestationStatus string

const (
	// AttestationStatusVerified: signed by a trusted key of an allow-listed issuer,
	// bound to the fetched origin and the document's audience, in time, and
	// free of forbidden claims.
	AttestationStatusVerified AttestationStatus = "verified"
	// AttestationStatusAbsent: the document has no rp_attestation ("A conformant
	// document without it is unverified").
	AttestationStatusAbsent AttestationStatus = "absent"
	// AttestationStatusExpired: exp (plus the leeway) has passed.
	AttestationStatusExpired AttestationStatus = "expired"
	// AttestationStatusNotYetValid: nbf or iat is later than now plus the leeway.
	AttestationStatusNotYetValid AttestationStatus = "not-yet-valid"
	// AttestationStatusBadSignature: no key the caller trusts for the issuer verifies
	// the signature.
	AttestationStatusBadSignature AttestationStatus = "bad-signature"
	// AttestationStatusUntrustedIssuer: iss is not in the document's issuer_allowlist,
	// or the caller's key set has no key for it.
	AttestationStatusUntrustedIssuer AttestationStatus = "untrusted-issuer"
	// AttestationStatusOriginMismatch: rp.origin is not the canonical origin the
	// document was fetched from (a copied attestation replayed elsewhere).
	AttestationStatusOriginMismatch AttestationStatus = "origin-mismatch"
	// AttestationStatusAudienceMismatch: rp.audience is not the document's audience.
	AttestationStatusAudienceMismatch AttestationStatus = "audience-mismatch"
	// AttestationStatusForbiddenClaims: the signed claims carry a terms hash, scopes,
	// endpoints, provider_url, account ids, prices or private material (a
	// private JWK member such as "d").
	AttestationStatusForbiddenClaims AttestationStatus = "forbidden-claims"
	// AttestationStatusUnsafeHeader: the protected header names its own key or key
	// location (jwk, jku, x5u, x5c, x5t, x5t#S256) or carries crit, b64 or
	// zip. Such tokens are refused before any key is used.
	AttestationStatusUnsafeHeader AttestationStatus = "unsafe-header"
	// AttestationStatusMalformed: not a well-formed agent-rp-attestation+jwt (size,
	// segments, base64url, JSON, alg, typ or claim shapes). Parse reports
	// the same defects as the conformance error RuleAttestationMalformed.
	AttestationStatusMalformed AttestationStatus = "malformed"
)

// AttestationResult is what [Verifier.Verify] found.
type AttestationResult struct {
	Status AttestationStatus `json:"status"`
	// Detail explains the status in words.
	Detail string `json:"detail,omitempty"`
	// Issuer is the iss claim, when the token could be decoded.
	Issuer string `json:"issuer,omitempty"`
	// KeyID is the kid of the key that verified the signature.
	KeyID string `json:"kid,omitempty"`
	// Claims are set once the signature has verified (statuses verified,
	// expired, not-yet-valid, origin-mismatch, audience-mismatch and
	// forbidden-claims); never for an unverified signature.
	Claims *AttestationClaims `json:"claims,omitempty"`
}

// Verified reports whether the status is AttestationStatusVerified.
func (r *AttestationResult) Verified() bool { return r != nil && r.Status == AttestationStatusVerified }

// AttestedRP is the rp claim: the relying party the attestation is bound to.
type AttestedRP struct {
	Origin   string `json:"origin"`
	Audience string `json:"audience"`
}

// AttestationClaims are the claims of an rp_attestation in this project's
// reading: iss (the broker origin), iat, exp, optional nbf and rp {origin,
// audience}. They add the provider identity and assurance level, in Raw,
// whose member names the lost field tables do not record. And keys holds
// public JWKs.
type AttestationClaims struct {
	Issuer    string            `json:"iss"`
	IssuedAt  time.Time         `json:"iat"`
	Expiry    time.Time         `json:"exp"`
	NotBefore time.Time         `json:"nbf,omitzero"`
	RP        AttestedRP        `json:"rp"`
	Keys      []json.RawMessage `json:"keys,omitempty"`
	// Raw is the exact claims set (the JWS payload).
	Raw json.RawMessage `json:"raw"`
}

// PublicKey is an Ed25519 verification key the caller trusts for an issuer.
type PublicKey struct {
	// KeyID is the JWK kid; "" matches any token kid.
	KeyID string
	Key   ed25519.PublicKey
}

// KeySet gives the verification keys the caller trusts for an issuer.
// Implementations must be safe for concurrent use.
type KeySet interface {
	// IssuerKeys returns the keys trusted for issuer. kid is the token's key
	// id ("" when absent); a remote set may refresh when it knows no key with
	// that id. An error means the set could not be consulted (not "no key").
	IssuerKeys(ctx context.Context, issuer, kid string) ([]PublicKey, error)
}

// StaticKeySet is a fixed KeySet: issuer origin -> keys.
type StaticKeySet map[string][]PublicKey

// IssuerKeys implements KeySet.
func (s StaticKeySet) IssuerKeys(_ context.Context, issuer, _ string) ([]PublicKey, error) {
	return s[issuer], nil
}

// unsafeHeaders are protected-header members that are refused: a token must
// not choose its own key, key location or processing rules.
var unsafeHeaders = []string{"jwk", "jku", "x5u", "x5c", "x5t", "x5t#S256", "crit", "b64", "zip"}

// VerifierConfig configures a [Verifier]. The zero value, and a nil
// pointer, are safe: the system clock and one minute of leeway.
type VerifierConfig struct {
	// Now is the clock the time claims (exp, nbf, iat) are checked
	// against; nil means time.Now.
	Now func() time.Time
	// Leeway is the clock skew allowed on the time claims; zero means one
	// minute, and a negative value none.
	Leeway time.Duration
}

// Verifier checks the rp_attestation of discovery documents against the keys a
// caller trusts ([agent-identity-v1 discovery fields], "The optional provider
// verification credential"). It has the shape of an OpenID Connect ID token
// verifier: built once with [NewVerifier], then [Verifier.Verify] per
// document. It is safe for concurrent use when its KeySet is.
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
type Verifier struct {
	keys   KeySet
	now    func() time.Time
	leeway time.Duration
}

// NewVerifier returns a Verifier that trusts the keys of keys for the
// issuers a document allow-lists. A nil keys trusts no issuer: every
// attestation is then [AttestationStatusUntrustedIssuer], never verified.
func NewVerifier(keys KeySet, config *VerifierConfig) *Verifier {
	v := &Verifier{keys: keys, now: time.Now, leeway: defaultLeeway}
	if config != nil {
		if config.Now != nil {
			v.now = config.Now
		}
		switch {
		case config.Leeway > 0:
			v.leeway = config.Leeway
		case config.Leeway < 0:
			v.leeway = 0
		}
	}
	return v
}

// Verify checks the document's rp_attestation and returns the result as a
// value. The argument fetchedOrigin is the origin the document was
// actually fetched from. It is canonicalised (scheme and host, IDN to
// ASCII, default port dropped) before the comparison with rp.origin. The
// error is non-nil only when fetchedOrigin is not an origin or the key set
// could not be consulted; every defect of the token is a result. A nil
// Verifier trusts no key.
//
// The steps, in order, each ending the check with its status:
//  1. no rp_attestation: absent;
//  2. size cap (16 KiB), three base64url segments, strict JSON header and
//     claims (a defect names the strict JSON rule, such as json-bom or
//     json-number-range), header alg exactly "EdDSA" and typ
//     agent-rp-attestation+jwt (checked before any key is used), claim
//     shapes: malformed;
//  3. a header that names a key or key location (jwk, jku, x5u, x5c ...),
//     crit, b64 or zip: unsafe-header;
//  4. iss not in issuer_allowlist, or no key for it in keys: untrusted-issuer;
//  5. signature (Ed25519, go-jose with an EdDSA-only allowlist): bad-signature;
//  6. forbidden claims: forbidden-claims;
//  7. rp.origin != canonical fetchedOrigin: origin-mismatch;
//  8. rp.audience != doc.Audience: audience-mismatch;
//  9. exp, nbf and iat with the leeway: expired, not-yet-valid;
//  10. verified.
func (v *Verifier) Verify(ctx context.Context, doc *Document, fetchedOrigin string) (*AttestationResult, error) {
	return v.verify(ctx, nil, doc, fetchedOrigin)
}

// verify is Verify for a [Fetch] whose client is via: a [JWKSKeySet] built
// without a client fetches its keys with via.
func (v *Verifier) verify(ctx context.Context, via *safefetch.Client, doc *Document, fetchedOrigin string) (*AttestationResult, error) {
	if v == nil {
		v = NewVerifier(nil, nil)
	}
	keys, now := v.keys, v.now()
	origin, err := canonicalOrigin(fetchedOrigin)
	if err != nil {
		return nil, fmt.Errorf("agentsignup: fetched origin %q: %w", weburl.Redact(fetchedOrigin), err)
	}
	if doc == nil || doc.RPAttestation == "" {
		return &AttestationResult{Status: AttestationStatusAbsent, Detail: "no rp_attestation: the document is unverified"}, nil
	}
	tok, err := parseToken(doc.RPAttestation)
	if err != nil {
		return &AttestationResult{Status: AttestationStatusMalformed, Detail: err.Error()}, nil
	}
	res := &AttestationResult{Issuer: tok.claims.Issuer}
	for _, h := range unsafeHeaders {
		if _, ok := tok.header[h]; ok {
			res.Status, res.Detail = AttestationStatusUnsafeHeader, "protected header carries "+quote(h)+", which is refused"
			return res, nil
		}
	}
	if !slices.Contains(doc.IssuerAllowlist, tok.claims.Issuer) {
		res.Status, res.Detail = AttestationStatusUntrustedIssuer, "issuer "+quote(tok.claims.Issuer)+" is not in the document's issuer_allowlist"
		return res, nil
	}
	if keys == nil {
		res.Status, res.Detail = AttestationStatusUntrustedIssuer, "no key set given: no issuer is trusted"
		return res, nil
	}
	var pks []PublicKey
	if js, ok := keys.(*JWKSKeySet); ok {
		pks, err = js.issuerKeys(ctx, via, tok.claims.Issuer, tok.kid)
	} else {
		pks, err = keys.IssuerKeys(ctx, tok.claims.Issuer, tok.kid)
	}
	if err != nil {
		return nil, fmt.Errorf("agentsignup: keys for issuer %s: %w", tok.claims.Issuer, err)
	}
	var candidates []PublicKey
	for _, k := range pks {
		if len(k.Key) == ed25519.PublicKeySize && (k.KeyID == "" || tok.kid == "" || k.KeyID == tok.kid) {
			candidates = append(candidates, k)
			if len(candidates) == maxAttestationKeys {
				break
			}
		}
	}
	if len(candidates) == 0 {
		res.Status, res.Detail = AttestationStatusUntrustedIssuer, "no trusted Ed25519 key for issuer "+quote(tok.claims.Issuer)
		if tok.kid != "" {
			res.Detail += " with kid " + quote(tok.kid)
		}
		return res, nil
	}
	jws, err := jose.ParseSignedCompact(doc.RPAttestation, []jose.SignatureAlgorithm{jose.EdDSA})
	if err != nil || len(jws.Signatures) != 1 || jws.Signatures[0].Protected.Algorithm != AttestationAlgorithm {
		res.Status, res.Detail = AttestationStatusMalformed, "not a single-signature EdDSA compact JWS"
		return res, nil
	}
	verified := false
	for _, k := range candidates {
		if _, err := jws.Verify(k.Key); err == nil {
			verified, res.KeyID = true, k.KeyID
			break
		}
	}
	if !verified {
		res.Status, res.Detail = AttestationStatusBadSignature, "no trusted key of issuer "+quote(tok.claims.Issuer)+" verifies the signature"
		return res, nil
	}
	claims := tok.claims
	res.Claims = &claims
	if bad := forbiddenClaims(tok.rawClaims); len(bad) > 0 {
		res.Status, res.Detail = AttestationStatusForbiddenClaims, "the attestation carries forbidden claims: "+strings.Join(bad, ", ")
		return res, nil
	}
	if claims.RP.Origin != origin {
		res.Status, res.Detail = AttestationStatusOriginMismatch, "rp.origin is "+quote(claims.RP.Origin)+" but the document was fetched from "+quote(origin)
		return res, nil
	}
	if claims.RP.Audience != doc.Audience {
		res.Status, res.Detail = AttestationStatusAudienceMismatch, "rp.audience is "+quote(claims.RP.Audience)+" but the document's audience is "+quote(doc.Audience)
		return res, nil
	}
	if !now.Before(claims.Expiry.Add(v.leeway)) {
		res.Status, res.Detail = AttestationStatusExpired, "expired at "+claims.Expiry.UTC().Format(time.RFC3339)
		return res, nil
	}
	if start := later(claims.IssuedAt, claims.NotBefore); start.After(now.Add(v.leeway)) {
		res.Status, res.Detail = AttestationStatusNotYetValid, "not valid before "+start.UTC().Format(time.RFC3339)
		return res, nil
	}
	res.Status, res.Detail = AttestationStatusVerified, "signed by "+tok.claims.Issuer+", bound to "+origin+" and audience "+quote(doc.Audience)
	return res, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// token is a decoded, not yet verified, attestation.
type token struct {
	header    map[string]any
	kid       string
	claims    AttestationClaims
	rawClaims map[string]any
}

var b64 = base64.RawURLEncoding.Strict()

// parseToken decodes an attestation and checks its form: size, three
// base64url segments, and a JSON object header with alg EdDSA and typ
// agent-rp-attestation+jwt. It checks a 64-byte signature and a JSON object
// claims set with the required claims of the right types. It never verifies
// anything.
func parseToken(s string) (*token, error) {
	if s == "" {
		return nil, errors.New("rp_attestation is empty")
	}
	if len(s) > maxAttestationBytes {
		return nil, fmt.Errorf("rp_attestation is %d bytes, over the %d-byte cap", len(s), maxAttestationBytes)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			// The decoder would skip CR and LF; nothing but the base64url
			// alphabet and the separators belongs in a compact JWS.
			return nil, fmt.Errorf("rp_attestation has a character outside the base64url alphabet at byte %d", i)
		}
	}
	if n := strings.Count(s, "."); n != 2 {
		return nil, fmt.Errorf("rp_attestation is not a compact JWS: %d segments, want 3", n+1)
	}
	seg := strings.SplitN(s, ".", 3)
	names := [3]string{"header", "payload", "signature"}
	var raw [3][]byte
	for i, p := range seg {
		if p == "" {
			if i == 2 {
				continue // reported after the header, which says more
			}
			return nil, fmt.Errorf("rp_attestation %s segment is empty", names[i])
		}
		b, err := b64.DecodeString(p)
		if err != nil {
			return nil, fmt.Errorf("rp_attestation %s segment is not unpadded base64url", names[i])
		}
		raw[i] = b
	}
	hv, err := strictjson.Decode(raw[0])
	if err != nil {
		return nil, jsonDefect("header", err)
	}
	header, ok := hv.(map[string]any)
	if !ok {
		return nil, errors.New("rp_attestation header is not a JSON object")
	}
	if alg, _ := header["alg"].(string); alg != AttestationAlgorithm {
		return nil, fmt.Errorf("rp_attestation alg is %s, only EdDSA is accepted", describe(header["alg"]))
	}
	if typ, _ := header["typ"].(string); !isAttestationType(typ) {
		return nil, fmt.Errorf("rp_attestation typ is %s, want %q", describe(header["typ"]), AttestationType)
	}
	t := &token{header: header}
	if kid, present := header["kid"]; present {
		k, ok := kid.(string)
		if !ok {
			return nil, errors.New("rp_attestation kid is not a string")
		}
		t.kid = k
	}
	if len(raw[2]) != ed25519.SignatureSize {
		return nil, fmt.Errorf("rp_attestation signature is %d bytes, an Ed25519 signature is %d", len(raw[2]), ed25519.SignatureSize)
	}
	cv, err := strictjson.Decode(raw[1])
	if err != nil {
		return nil, jsonDefect("claims", err)
	}
	claims, ok := cv.(map[string]any)
	if !ok {
		return nil, errors.New("rp_attestation claims are not a JSON object")
	}
	t.rawClaims = claims
	c := &t.claims
	c.Raw = json.RawMessage(raw[1])
	if c.Issuer, ok = claims["iss"].(string); !ok || c.Issuer == "" {
		return nil, errors.New("rp_attestation iss claim is missing or not a non-empty string")
	}
	if c.IssuedAt, err = numericDate(claims, "iat", true); err != nil {
		return nil, err
	}
	if c.Expiry, err = numericDate(claims, "exp", true); err != nil {
		return nil, err
	}
	if c.NotBefore, err = numericDate(claims, "nbf", false); err != nil {
		return nil, err
	}
	if !c.Expiry.After(c.IssuedAt) {
		return nil, errors.New("rp_attestation exp is not after iat")
	}
	rp, ok := claims["rp"].(map[string]any)
	if !ok {
		return nil, errors.New("rp_attestation rp claim is missing or not an object")
	}
	if c.RP.Origin, ok = rp["origin"].(string); !ok || c.RP.Origin == "" {
		return nil, errors.New("rp_attestation rp.origin is missing or not a non-empty string")
	}
	if c.RP.Audience, ok = rp["audience"].(string); !ok || c.RP.Audience == "" {
		return nil, errors.New("rp_attestation rp.audience is missing or not a non-empty string")
	}
	if kv, present := claims["keys"]; present {
		list, ok := kv.([]any)
		if !ok {
			return nil, errors.New("rp_attestation keys claim is not an array")
		}
		for i, k := range list {
			if _, ok := k.(map[string]any); !ok {
				return nil, fmt.Errorf("rp_attestation keys[%d] is not a JWK object", i)
			}
			b, _ := json.Marshal(k)
			c.Keys = append(c.Keys, b)
		}
	}
	return t, nil
}

// jsonDefect names why a segment is not strict JSON: the strict JSON rule
// (json-bom, json-number-range, json-depth ...), where, and its message.
func jsonDefect(segment string, err error) error {
	var se *strictjson.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("rp_attestation %s is not JSON: %v", segment, err)
	}
	where := ""
	if se.Pointer != "" {
		where = " at " + se.Pointer
	}
	return fmt.Errorf("rp_attestation %s is not strict JSON%s: %s [%s]", segment, where, se.Message, se.Rule)
}

// isAttestationType compares typ as a media type (RFC 7515 Section 4.1.9: case
// insensitive, "application/" may be omitted).
func isAttestationType(typ string) bool {
	typ = strings.ToLower(typ)
	return typ == AttestationType || typ == "application/"+AttestationType
}

// maxNumericDate is 9999-12-31T23:59:59Z.
const maxNumericDate = 253402300799

func numericDate(claims map[string]any, name string, required bool) (time.Time, error) {
	v, present := claims[name]
	if !present {
		if required {
			return time.Time{}, fmt.Errorf("rp_attestation %s claim is missing", name)
		}
		return time.Time{}, nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return time.Time{}, fmt.Errorf("rp_attestation %s claim is not a number", name)
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > maxNumericDate {
		return time.Time{}, fmt.Errorf("rp_attestation %s claim is not a NumericDate between 1970 and 9999", name)
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
}

func describe(v any) string {
	if v == nil {
		return "missing"
	}
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		b = append(b[:37:37], "..."...)
	}
	return string(b)
}

// forbiddenClaimNames are the claims an attestation must not carry ("It
// must not carry a terms hash, scopes, endpoints, provider_url, account ids,
// prices, or private material"), matched at any depth like forbidden
// document members. Private JWK members are checked separately.
var forbiddenClaimNames = map[string]string{
	"terms":                "terms hash",
	"terms_hash":           "terms hash",
	"terms_sha256":         "terms hash",
	"tos_hash":             "terms hash",
	"accepted_rp_tos_hash": "terms hash",
	"sha256":               "terms hash",
	"scope":                "scopes",
	"scopes":               "scopes",
	"required_scopes":      "scopes",
	"endpoints":            "endpoints",
	"agent_signup":         "endpoints",
	"provider_url":         "provider_url",
	"account_id":           "account ids",
	"account_ids":          "account ids",
	"price":                "prices",
	"prices":               "prices",
	"pricing":              "prices",
	"plans":                "prices",
	"secret":               "private material",
	"client_secret":        "private material",
	"password":             "private material",
	"private_key":          "private material",
	"api_key":              "private material",
	"access_token":         "private material",
	"refresh_token":        "private material",
}

// privateJWKMembers are the JWK members that hold private or symmetric key
// material (RFC 7518 Section 6.2.2, Section 6.3.2, Section 6.4.1; RFC 8037 Section 2).
var privateJWKMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// forbiddenClaims returns the JSON Pointers of forbidden claims, sorted.
func forbiddenClaims(claims map[string]any) []string {
	var out []string
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch t := v.(type) {
		case map[string]any:
			if _, isJWK := t["kty"]; isJWK {
				for _, m := range privateJWKMembers {
					if _, ok := t[m]; ok {
						out = append(out, ptr+"/"+m+" (private key material)")
					}
				}
			}
			for _, k := range sortedKeys(t) {
				p := ptr + "/" + escapePointer(k)
				if what, ok := forbiddenClaimNames[foldName(k)]; ok && len(k) <= 64 {
					out = append(out, p+" ("+what+")")
					continue
				}
				walk(t[k], p)
			}
		case []any:
			for i, e := range t {
				walk(e, ptr+"/"+itoa(i))
			}
		}
	}
	walk(claims, "")
	return out
}
