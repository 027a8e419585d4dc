package linkset

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// ErrStatus is wrapped by every *StatusError.
var ErrStatus = errors.New("linkset: non-2xx status")

// StatusError reports a discovery document answered with a status other
// than 2xx (or 304 to a conditional request).
type StatusError struct {
	URL        string
	StatusCode int
}

// Error describes the status.
func (e *StatusError) Error() string {
	return fmt.Sprintf("linkset: %s answered %d %s", e.URL, e.StatusCode, http.StatusText(e.StatusCode))
}

// Unwrap returns ErrStatus.
func (e *StatusError) Unwrap() error { return ErrStatus }

// FetchOptions configures [Fetch]. The zero value is safe.
type FetchOptions struct {
	// Client makes the request; nil means safefetch.New(nil). Development
	// mode (http to loopback, Section 7.1) is only available through a
	// client built with safefetch.Options.AllowLoopback.
	Client *safefetch.Client
	// ETag and LastModified, from an earlier retrieval, make the request
	// conditional (Section 3.2: a client SHOULD). A 304 answer yields a
	// Fetched with NotModified set and no Document.
	ETag         string
	LastModified string
	// Mode is the mode the document is evaluated in; the zero value,
	// Publisher, checks everything a node must do. A consuming client uses
	// Reader.
	Mode Mode
}

// ProfileCarriage says how a response carried the profile URI (Section 3.1).
type ProfileCarriage string

const (
	ProfileNone      ProfileCarriage = ""            // neither: the profile is missing
	ProfileMediaType ProfileCarriage = "media-type"  // the profile parameter of Content-Type
	ProfileLink      ProfileCarriage = "link-header" // a Link header field with rel="profile"
	ProfileBoth      ProfileCarriage = "both"
)

// Fetched is a retrieved discovery document with the evidence of its
// retrieval. Its content comes from Origin and is untrusted data (Section
// 7.3): it names no instruction to follow.
type Fetched struct {
	// URL is the declared URL; FinalURL is where redirects led (never
	// substituted for URL, Section 7.1).
	URL      string `json:"url"`
	FinalURL string `json:"final_url"`
	// Origin is the origin of URL, the label every derived datum carries.
	Origin string `json:"origin"`
	// Retrieved is when the request started.
	Retrieved time.Time `json:"retrieved"`
	// StatusCode of the final hop; Redirects lists every Location followed.
	StatusCode int      `json:"status"`
	Redirects  []string `json:"redirects,omitempty"`
	// NotModified is set when a conditional request was answered 304.
	NotModified bool `json:"not_modified,omitempty"`
	// Validators and media type as received.
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	ContentType  string `json:"content_type,omitempty"`
	// Profile says where the profile URI was found.
	Profile ProfileCarriage `json:"profile"`
	// Body is the document's bytes (at most MaxDocumentBytes).
	Body []byte `json:"-"`
	// Document is the parsed document, nil when the bytes are not a link set.
	Document *Document `json:"-"`
	// Report holds the form, the problems of the document and of its
	// retrieval (media type, profile, caching and CORS headers, anchor
	// origin), and the notices. Nil when NotModified.
	Report *Report `json:"report,omitempty"`
	// Artefacts holds the digest state of every artefact link once
	// [Fetched.Verify] has retrieved them; nil before.
	Artefacts []ArtefactState `json:"artefacts,omitempty"`
}

// Conformant reports whether the retrieval produced a conformant document.
func (f *Fetched) Conformant() bool { return f.Report != nil && f.Report.Conformant() }

func clientOf(c *safefetch.Client) *safefetch.Client {
	if c == nil {
		return safefetch.New(nil)
	}
	return c
}

// Fetch retrieves and checks the discovery document at rawURL (normally an
// origin's https://host/.well-known/knowledge-linkset) through safefetch,
// reading at most MaxDocumentBytes (Section 7.1). The received media type
// decides, not any type attribute that pointed here (Section 4.3); the
// profile is accepted from the media type parameter or a Link header field,
// and the result is the same either way (Section 3.1).
//
// A refused URL or address, a network failure, a body over the bound
// (safefetch.ErrTooLarge) or a non-2xx status (*StatusError) is an error;
// the Fetched is returned with the error whenever a response was received.
// A non-conformant document is not an error: see Fetched.Report.
func Fetch(ctx context.Context, rawURL string, opts *FetchOptions) (*Fetched, error) {
	if opts == nil {
		opts = &FetchOptions{}
	}
	c := clientOf(opts.Client)
	return fetchWith(ctx, c, rawURL, opts)
}

func fetchWith(ctx context.Context, c *safefetch.Client, rawURL string, opts *FetchOptions) (*Fetched, error) {
	h := http.Header{"Accept": {MediaType + ", application/json;q=0.5"}}
	if opts.ETag != "" {
		h.Set("If-None-Match", opts.ETag)
	}
	if opts.LastModified != "" {
		h.Set("If-Modified-Since", opts.LastModified)
	}
	resp, err := c.Do(ctx, &safefetch.Request{Method: http.MethodGet, URL: rawURL, Header: h, MaxBodyBytes: MaxDocumentBytes})
	if resp == nil {
		return nil, fmt.Errorf("linkset: fetching %s: %w", rawURL, err)
	}
	f := &Fetched{
		URL: rawURL, FinalURL: resp.FinalURL, Retrieved: resp.Started, StatusCode: resp.StatusCode,
		Redirects: resp.Redirects, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		ContentType: resp.Header.Get("Content-Type"),
	}
	if u, perr := url.Parse(rawURL); perr == nil {
		f.Origin, _ = weburl.Origin(u)
	}
	if err != nil {
		return f, fmt.Errorf("linkset: fetching %s: %w", rawURL, err)
	}
	if resp.StatusCode == http.StatusNotModified && (opts.ETag != "" || opts.LastModified != "") {
		f.NotModified = true
		return f, nil
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return f, &StatusError{URL: rawURL, StatusCode: resp.StatusCode}
	}
	f.Body = resp.Body
	f.Profile = profileCarriage(resp.Header, resp.FinalURL)
	d, r := Validate(resp.Body, opts.Mode)
	f.Document = d
	var ps problems
	retrievalProblems(&ps, resp.Header, f, opts.Mode)
	r.Problems = nonNil(append(ps.errs, r.Problems...))
	r.Notices = nonNil(append(ps.notes, r.Notices...))
	if len(r.Problems) > 0 {
		r.Form = FormNotConformant
	}
	f.Report = r
	return f, nil
}

// profileCarriage finds the profile URI on the media type or in a Link
// header field (Section 3.1).
func profileCarriage(h http.Header, base string) ProfileCarriage {
	inType := false
	if _, params, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil {
		inType = slices.Contains(strings.Fields(params["profile"]), ProfileURI)
	}
	inLink := false
	var baseURL *url.URL
	if u, err := url.Parse(base); err == nil {
		baseURL = u
	}
	if links, err := linkheader.Parse(h.Values("Link"), baseURL); err == nil {
		for _, l := range links {
			if l.HasRel("profile") && l.Target == ProfileURI {
				inLink = true
			}
		}
	}
	switch {
	case inType && inLink:
		return ProfileBoth
	case inType:
		return ProfileMediaType
	case inLink:
		return ProfileLink
	}
	return ProfileNone
}

// retrievalProblems checks what Sections 3.1 to 3.3 ask of the response and
// that the anchor is the Bundle IRI of the origin that served it (Section 2).
func retrievalProblems(ps *problems, h http.Header, f *Fetched, mode Mode) {
	mt, _, err := mime.ParseMediaType(f.ContentType)
	if err != nil || !strings.EqualFold(mt, MediaType) {
		ps.add("", "media-type", "3.1", "the response's media type is %q, not %s (a type attribute that pointed here is only a hint)", truncate(f.ContentType, 80), MediaType)
	}
	if f.Profile == ProfileNone {
		ps.add("", "profile-missing", "3.1", "the profile %s is carried neither as the media type's profile parameter nor in a Link header field with rel=\"profile\"", ProfileURI)
	}
	// The headers a node sends (Sections 3.2 and 3.3) are the node's
	// obligations; a reading client notes their absence.
	report := ps.add
	if mode == Reader {
		report = ps.note
	}
	if f.ETag == "" {
		report("", "etag-missing", "3.2", "the response carries no ETag")
	}
	if !hasDirective(h.Values("Cache-Control"), "no-cache") {
		report("", "cache-control", "3.2", "the response does not carry Cache-Control: no-cache")
	}
	if h.Get("Access-Control-Allow-Origin") != "*" {
		report("", "cors-allow-origin", "3.3", "the response does not carry Access-Control-Allow-Origin: *")
	}
	exposed := map[string]bool{}
	for _, v := range h.Values("Access-Control-Expose-Headers") {
		for _, name := range strings.Split(v, ",") {
			exposed[strings.ToLower(strings.TrimSpace(name))] = true
		}
	}
	if !exposed["*"] && !(exposed["link"] && exposed["etag"] && exposed["content-type"]) {
		report("", "cors-expose-headers", "3.3", "Access-Control-Expose-Headers does not name Link, ETag and Content-Type")
	}
	if len(h.Values("Access-Control-Allow-Credentials")) > 0 {
		report("", "cors-credentials", "3.3", "the response carries Access-Control-Allow-Credentials")
	}
	if f.Document == nil || f.Origin == "" {
		return
	}
	if c := f.Document.Bundle(); c != nil && !c.NoAnchor && isBundleIRI(c.Anchor) {
		u, err := url.Parse(c.Anchor)
		if o, oerr := weburl.Origin(u); err != nil || oerr != nil || o != f.Origin {
			ps.add("/linkset/"+fmt.Sprint(f.Document.bundleIndex())+"/anchor", "anchor-origin", "4.1", "the anchor %q is not the Bundle IRI of %s, the origin that served the document", truncate(c.Anchor, 120), f.Origin)
		}
	}
}

func hasDirective(values []string, want string) bool {
	for _, v := range values {
		for _, d := range strings.Split(v, ",") {
			d = strings.TrimSpace(d)
			if i := strings.IndexByte(d, '='); i >= 0 {
				d = d[:i]
			}
			if strings.EqualFold(d, want) {
				return true
			}
		}
	}
	return false
}
