package openagent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// FetchOptions configure [Fetch], [Discover] and [Discovery.Fetch]. The zero
// value, and a nil pointer, are safe: the shared default safefetch client, no
// identity expectation, an unconditional request and the system clock.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type FetchOptions struct {
	// Client performs every request; nil means safefetch.Default(), never
	// http.DefaultClient. Its byte, redirect, time and budget limits apply.
	Client *safefetch.Client
	// ExpectDID is the identity a listing, directory or rental member
	// supplied for the descriptor. When set, a profile whose did differs is
	// refused with a *[DIDMismatchError] ([OpenAgent 0.1], "Publication and
	// discovery": "A mismatch is an error, not an automatic rename").
	ExpectDID string
	// Previous is the provenance of an earlier fetch of the same URL (the
	// Provenance of its [Record]). When set, the request is conditional:
	// If-None-Match with its ETag, If-Modified-Since with its
	// Last-Modified. A 304 answer returns a Record with NotModified set,
	// the new provenance and no profile. The caller keeps the profile it
	// cached, whose did was checked when it was fetched.
	Previous *safefetch.Provenance
	// Now is the clock of the records' and the discovery's retrieval
	// times; nil means the time the response arrived.
	Now func() time.Time
}

func (o *FetchOptions) client() *safefetch.Client {
	if o == nil {
		return safefetch.Default()
	}
	return safefetch.OrDefault(o.Client)
}

func (o *FetchOptions) expectDID() string {
	if o == nil {
		return ""
	}
	return o.ExpectDID
}

func (o *FetchOptions) previous() *safefetch.Provenance {
	if o == nil {
		return nil
	}
	return o.Previous
}

// now returns the clock's time, or fallback when there is no clock.
func (o *FetchOptions) now(fallback time.Time) time.Time {
	if o == nil || o.Now == nil {
		return fallback
	}
	return o.Now()
}

// Sentinel errors of the network side. An unexpected status is a
// *safefetch.StatusError and a media type other than application/json a
// *safefetch.ContentTypeError, as in every package of this module.
var (
	// ErrDIDMismatch is wrapped by *[DIDMismatchError].
	ErrDIDMismatch = errors.New("openagent: did mismatch")
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

// Error names both identities and the descriptor URL.
func (e *DIDMismatchError) Error() string {
	return fmt.Sprintf("openagent: did mismatch: expected %q, descriptor %s says %q", e.Expected, e.URL, e.Got)
}

// Unwrap returns [ErrDIDMismatch].
func (e *DIDMismatchError) Unwrap() error { return ErrDIDMismatch }

// Fetch reads one descriptor from rawURL through the options' safefetch
// client ([OpenAgent 0.1], "Publication and discovery" and "Conformance").
// The response must be 200 with Content-Type application/json, else a
// *safefetch.StatusError or *safefetch.ContentTypeError, wrapped. The body
// must be a valid profile of the supported version ([Parse]). Else the
// error is a *[ValidationError] whose Source is the URL. It is returned
// with the Record, which has the provenance and the Body but no Profile.
// When [FetchOptions].ExpectDID is set, the did must equal it, else the
// error is a *[DIDMismatchError]. With [FetchOptions].Previous the request
// is conditional and a 304 answer is a Record with NotModified set. Network
// refusals and limits are safefetch's errors, wrapped.
//
// Fetch only reads: it never follows the profile's webhook_url, never
// resolves its identities and never launches anything.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func Fetch(ctx context.Context, rawURL string, opts *FetchOptions) (*Record, error) {
	expect := opts.expectDID()
	if expect != "" && !isDID(expect) {
		return nil, fmt.Errorf("openagent: expected did %q is not a LogicSRC identity", expect)
	}
	rec, err := get(ctx, opts.client(), rawURL, opts)
	if err != nil {
		if problem.As(err) != nil {
			return rec, err // an invalid profile comes with what was read
		}
		return nil, err
	}
	if err := checkDID(rec, rawURL, expect); err != nil {
		return nil, err
	}
	return rec, nil
}

// get fetches and parses one descriptor, without the identity check.
func get(ctx context.Context, c *safefetch.Client, rawURL string, opts *FetchOptions) (*Record, error) {
	resp, prov, err := c.GetDocument(ctx, rawURL, &safefetch.DocumentRequest{
		Accept:     MediaType,
		MediaTypes: []string{MediaType},
		Previous:   opts.previous(),
	})
	if err != nil {
		return nil, fmt.Errorf("openagent: fetch %s: %w", weburl.Redact(rawURL), err)
	}
	prov.Retrieved = opts.now(prov.Retrieved)
	rec := &Record{Provenance: prov}
	if prov.NotModified {
		return rec, nil
	}
	p, err := Parse(resp.Body)
	if err != nil {
		if ve := problem.As(err); ve != nil {
			rec.Body = resp.Body
			return rec, ve.WithSource(rawURL)
		}
		return nil, fmt.Errorf("openagent: %s: %w", weburl.Redact(rawURL), err)
	}
	rec.Profile, rec.Body = p, resp.Body
	return rec, nil
}

// checkDID applies [FetchOptions].ExpectDID to a fetched record.
func checkDID(rec *Record, rawURL, expect string) error {
	if expect != "" && rec.Profile != nil && rec.Profile.DID != expect {
		return &DIDMismatchError{URL: rawURL, Expected: expect, Got: rec.Profile.DID}
	}
	return nil
}
