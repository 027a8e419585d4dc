package agentsignup

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentweb/agentweb/safefetch"
)

// ErrNotFound is wrapped by the *HTTPStatusError of a 404 or 410 answer:
// the origin publishes no discovery document.
var ErrNotFound = errors.New("agentsignup: no discovery document")

// ErrHTTPStatus is wrapped by every *HTTPStatusError.
var ErrHTTPStatus = errors.New("agentsignup: unexpected HTTP status")

// ErrContentType is wrapped by every *ContentTypeError.
var ErrContentType = errors.New("agentsignup: wrong content type")

// HTTPStatusError reports a response whose status is not 200.
type HTTPStatusError struct {
	URL        string
	StatusCode int
}

func (e *HTTPStatusError) Error() string {
	return fmt.Sprintf("agentsignup: %s answered HTTP %d", e.URL, e.StatusCode)
}

// Unwrap returns ErrHTTPStatus, and ErrNotFound for 404 and 410.
func (e *HTTPStatusError) Unwrap() []error {
	if e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusGone {
		return []error{ErrHTTPStatus, ErrNotFound}
	}
	return []error{ErrHTTPStatus}
}

// ContentTypeError reports a response whose Content-Type is not the one
// required ("Fetch the published document and confirm Content-Type:
// application/json").
type ContentTypeError struct {
	URL         string
	ContentType string // as received; "" when absent
}

func (e *ContentTypeError) Error() string {
	got := e.ContentType
	if got == "" {
		got = "none"
	}
	return fmt.Sprintf("agentsignup: %s has Content-Type %s, want application/json", e.URL, quote(got))
}

func (e *ContentTypeError) Unwrap() error { return ErrContentType }

// FetchOptions configures Fetch. The zero value is safe: safefetch's default
// client, no trusted attestation issuer.
type FetchOptions struct {
	// Client fetches the document; nil means safefetch.New(nil). Fetch
	// follows redirects only to the same origin or its exact www
	// counterpart (safefetch.SameOriginOrWWW).
	Client *safefetch.Client
	// Keys are the attestation keys the caller trusts. nil trusts none: a
	// document with an rp_attestation is then untrusted-issuer, never
	// verified.
	Keys KeySet
	// Now is the clock for the attestation's time claims and RetrievedAt;
	// nil means time.Now.
	Now func() time.Time
	// Previous is an earlier result of Fetch for the same origin. When it
	// holds a conforming document, the request is conditional
	// (If-None-Match with its ETag, If-Modified-Since with its
	// Last-Modified); a 304 answer returns Previous's body and document,
	// with NotModified set, the new provenance and a fresh attestation
	// result (its time claims are checked again).
	Previous *Fetched
}

// Fetched is a discovery document as retrieved, with its provenance.
type Fetched struct {
	// Origin is the canonical origin asked for (scheme and host, IDN to
	// ASCII, default port dropped).
	Origin string `json:"origin"`
	// SourceURL is Origin + WellKnownPath, the URL requested.
	SourceURL string `json:"source_url"`
	// FinalURL is the URL the document came from after redirects.
	FinalURL string `json:"final_url"`
	// DocumentOrigin is the canonical origin of FinalURL: the origin the
	// attestation's rp.origin must equal.
	DocumentOrigin string `json:"document_origin"`
	// Redirects lists every Location followed.
	Redirects []string `json:"redirects,omitempty"`
	// StatusCode is the final response's status.
	StatusCode int `json:"status"`
	// ContentType, ETag and LastModified are the response's Content-Type,
	// ETag and Last-Modified headers ("" when absent), for conditional
	// requests and evidence.
	ContentType  string `json:"content_type,omitempty"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	// RetrievedAt is when the response was received (FetchOptions.Now).
	RetrievedAt time.Time `json:"retrieved_at"`
	// NotModified is set when a conditional request (FetchOptions.Previous)
	// was answered 304 and the previous document was kept.
	NotModified bool `json:"not_modified,omitempty"`
	// Body is the document as received (capped by the client).
	Body []byte `json:"-"`
	// Document is set when the body conforms.
	Document *Document `json:"-"`
	// Attestation is the result of VerifyAttestation, set with Document.
	Attestation *AttestationResult `json:"attestation,omitempty"`
}

// Fetch retrieves and checks the discovery document of origin ("Verify":
// fetch, confirm Content-Type: application/json, recompute the terms hash,
// validate, look for forbidden fields). origin is an https origin such as
// "https://example.com" or a bare host name; a trailing "/" is allowed, any
// other path is not.
//
// Fetch GETs origin + WellKnownPath through safefetch, requires status 200
// and the media type application/json, parses the body with Parse and, when
// the document has an rp_attestation, verifies it with opts.Keys against the
// canonical origin of the final URL. The returned *Fetched is non-nil
// whenever a response arrived, also with an error: safefetch.ErrTooLarge
// for a body over the client's cap (1 MiB by default), a
// *HTTPStatusError
// (ErrNotFound for 404 and 410), a *ContentTypeError, a *ValidationError, or
// the key set's error. Network failures wrap safefetch's errors.
func Fetch(ctx context.Context, origin string, opts *FetchOptions) (*Fetched, error) {
	if opts == nil {
		opts = &FetchOptions{}
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	canon, err := requestOrigin(origin)
	if err != nil {
		return nil, err
	}
	c := opts.Client
	if c == nil {
		c = safefetch.New(nil)
	}
	c = c.WithRedirectPolicy(safefetch.SameOriginOrWWW)
	src := canon + WellKnownPath
	header := http.Header{"Accept": {MediaType}}
	prev := opts.Previous
	if prev != nil && (prev.Document == nil || prev.Origin != canon) {
		prev = nil
	}
	if prev != nil {
		if prev.ETag != "" {
			header.Set("If-None-Match", prev.ETag)
		}
		if prev.LastModified != "" {
			header.Set("If-Modified-Since", prev.LastModified)
		}
	}
	resp, err := c.Get(ctx, src, header)
	if err != nil && resp == nil {
		return nil, fmt.Errorf("agentsignup: fetch %s: %w", src, err)
	}
	f := &Fetched{
		Origin:       canon,
		SourceURL:    src,
		FinalURL:     resp.FinalURL,
		Redirects:    resp.Redirects,
		StatusCode:   resp.StatusCode,
		ContentType:  resp.Header.Get("Content-Type"),
		ETag:         resp.Header.Get("ETag"),
		LastModified: resp.Header.Get("Last-Modified"),
		RetrievedAt:  now(),
		Body:         resp.Body,
	}
	if f.FinalURL == "" {
		f.FinalURL = src
	}
	if u, err := url.Parse(f.FinalURL); err == nil {
		f.DocumentOrigin, _ = originOf(u)
	}
	if err != nil {
		// safefetch returns the response with ErrTooLarge, for evidence.
		return f, fmt.Errorf("agentsignup: fetch %s: %w", src, err)
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && prev != nil && (prev.ETag != "" || prev.LastModified != ""):
		f.NotModified = true
		f.Body, f.Document, f.ContentType = prev.Body, prev.Document, prev.ContentType
		if f.ETag == "" {
			f.ETag = prev.ETag
		}
		if f.LastModified == "" {
			f.LastModified = prev.LastModified
		}
	case resp.StatusCode != http.StatusOK:
		return f, &HTTPStatusError{URL: f.FinalURL, StatusCode: resp.StatusCode}
	default:
		if mt, _, err := mime.ParseMediaType(f.ContentType); err != nil || mt != MediaType {
			return f, &ContentTypeError{URL: f.FinalURL, ContentType: f.ContentType}
		}
		doc, err := Parse(resp.Body)
		if err != nil {
			return f, err
		}
		f.Document = doc
	}
	doc := f.Document
	res, err := VerifyAttestation(ctx, doc, f.DocumentOrigin, opts.Keys, now())
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
		return "", fmt.Errorf("agentsignup: origin %q: %w", origin, err)
	}
	if u.Scheme != "https" {
		return "", fmt.Errorf("agentsignup: origin %q is not https", origin)
	}
	canon, err := canonicalOrigin(s)
	if err != nil {
		return "", fmt.Errorf("agentsignup: origin %q: %w", origin, err)
	}
	return canon, nil
}
