package agentsignup

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func newNet(t *testing.T) *fetchtest.Network {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	return n
}

// publish serves doc at WellKnownPath of host through the package's Handler.
func publish(t *testing.T, n *fetchtest.Network, host string, doc *Document) {
	t.Helper()
	h, err := Handler(doc, nil)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, h)
	n.Site(host, mux)
}

func attestedDoc(t *testing.T, rpOrigin string) *Document {
	t.Helper()
	in := seedInput()
	in.RPAttestation = signRaw(testKey(1), goodHeader(), with(goodClaims(), "rp", map[string]any{"origin": rpOrigin, "audience": "example-rp"}))
	d, err := NewDocument(in)
	require.NoError(t, err)
	return d
}

func fixedNow() time.Time { return testNow }

func TestFetch(t *testing.T) {
	n := newNet(t)
	publish(t, n, "example.com", attestedDoc(t, "https://example.com"))
	f, err := Fetch(t.Context(), "example.com", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(testKeys(), &VerifierConfig{Now: fixedNow}), Now: fixedNow})
	require.NoError(t, err)
	assert.Equal(t, "https://example.com", f.Origin)
	assert.Equal(t, "https://example.com/.well-known/agent-signup.json", f.URL)
	assert.Equal(t, f.URL, f.FinalURL)
	assert.Equal(t, "https://example.com", f.DocumentOrigin)
	assert.Equal(t, http.StatusOK, f.StatusCode)
	assert.Equal(t, "application/json", f.ContentType)
	assert.Regexp(t, `^"[0-9a-f]{64}"$`, f.ETag)
	assert.Equal(t, testNow, f.Retrieved)
	require.NotNil(t, f.Document)
	assert.Equal(t, seedHash, f.Document.Terms.SHA256)
	require.NotNil(t, f.Attestation)
	assert.Equal(t, AttestationStatusVerified, f.Attestation.Status, f.Attestation.Detail)

	t.Run("without keys the attestation is untrusted", func(t *testing.T) {
		f, err := Fetch(t.Context(), "https://example.com/", &FetchOptions{Client: n.Client(), Now: fixedNow})
		require.NoError(t, err)
		assert.Equal(t, AttestationStatusUntrustedIssuer, f.Attestation.Status)
	})
	t.Run("without attestation it is absent", func(t *testing.T) {
		plain, err := NewDocument(seedInput())
		require.NoError(t, err)
		h, err := Handler(plain, &HandlerOptions{Header: http.Header{"Last-Modified": {"Mon, 01 Jun 2026 10:00:00 GMT"}}})
		require.NoError(t, err)
		n.Site("plain.example", h)
		f, err := Fetch(t.Context(), "https://PLAIN.example:443", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(testKeys(), nil)})
		require.NoError(t, err)
		assert.Equal(t, "https://plain.example", f.Origin)
		assert.Equal(t, "Mon, 01 Jun 2026 10:00:00 GMT", f.LastModified)
		assert.Equal(t, AttestationStatusAbsent, f.Attestation.Status)
	})
}

func TestFetchWrongOriginInAttestation(t *testing.T) {
	// A copycat publishes the relying party's document, attestation and
	// all, on its own origin: the attestation stays signed and valid but is
	// bound to another origin.
	n := newNet(t)
	publish(t, n, "copycat.example", attestedDoc(t, "https://example.com"))
	f, err := Fetch(t.Context(), "copycat.example", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(testKeys(), &VerifierConfig{Now: fixedNow}), Now: fixedNow})
	require.NoError(t, err, "an attestation result is not a conformance failure")
	assert.Equal(t, AttestationStatusOriginMismatch, f.Attestation.Status)
	assert.Contains(t, f.Attestation.Detail, "https://copycat.example")
}

func TestFetchRedirects(t *testing.T) {
	n := newNet(t)
	redirectTo := func(target string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target+r.URL.Path, http.StatusMovedPermanently)
		})
	}
	n.Site("example.com", redirectTo("https://www.example.com"))
	publish(t, n, "www.example.com", attestedDoc(t, "https://example.com"))
	n.Site("moved.example", redirectTo("https://elsewhere.example"))
	publish(t, n, "elsewhere.example", attestedDoc(t, "https://elsewhere.example"))

	t.Run("www counterpart followed, attestation checked against it", func(t *testing.T) {
		f, err := Fetch(t.Context(), "example.com", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(testKeys(), &VerifierConfig{Now: fixedNow}), Now: fixedNow})
		require.NoError(t, err)
		assert.Equal(t, "https://example.com", f.Origin)
		assert.Equal(t, "https://www.example.com", f.DocumentOrigin)
		assert.Equal(t, []string{"https://www.example.com/.well-known/agent-signup.json"}, f.Redirects)
		assert.Equal(t, AttestationStatusOriginMismatch, f.Attestation.Status, "bound to the apex, fetched from www")
	})
	t.Run("other origin refused", func(t *testing.T) {
		_, err := Fetch(t.Context(), "moved.example", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(testKeys(), &VerifierConfig{Now: fixedNow}), Now: fixedNow})
		require.Error(t, err)
		assert.ErrorIs(t, err, safefetch.ErrRedirectRefused)
	})
}

func TestFetchErrors(t *testing.T) {
	n := newNet(t)
	body := seedBytes(t)
	serveAs := func(status int, contentType string, body []byte) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if contentType != "" {
				w.Header().Set("Content-Type", contentType)
			} else {
				w.Header()["Content-Type"] = nil
			}
			w.WriteHeader(status)
			w.Write(body)
		})
	}
	n.Site("text.example", serveAs(200, "text/plain; charset=utf-8", body))
	n.Site("html.example", serveAs(200, "text/html", body))
	n.Site("jsonld.example", serveAs(200, "application/ld+json", body))
	n.Site("none.example", serveAs(200, "", body))
	n.Site("charset.example", serveAs(200, "application/json; charset=utf-8", body))
	n.Site("missing.example", serveAs(404, "text/plain", []byte("not found")))
	n.Site("broken.example", serveAs(500, "text/plain", []byte("oops")))
	n.Site("invalid.example", serveAs(200, "application/json", []byte(`{"protocol":"agent-identity-v1"}`)))
	n.Site("other.example", serveAs(200, "application/json", []byte(`{"version":"1","signup_url":"https://other.example/s"}`)))
	n.Host("nxdomain.example")

	tests := []struct {
		host   string
		target error
		doc    bool
	}{
		{"text.example", safefetch.ErrContentType, false},
		{"html.example", safefetch.ErrContentType, false},
		{"jsonld.example", safefetch.ErrContentType, false},
		{"none.example", safefetch.ErrContentType, false},
		{"charset.example", nil, true},
		{"missing.example", safefetch.ErrNotFound, false},
		{"broken.example", safefetch.ErrStatus, false},
		{"invalid.example", ErrInvalid, false},
		{"other.example", ErrNotAgentIdentity, false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			f, err := Fetch(t.Context(), tt.host, &FetchOptions{Client: n.Client()})
			require.NotNil(t, f, "provenance is kept whenever a response arrived")
			assert.Equal(t, "https://"+tt.host+WellKnownPath, f.URL)
			assert.Equal(t, tt.doc, f.Document != nil)
			if tt.target == nil {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, tt.target)
		})
	}
	t.Run("content type error carries the value", func(t *testing.T) {
		_, err := Fetch(t.Context(), "text.example", &FetchOptions{Client: n.Client()})
		var ce *safefetch.ContentTypeError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "text/plain; charset=utf-8", ce.Got)
	})
	t.Run("too large", func(t *testing.T) {
		n.Site("huge.example", serveAs(200, "application/json", make([]byte, 2<<20)))
		f, err := Fetch(t.Context(), "huge.example", &FetchOptions{Client: n.Client()})
		assert.ErrorIs(t, err, safefetch.ErrTooLarge)
		require.NotNil(t, f, "evidence kept")
		assert.Equal(t, http.StatusOK, f.StatusCode)
		assert.Nil(t, f.Document)
	})
	t.Run("network refusal", func(t *testing.T) {
		f, err := Fetch(t.Context(), "nxdomain.example", &FetchOptions{Client: n.Client()})
		assert.Nil(t, f)
		assert.ErrorIs(t, err, safefetch.ErrDNS)
	})
	for _, bad := range []string{"", "http://example.com", "https://example.com/path", "https://example.com/?q", "ftp://example.com", "https://user@example.com"} {
		t.Run("origin "+bad, func(t *testing.T) {
			_, err := Fetch(t.Context(), bad, &FetchOptions{Client: n.Client()})
			assert.Error(t, err)
		})
	}
}

// switchable serves whichever document was set last.
type switchable struct {
	mu sync.Mutex
	h  http.Handler
}

func (s *switchable) set(t *testing.T, d *Document) {
	h, err := Handler(d, nil)
	require.NoError(t, err)
	s.mu.Lock()
	s.h = h
	s.mu.Unlock()
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	h.ServeHTTP(w, r)
}

func TestFetchRotatedTerms(t *testing.T) {
	n := newNet(t)
	site := &switchable{}
	v1 := seedInput()
	d1, err := NewDocument(v1)
	require.NoError(t, err)
	site.set(t, d1)
	n.Site("example.com", site)
	opts := &FetchOptions{Client: n.Client()}

	// The agent reads the terms and accepts their hash.
	before, err := Fetch(t.Context(), "example.com", opts)
	require.NoError(t, err)
	accepted := before.Document.Terms.SHA256
	assert.Equal(t, TermsHash(before.Document.Terms.Text), accepted)

	// The relying party rotates its terms.
	rotated := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
	v2 := seedInput()
	v2.Terms.Version = "2026.2"
	v2.Terms.Text += " Disputes are settled in Example City."
	d2, err := NewDocument(v2)
	require.NoError(t, err)
	site.set(t, d2)

	after, err := Fetch(t.Context(), "example.com", opts)
	require.NoError(t, err)
	require.NotEqual(t, accepted, after.Document.Terms.SHA256)
	assert.NotEqual(t, before.ETag, after.ETag)

	// The relying party checks the in-flight assertion against the current
	// document, with a two-hour grace for the previous hash.
	grace := &TermsGrace{Previous: accepted, Replaced: rotated, Window: 2 * time.Hour}
	got, err := CheckAcceptedTerms(after.Document, accepted, rotated.Add(time.Hour), grace)
	require.NoError(t, err)
	assert.Equal(t, TermsAcceptancePrevious, got)
	_, err = CheckAcceptedTerms(after.Document, accepted, rotated.Add(2*time.Hour), grace)
	assert.ErrorIs(t, err, ErrTermsMismatch, "refused after the grace window")
	_, err = CheckAcceptedTerms(after.Document, accepted, rotated.Add(25*time.Hour), &TermsGrace{Previous: accepted, Replaced: rotated, Window: 7 * 24 * time.Hour})
	assert.ErrorIs(t, err, ErrTermsMismatch, "grace capped at 24 hours")
	_, err = CheckAcceptedTerms(after.Document, accepted, rotated.Add(time.Minute), nil)
	assert.ErrorIs(t, err, ErrTermsMismatch, "no grace without a policy")
	got, err = CheckAcceptedTerms(after.Document, after.Document.Terms.SHA256, rotated.Add(time.Minute), grace)
	require.NoError(t, err)
	assert.Equal(t, TermsAcceptanceCurrent, got)
}

func jwksJSON(keys ...map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"keys": keys})
	return b
}

func okpJWK(priv ed25519.PrivateKey, kid string) map[string]any {
	return map[string]any{"kty": "OKP", "crv": "Ed25519", "kid": kid, "use": "sig", "alg": "EdDSA",
		"x": base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))}
}

// jwksSite serves a JWK Set that tests can change.
type jwksSite struct {
	mu          sync.Mutex
	body        []byte
	contentType string
}

func (s *jwksSite) set(ct string, body []byte) {
	s.mu.Lock()
	s.body, s.contentType = body, ct
	s.mu.Unlock()
}

func (s *jwksSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", s.contentType)
	w.Write(s.body)
}

func TestFetchWithJWKS(t *testing.T) {
	n := newNet(t)
	publish(t, n, "example.com", attestedDoc(t, "https://example.com"))
	jw := &jwksSite{}
	jw.set("application/jwk-set+json", jwksJSON(okpJWK(testKey(1), "k1"), map[string]any{"kty": "RSA", "n": "AQAB", "e": "AQAB"}))
	mux := http.NewServeMux()
	mux.Handle("/jwks.json", jw)
	n.Site("agentregistrar.dev", mux)

	clock := testNow
	var clockMu sync.Mutex
	now := func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return clock }
	advance := func(d time.Duration) { clockMu.Lock(); clock = clock.Add(d); clockMu.Unlock() }

	keys, err := NewJWKSKeySet(testIssuer, "https://agentregistrar.dev/jwks.json", &JWKSOptions{Client: n.Client(), TTL: 10 * time.Minute, MinRefreshInterval: time.Minute, Now: now})
	require.NoError(t, err)
	opts := &FetchOptions{Client: n.Client(), Verifier: NewVerifier(keys, &VerifierConfig{Now: now}), Now: now}

	fetchStatus := func() AttestationStatus {
		t.Helper()
		f, err := Fetch(t.Context(), "example.com", opts)
		require.NoError(t, err)
		return f.Attestation.Status
	}
	n.ResetRequests()
	assert.Equal(t, AttestationStatusVerified, fetchStatus())
	assert.Equal(t, AttestationStatusVerified, fetchStatus())
	assert.Equal(t, 1, n.Requests("agentregistrar.dev"), "cached within the TTL")
	assert.Equal(t, 1, keys.fetchCount())

	advance(11 * time.Minute)
	assert.Equal(t, AttestationStatusVerified, fetchStatus())
	assert.Equal(t, 2, n.Requests("agentregistrar.dev"), "refetched after the TTL")

	// The issuer rotates to a new key: the old set no longer verifies.
	jw.set("application/json", jwksJSON(okpJWK(testKey(2), "k2")))
	assert.Equal(t, AttestationStatusVerified, fetchStatus(), "still cached: the old key is served from the cache")
	advance(11 * time.Minute)
	assert.Equal(t, AttestationStatusUntrustedIssuer, fetchStatus(), "k1 is gone from the set")
	assert.Equal(t, 3, n.Requests("agentregistrar.dev"))

	t.Run("other issuers get no key", func(t *testing.T) {
		ks, err := keys.IssuerKeys(t.Context(), "https://other.example", "")
		require.NoError(t, err)
		assert.Empty(t, ks)
	})
}

func TestJWKSKeySetRefresh(t *testing.T) {
	n := newNet(t)
	jw := &jwksSite{}
	jw.set("application/json", jwksJSON(okpJWK(testKey(1), "k1")))
	n.Site("agentregistrar.dev", jw)
	clock := testNow
	keys, err := NewJWKSKeySet(testIssuer, "https://agentregistrar.dev/jwks.json", &JWKSOptions{Client: n.Client(), Now: func() time.Time { return clock }})
	require.NoError(t, err)

	ks, err := keys.IssuerKeys(t.Context(), testIssuer, "k1")
	require.NoError(t, err)
	require.Len(t, ks, 1)

	// An unknown kid refetches, at most once per MinRefreshInterval.
	jw.set("application/json", jwksJSON(okpJWK(testKey(1), "k1"), okpJWK(testKey(2), "k2")))
	ks, err = keys.IssuerKeys(t.Context(), testIssuer, "k2")
	require.NoError(t, err)
	assert.Len(t, ks, 1, "refetch rate-limited: the last fetch was this very minute")
	clock = clock.Add(2 * time.Minute)
	ks, err = keys.IssuerKeys(t.Context(), testIssuer, "k2")
	require.NoError(t, err)
	assert.Len(t, ks, 2, "unknown kid refetched")
	assert.Equal(t, 2, keys.fetchCount())
	ks, err = keys.IssuerKeys(t.Context(), testIssuer, "k9")
	require.NoError(t, err)
	assert.Len(t, ks, 2)
	assert.Equal(t, 2, keys.fetchCount(), "no refetch within the interval")

	// A failing source is an error once the cache is stale, retried at most
	// once per interval.
	jw.set("text/html", []byte("<html>"))
	clock = clock.Add(2 * time.Hour)
	_, err = keys.IssuerKeys(t.Context(), testIssuer, "k1")
	assert.ErrorIs(t, err, safefetch.ErrContentType)
	_, err = keys.IssuerKeys(t.Context(), testIssuer, "k1")
	assert.ErrorIs(t, err, safefetch.ErrContentType)
	assert.Equal(t, 3, keys.fetchCount())

	// Private key material refuses the set.
	priv := okpJWK(testKey(1), "k1")
	priv["d"] = base64.RawURLEncoding.EncodeToString(testKey(1).Seed())
	jw.set("application/json", jwksJSON(priv))
	assert.ErrorIs(t, keys.Refresh(t.Context()), ErrPrivateKeyMaterial)

	// A Fetch whose key set fails reports the error with the document.
	publish(t, n, "example.com", attestedDoc(t, "https://example.com"))
	clock = clock.Add(time.Hour)
	f, err := Fetch(t.Context(), "example.com", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(keys, &VerifierConfig{Now: func() time.Time { return testNow }}), Now: func() time.Time { return testNow }})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrPrivateKeyMaterial)
	require.NotNil(t, f)
	assert.NotNil(t, f.Document)

	_, err = NewJWKSKeySet(testIssuer, "http://agentregistrar.dev/jwks.json", nil)
	assert.ErrorIs(t, err, safefetch.ErrForbiddenURL)
}

func TestParseJWKS(t *testing.T) {
	k := testKey(1)
	tests := []struct {
		name    string
		data    string
		want    int
		wantErr error
	}{
		{"one key", string(jwksJSON(okpJWK(k, "a"))), 1, nil},
		{"skips other types and uses", string(jwksJSON(okpJWK(k, "a"), map[string]any{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA"}, with(okpJWK(k, "b"), "use", "enc"), with(okpJWK(k, "c"), "alg", "ES256"), with(okpJWK(k, "d"), "crv", "X25519"))), 1, nil},
		{"empty", `{"keys":[]}`, 0, nil},
		{"private d", string(jwksJSON(with(okpJWK(k, "a"), "d", "AA"))), 0, ErrPrivateKeyMaterial},
		{"private RSA member", string(jwksJSON(map[string]any{"kty": "RSA", "n": "AQAB", "e": "AQAB", "p": "AA"})), 0, ErrPrivateKeyMaterial},
		{"symmetric", string(jwksJSON(map[string]any{"kty": "oct", "k": "c2VjcmV0"})), 0, ErrPrivateKeyMaterial},
		{"short x", string(jwksJSON(with(okpJWK(k, "a"), "x", "AAAA"))), 0, ErrJWKS},
		{"no keys", `{}`, 0, ErrJWKS},
		{"not object", `[]`, 0, ErrJWKS},
		{"duplicate member", `{"keys":[],"keys":[]}`, 0, ErrJWKS},
		{"key not object", `{"keys":[1]}`, 0, ErrJWKS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseJWKS([]byte(tt.data))
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Len(t, got, tt.want)
		})
	}
	many := make([]map[string]any, maxJWKSKeys+1)
	for i := range many {
		many[i] = okpJWK(k, "k")
	}
	_, err := ParseJWKS(jwksJSON(many...))
	assert.ErrorIs(t, err, ErrJWKS)
}

func TestFetchConditional(t *testing.T) {
	n := newNet(t)
	site := &switchable{}
	site.set(t, attestedDoc(t, "https://example.com"))
	n.Site("example.com", site)
	clock := testNow
	now := func() time.Time { return clock }
	v := NewVerifier(testKeys(), &VerifierConfig{Now: now})
	opts := &FetchOptions{Client: n.Client(), Verifier: v, Now: now}

	first, err := Fetch(t.Context(), "example.com", opts)
	require.NoError(t, err)
	require.NotEmpty(t, first.ETag)
	assert.False(t, first.NotModified)

	clock = clock.Add(time.Hour)
	opts.Previous = &first.Provenance
	second, err := Fetch(t.Context(), "example.com", opts)
	require.NoError(t, err)
	assert.True(t, second.NotModified)
	assert.Equal(t, http.StatusNotModified, second.StatusCode)
	assert.Nil(t, second.Document, "the caller keeps the document it cached")
	assert.Nil(t, second.Body)
	assert.Nil(t, second.Attestation)
	assert.Equal(t, first.ETag, second.ETag)
	assert.Equal(t, first.ContentType, second.ContentType)
	assert.Equal(t, "https://example.com", second.DocumentOrigin)
	assert.Equal(t, testNow.Add(time.Hour), second.Retrieved)

	// Two days later the attestation has expired, though the document has
	// not changed: the kept document is verified again.
	clock = clock.Add(48 * time.Hour)
	third, err := Fetch(t.Context(), "example.com", opts)
	require.NoError(t, err)
	assert.True(t, third.NotModified)
	res, err := v.Verify(t.Context(), first.Document, third.DocumentOrigin)
	require.NoError(t, err)
	assert.Equal(t, AttestationStatusExpired, res.Status)

	// A changed document is fetched in full.
	v2 := seedInput()
	v2.Terms.Text += " Amended."
	d2, err := NewDocument(v2)
	require.NoError(t, err)
	site.set(t, d2)
	fourth, err := Fetch(t.Context(), "example.com", opts)
	require.NoError(t, err)
	assert.False(t, fourth.NotModified)
	assert.Equal(t, TermsHash(v2.Terms.Text), fourth.Document.Terms.SHA256)

	// A previous provenance for another origin is ignored.
	publish(t, n, "other.example", attestedDoc(t, "https://other.example"))
	other, err := Fetch(t.Context(), "other.example", opts)
	require.NoError(t, err)
	assert.False(t, other.NotModified)
	assert.NotNil(t, other.Document)
}

// TestFetchNilClientIsDefault: a nil Client means safefetch.Default(),
// whose connection reuse safefetch tests; a Client given is used as is.
func TestFetchNilClientIsDefault(t *testing.T) {
	assert.Same(t, safefetch.Default(), (&FetchOptions{}).client())
	own := safefetch.New(nil)
	assert.Same(t, own, (&FetchOptions{Client: own}).client())
}

// TestFetchesReuseTheClientsConnections: three fetches with one Client, one
// of them verifying an attestation, dial once.
func TestFetchesReuseTheClientsConnections(t *testing.T) {
	n := newNet(t)
	publish(t, n, "reuse.example", attestedDoc(t, "https://reuse.example"))
	c := n.Client()
	for _, opts := range []*FetchOptions{{Client: c}, {Client: c}, {Client: c, Verifier: NewVerifier(testKeys(), nil)}} {
		f, err := Fetch(t.Context(), "reuse.example", opts)
		require.NoError(t, err)
		require.NotNil(t, f.Document)
	}
	assert.Equal(t, 3, n.Requests("reuse.example"))
	assert.Equal(t, 1, n.Dials(n.Addr("reuse.example")))
}

func TestJWKSKeySetWithoutClientFetchesWithTheFetchClient(t *testing.T) {
	n := newNet(t)
	publish(t, n, "example.com", attestedDoc(t, "https://example.com"))
	jw := &jwksSite{}
	jw.set("application/jwk-set+json", jwksJSON(okpJWK(testKey(1), "k1")))
	mux := http.NewServeMux()
	mux.Handle("/jwks.json", jw)
	n.Site("agentregistrar.dev", mux)

	// The README's shape: the key set built with nil options, the client
	// given once, to Fetch.
	keys, err := NewJWKSKeySet(testIssuer, "https://agentregistrar.dev/jwks.json", &JWKSOptions{Now: fixedNow})
	require.NoError(t, err)
	f, err := Fetch(t.Context(), "example.com", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(keys, &VerifierConfig{Now: fixedNow}), Now: fixedNow})
	require.NoError(t, err, "the keys come from the fake internet, through the Fetch's client")
	assert.Equal(t, AttestationStatusVerified, f.Attestation.Status)
	assert.Equal(t, 1, n.Requests("agentregistrar.dev"))

	// A set with a client of its own keeps it.
	other := newNet(t)
	own, err := NewJWKSKeySet(testIssuer, "https://agentregistrar.dev/jwks.json", &JWKSOptions{Client: other.Client(), Now: fixedNow})
	require.NoError(t, err)
	_, err = Fetch(t.Context(), "example.com", &FetchOptions{Client: n.Client(), Verifier: NewVerifier(own, &VerifierConfig{Now: fixedNow}), Now: fixedNow})
	require.Error(t, err, "the set's own client does not know the issuer")
	assert.Equal(t, 1, n.Requests("agentregistrar.dev"))
}
