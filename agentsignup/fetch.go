package agentsignup

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// FetchOptions configures [Fetch]. The zero value, and a nil pointer, are
// safe: the shared default safefetch client, no trusted attestation key, an
// unconditional request and the system clock.
type FetchOptions struct {
	// Client fetches the document; nil means safefetch.Default(). Fetch
	// follows redirects only to the same origin or its exact www
	// counterpart (safefetch.SameOriginOrWWW).
	Client *safefetch.Client
	// Verifier checks the document's rp_attestation (see [NewVerifier],
	// whose VerifierConfig.Now is the clock of the time claims). nil trusts
	// no key: a document with an rp_attestation is then untrusted-issuer,
	// never verified.
	Verifier *Verifier
	// Now is the clock of the retrieval time (Fetched.Retrieved); nil
	// means the time the response arrived.
	Now func() time.Time
	// Previous is the provenance of an earlier Fetch of the same origin
	// (the Provenance of its [Fetched]); it is ignored for another URL.
	// When set, the request is conditional: If-None-Match with its ETag,
	// If-Modified-Since with its Last-Modified. A 304 answer returns a
	// Fetched with NotModified set, the new provenance and no document. The
	// caller keeps the document it cached. It verifies its attestation
	// again with [Verifier.Verify] when it needs the result now, because
	// its time claims may have run out.
	Previous *safefetch.Provenance
}

// client is the Client of Fetch: o.Client, or safefetch.Default() when it
// is nil.
func (o *FetchOptions) client() *safefetch.Client { return safefetch.OrDefault(o.Client) }

// Fetched is a discovery document as retrieved. The embedded
// [safefetch.Provenance] is the retrieval record every fetched document of
// this module carries: the URL requested (Origin + WellKnownPath), the final
// URL, redirects, status, Content-Type, validators and retrieval time.
type Fetched struct {
	safefetch.Provenance
	// Origin is the canonical origin asked for (scheme and host, IDN to
	// ASCII, default port dropped).
	Origin string `json:"origin"`
	// DocumentOrigin is the canonical origin of FinalURL: the origin the
	// attestation's rp.origin must equal.
	DocumentOrigin string `json:"document_origin"`
	// Body is the document as received (capped by the client); nil when
	// NotModified is set.
	Body []byte `json:"-"`
	// Document is set when the body conforms.
	Document *Document `json:"-"`
	// Attestation is the result of [Verifier.Verify], set with Document.
	Attestation *AttestationResult `json:"attestation,omitempty"`
}

// Fetch retrieves and checks the discovery document of origin
// ([agent-identity-v1 discovery fields], "Verify"). It fetches, confirms
// Content-Type: application/json, recomputes the terms hash, validates, and
// looks for forbidden fields. The origin is an https origin such as
// "https://example.com", or a bare host name. A trailing "/" is allowed, any
// other path is not, because the specification fixes one well-known path per
// origin.
//
// Fetch GETs origin + WellKnownPath through safefetch, and requires status 200
// and the media type application/json. It parses the body with Parse. When the
// document has an rp_attestation, Fetch verifies it with opts.Verifier against
// the canonical origin of the final URL. A [JWKSKeySet] built without a client
// of its own fetches the keys with opts.Client. The returned *Fetched is
// non-nil whenever a response arrived, also with an error. The error is
// safefetch.ErrTooLarge for a body over the client's cap
// ([safefetch.DefaultMaxBodyBytes] by default), a *safefetch.StatusError
// (safefetch.ErrNotFound for 404 and 410), a *safefetch.ContentTypeError, a
// *ValidationError, or the key set's error. Network failures wrap safefetch's
// errors.
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
func Fetch(ctx context.Context, origin string, opts *FetchOptions) (*Fetched, error) {
	if opts == nil {
		opts = &FetchOptions{}
	}
	canon, err := requestOrigin(origin)
	if err != nil {
		return nil, err
	}
	c := opts.client().WithRedirectPolicy(safefetch.SameOriginOrWWW)
	src := canon + WellKnownPath
	prev := opts.Previous
	if prev != nil && prev.URL != src {
		prev = nil
	}
	resp, prov, err := c.GetDocument(ctx, src, &safefetch.DocumentRequest{
		Accept:     MediaType,
		MediaTypes: []string{MediaType},
		Previous:   prev,
	})
	if resp == nil {
		return nil, fmt.Errorf("agentsignup: fetch %s: %w", weburl.Redact(src), err)
	}
	if prov.StatusCode == 0 {
		// A response read with an error (over the byte cap) is evidence too.
		prov = resp.Provenance()
	}
	if opts.Now != nil {
		prov.Retrieved = opts.Now()
	}
	f := &Fetched{Provenance: prov, Origin: canon}
	if f.FinalURL == "" {
		f.FinalURL = src
	}
	if u, perr := url.Parse(f.FinalURL); perr == nil {
		f.DocumentOrigin, _ = originOf(u)
	}
	if prov.NotModified && err == nil {
		return f, nil
	}
	f.Body = resp.Body
	if err != nil {
		// safefetch returns the response with ErrTooLarge, a status or a
		// media type error, for evidence.
		return f, fmt.Errorf("agentsignup: fetch %s: %w", weburl.Redact(src), err)
	}
	doc, err := Parse(resp.Body)
	if err != nil {
		if ve := problem.As(err); ve != nil {
			return f, ve.WithSource(src)
		}
		return f, err
	}
	f.Document = doc
	res, err := opts.Verifier.verify(ctx, opts.client(), doc, f.DocumentOrigin)
	if err != nil {
		return f, err
	}
	f.Attestation = res
	return f, nil
}

// requestOrigin turns the caller's origin into the canonical https origin.
func requestOrigin(origin string) (string, error) {
	s := strings.TrimSpace(origin)
	if s == "" {
		return "", errors.New("agentsignup: empty origin")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("agentsignup: origin %q: %w", weburl.Redact(origin), err)
	}
	if u.Scheme != "https" {
		return "", fmt.Errorf("agentsignup: origin %q is not https", weburl.Redact(origin))
	}
	canon, err := canonicalOrigin(s)
	if err != nil {
		return "", fmt.Errorf("agentsignup: origin %q: %w", weburl.Redact(origin), err)
	}
	return canon, nil
}
