package openagent

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"time"

	"github.com/agentweb/agentweb/safefetch"
)

// FetchOptions configure [Fetch], [Refresh], [Discover] and [DiscoverAll].
// The zero value, and a nil pointer, are safe: a default safefetch client and
// no identity expectation.
type FetchOptions struct {
	// Client performs every request; nil means safefetch.New(nil), never
	// http.DefaultClient. Its byte, redirect, time and budget limits apply.
	Client *safefetch.Client
	// ExpectDID is the identity a listing, directory or rental member
	// supplied for the descriptor. When set, a profile whose did differs is
	// refused with a *[DIDMismatchError] (openagent-0.1.md, "Publication and
	// discovery": "A mismatch is an error, not an automatic rename").
	ExpectDID string
}

func (o *FetchOptions) client() *safefetch.Client {
	if o == nil || o.Client == nil {
		return safefetch.New(nil)
	}
	return o.Client
}

func (o *FetchOptions) expectDID() string {
	if o == nil {
		return ""
	}
	return o.ExpectDID
}

// Sentinel errors of the network side. Typed errors below unwrap to them.
var (
	// ErrDIDMismatch is wrapped by *[DIDMismatchError].
	ErrDIDMismatch = errors.New("openagent: did mismatch")
	// ErrStatus is wrapped by *[StatusError].
	ErrStatus = errors.New("openagent: unexpected HTTP status")
	// ErrContentType is wrapped by *[ContentTypeError].
	ErrContentType = errors.New("openagent: descriptor is not application/json")
	// ErrNoDescriptor is returned by [Discover] when a page advertises no
	// descriptor and its origin serves none at the well-known path.
	ErrNoDescriptor = errors.New("openagent: no descriptor found")
)

// DIDMismatchError reports a descriptor whose did is not the identity the
// caller expected. Both values are kept; the profile is not renamed.
type DIDMismatchError struct {
	URL      string // the descriptor URL that was fetched
	Expected string // the identity the caller supplied
	Got      string // the did of the descriptor
}

func (e *DIDMismatchError) Error() string {
	return fmt.Sprintf("openagent: did mismatch: expected %q, descriptor %s says %q", e.Expected, e.URL, e.Got)
}

// Unwrap returns [ErrDIDMismatch].
func (e *DIDMismatchError) Unwrap() error { return ErrDIDMismatch }

// StatusError reports a descriptor response whose status is not 200 (or 304
// to a conditional [Refresh]).
type StatusError struct {
	URL        string
	StatusCode int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("openagent: %s: HTTP status %d", e.URL, e.StatusCode)
}

// Unwrap returns [ErrStatus].
func (e *StatusError) Unwrap() error { return ErrStatus }

// ContentTypeError reports a descriptor served with a media type other than
// application/json (openagent-0.1.md, "Publication and discovery").
type ContentTypeError struct {
	URL         string
	ContentType string // the Content-Type header as received ("" when absent)
}

func (e *ContentTypeError) Error() string {
	return fmt.Sprintf("openagent: %s: Content-Type %q is not application/json", e.URL, e.ContentType)
}

// Unwrap returns [ErrContentType].
func (e *ContentTypeError) Unwrap() error { return ErrContentType }

// Fetch reads one descriptor from rawURL through the options' safefetch
// client (openagent-0.1.md, "Publication and discovery" and "Conformance"):
// the response must be 200 with Content-Type application/json, the body
// must be a valid profile of the supported version ([Parse]; the error is
// then a *[ValidationError] naming the URL), and when
// [FetchOptions].ExpectDID is set its did must equal it (else a
// *[DIDMismatchError]). Network refusals and limits are safefetch's errors,
// wrapped.
//
// Fetch only reads: it never follows the profile's webhook_url, never
// resolves its identities and never launches anything.
func Fetch(ctx context.Context, rawURL string, opts *FetchOptions) (*Record, error) {
	expect := opts.expectDID()
	if expect != "" && !isDID(expect) {
		return nil, fmt.Errorf("openagent: expected did %q is not a LogicSRC identity", expect)
	}
	return get(ctx, opts.client(), rawURL, nil, expect, nil)
}

// Refresh revalidates a cached record with a conditional request
// (If-None-Match with its ETag, If-Modified-Since with its Last-Modified).
// A 304 answer keeps the cached profile and returns a copy of the record
// with Retrieved updated and NotModified set; a 200 answer is read as
// [Fetch] reads it. The did must stay the same: [FetchOptions].ExpectDID
// when set, otherwise the cached profile's did.
func Refresh(ctx context.Context, cached *Record, opts *FetchOptions) (*Record, error) {
	if cached == nil || cached.Profile == nil {
		return nil, errors.New("openagent: refresh of an empty record")
	}
	expect := opts.expectDID()
	if expect == "" {
		expect = cached.Profile.DID
	}
	h := http.Header{}
	if cached.ETag != "" {
		h.Set("If-None-Match", cached.ETag)
	}
	if cached.LastModified != "" {
		h.Set("If-Modified-Since", cached.LastModified)
	}
	return get(ctx, opts.client(), cached.SourceURL, h, expect, cached)
}

func get(ctx context.Context, c *safefetch.Client, rawURL string, h http.Header, expect string, cached *Record) (*Record, error) {
	if h == nil {
		h = http.Header{}
	}
	h.Set("Accept", MediaType)
	resp, err := c.Get(ctx, rawURL, h)
	if err != nil {
		return nil, fmt.Errorf("openagent: fetch %s: %w", rawURL, err)
	}
	now := time.Now()
	if cached != nil && resp.StatusCode == http.StatusNotModified {
		rec := *cached
		rec.Retrieved = now
		rec.NotModified = true
		if et := resp.Header.Get("ETag"); et != "" {
			rec.ETag = et
		}
		if lm := resp.Header.Get("Last-Modified"); lm != "" {
			rec.LastModified = lm
		}
		return &rec, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{URL: rawURL, StatusCode: resp.StatusCode}
	}
	ct := resp.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != MediaType {
		return nil, &ContentTypeError{URL: rawURL, ContentType: ct}
	}
	p, err := Parse(resp.Body)
	if err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			ve.URL = rawURL
			return nil, ve
		}
		return nil, fmt.Errorf("openagent: %s: %w", rawURL, err)
	}
	if expect != "" && p.DID != expect {
		return nil, &DIDMismatchError{URL: rawURL, Expected: expect, Got: p.DID}
	}
	return &Record{
		Profile:      p,
		Body:         resp.Body,
		SourceURL:    rawURL,
		FinalURL:     resp.FinalURL,
		Retrieved:    now,
		ETag:         resp.Header.Get("ETag"),
		LastModified: resp.Header.Get("Last-Modified"),
	}, nil
}
