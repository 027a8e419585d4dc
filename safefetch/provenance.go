package safefetch

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Provenance records where a fetched document came from and when: the one
// retrieval record that every fetched-document type of the module embeds
// (agentic's audit, openagent.Record, linkset.Fetched, agentsignup.Fetched).
// Its JSON form uses the module's casing for result types, snake_case.
//
// A Provenance is also the input of a conditional GET. Give the one kept
// from an earlier fetch as FetchOptions.Previous (or [DocumentRequest]
// Previous). The request then carries If-None-Match and
// If-Modified-Since (RFC 9110 Sections 13.1.2 and 13.1.3). A 304 answer
// keeps the cached document and sets NotModified.
type Provenance struct {
	// URL is the declared URL, as given; never replaced by the final one.
	URL string `json:"url"`
	// FinalURL is the URL of the last hop, after redirects.
	FinalURL string `json:"final_url"`
	// Redirects lists every Location followed, resolved, in order.
	Redirects []string `json:"redirects,omitempty"`
	// StatusCode is the status of the final hop (304 for a revalidation
	// that kept the cached document).
	StatusCode int `json:"status_code"`
	// ContentType is the Content-Type header of the document as served.
	ContentType string `json:"content_type,omitempty"`
	// ETag is the entity tag of the document, as served, or "".
	ETag string `json:"etag,omitempty"`
	// LastModified is the Last-Modified header of the document, as served,
	// or "".
	LastModified string `json:"last_modified,omitempty"`
	// Retrieved is when the response was received.
	Retrieved time.Time `json:"retrieved"`
	// NotModified is true when the server answered 304 to a conditional
	// request: the document is the one of the earlier fetch.
	NotModified bool `json:"not_modified,omitempty"`
}

// Provenance returns the retrieval record of r, retrieved at the end of
// its body read.
func (r *Response) Provenance() Provenance {
	return Provenance{
		URL:          r.URL,
		FinalURL:     r.FinalURL,
		Redirects:    r.Redirects,
		StatusCode:   r.StatusCode,
		ContentType:  r.Header.Get("Content-Type"),
		ETag:         r.Header.Get("ETag"),
		LastModified: r.Header.Get("Last-Modified"),
		Retrieved:    r.Started.Add(r.Elapsed),
		NotModified:  r.StatusCode == http.StatusNotModified,
	}
}

// Conditional adds the validators of p to h for a conditional GET
// (If-None-Match from ETag, If-Modified-Since from LastModified) and
// returns h, allocating it when nil. A nil p leaves h as it is.
func (p *Provenance) Conditional(h http.Header) http.Header {
	if p == nil || (p.ETag == "" && p.LastModified == "") {
		return h
	}
	if h == nil {
		h = http.Header{}
	}
	if p.ETag != "" {
		h.Set("If-None-Match", p.ETag)
	}
	if p.LastModified != "" {
		h.Set("If-Modified-Since", p.LastModified)
	}
	return h
}

// Sentinels of the document layer, wrapped by [StatusError] and
// [ContentTypeError].
var (
	// ErrStatus reports a document answered with a status other than 200
	// (or 304 to a conditional request). The *StatusError that wraps it
	// carries the status.
	ErrStatus = errors.New("safefetch: unexpected status")
	// ErrNotFound is wrapped, besides ErrStatus, by a StatusError for 404
	// or 410: the document is not published.
	ErrNotFound = errors.New("safefetch: not found")
	// ErrContentType reports a document served with a media type the
	// caller does not accept. The *ContentTypeError that wraps it carries
	// both.
	ErrContentType = errors.New("safefetch: unexpected content type")
)

// StatusError reports a document answered with an unexpected status. It
// wraps [ErrStatus], and [ErrNotFound] for 404 and 410.
type StatusError struct {
	// URL is the declared URL of the request.
	URL string
	// StatusCode is the status of the final hop.
	StatusCode int
}

// Error returns "safefetch: <url>: unexpected status N".
func (e *StatusError) Error() string {
	return "safefetch: " + e.URL + ": unexpected status " + strconv.Itoa(e.StatusCode)
}

// Unwrap returns [ErrStatus], and [ErrNotFound] for 404 and 410.
func (e *StatusError) Unwrap() []error {
	if e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusGone {
		return []error{ErrStatus, ErrNotFound}
	}
	return []error{ErrStatus}
}

// ContentTypeError reports a document whose Content-Type the caller does
// not accept. It wraps [ErrContentType].
type ContentTypeError struct {
	// URL is the declared URL of the request.
	URL string
	// Got is the Content-Type header as served ("" when absent).
	Got string
	// Want lists the media types the caller accepts.
	Want []string
}

// Error returns "safefetch: <url>: content type "got", want a or b".
func (e *ContentTypeError) Error() string {
	return "safefetch: " + e.URL + ": content type " + strconv.Quote(e.Got) + ", want " + strings.Join(e.Want, " or ")
}

// Unwrap returns [ErrContentType].
func (e *ContentTypeError) Unwrap() error { return ErrContentType }

// DocumentRequest describes one document fetch of [Client.GetDocument]. The
// zero value asks for any media type with no validators.
type DocumentRequest struct {
	// Accept is sent as the Accept header when not "".
	Accept string
	// MediaTypes lists the media types accepted, compared with the
	// essence of Content-Type (type/subtype, lower-case, parameters
	// ignored). An entry that starts with "+" accepts any type with that
	// structured-syntax suffix (RFC 6838 Section 4.2.8), such as "+json".
	// Empty accepts any media type.
	MediaTypes []string
	// Previous makes the request conditional (see [Provenance]).
	Previous *Provenance
	// Header is added to the request (it may be nil).
	Header http.Header
	// MaxBodyBytes bounds the body; 0 means the Client's MaxBodyBytes.
	MaxBodyBytes int64
}

// GetDocument fetches one document under the module's one protocol: GET
// with Accept and the validators of Previous. A 200 is the document. A
// 304 to a conditional request keeps the previous one: the returned
// Provenance has NotModified set, and the previous validators where the
// 304 omits them. Any other status is a *StatusError. A media type not in
// MediaTypes is a *ContentTypeError. The Response is returned with every
// error it was read for, as evidence.
func (c *Client) GetDocument(ctx context.Context, rawURL string, req *DocumentRequest) (*Response, Provenance, error) {
	if req == nil {
		req = &DocumentRequest{}
	}
	h := req.Header.Clone()
	if req.Accept != "" {
		if h == nil {
			h = http.Header{}
		}
		h.Set("Accept", req.Accept)
	}
	h = req.Previous.Conditional(h)
	resp, err := c.Do(ctx, &Request{Method: http.MethodGet, URL: rawURL, Header: h, MaxBodyBytes: req.MaxBodyBytes})
	if err != nil {
		return resp, Provenance{URL: rawURL}, err
	}
	p := resp.Provenance()
	switch {
	case resp.StatusCode == http.StatusNotModified && req.Previous != nil:
		if p.ETag == "" {
			p.ETag = req.Previous.ETag
		}
		if p.LastModified == "" {
			p.LastModified = req.Previous.LastModified
		}
		if p.ContentType == "" {
			p.ContentType = req.Previous.ContentType
		}
		return resp, p, nil
	case resp.StatusCode != http.StatusOK:
		return resp, p, &StatusError{URL: rawURL, StatusCode: resp.StatusCode}
	}
	if len(req.MediaTypes) > 0 && !MediaTypeIs(p.ContentType, req.MediaTypes...) {
		return resp, p, &ContentTypeError{URL: rawURL, Got: p.ContentType, Want: req.MediaTypes}
	}
	return resp, p, nil
}

// MediaTypeIs reports whether the essence of the Content-Type value ct is
// one of want (an entry that starts with "+" matches a structured-syntax
// suffix). A value that does not parse matches nothing.
func MediaTypeIs(ct string, want ...string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	for _, w := range want {
		if strings.HasPrefix(w, "+") {
			if strings.HasSuffix(mt, w) && strings.Contains(mt, "/") {
				return true
			}
		} else if mt == strings.ToLower(w) {
			return true
		}
	}
	return false
}
