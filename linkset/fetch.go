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
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// FetchOptions configures [Fetch] and [Discover]. The zero value is safe.
type FetchOptions struct {
	// Client makes the requests; nil means safefetch.Default(), the
	// module's shared client. Development mode (http to loopback, Section
	// 7.1) is only available through a client built with
	// safefetch.Options.AllowLoopback.
	Client *safefetch.Client
	// Previous, the Provenance of an earlier retrieval, makes the request
	// conditional with its ETag and Last-Modified (Section 3.2: a client
	// SHOULD). A 304 answer yields a Fetched whose NotModified is set and
	// whose Document, Body and Report are nil: the caller keeps the
	// document it has.
	Previous *safefetch.Provenance
	// Mode is the mode the document is evaluated in; the zero value,
	// ModeReader, reads as a consuming client must. A publisher checking
	// its own node uses ModePublisher (or ModeStrict).
	Mode Mode
	// Now is the clock of the retrieval time (Provenance.Retrieved); nil
	// means the time the response arrived.
	Now func() time.Time
}

// Fetched is a retrieved discovery document with the evidence of its
// retrieval. Its content comes from Origin and is untrusted data (Section
// 7.3): it names no instruction to follow.
type Fetched struct {
	// Provenance is the retrieval record: the declared URL (never replaced
	// by the final one, Section 7.1), the final URL and redirects, the
	// status, media type and validators, and the retrieval time.
	safefetch.Provenance
	// Origin is the origin of URL, the label every derived datum carries.
	Origin string `json:"origin"`
	// ProfileInMediaType and ProfileInLink say where the profile URI was
	// found: the profile parameter of Content-Type, a Link header field
	// with rel="profile", both, or neither (Section 3.1).
	ProfileInMediaType bool `json:"profile_in_media_type"`
	ProfileInLink      bool `json:"profile_in_link"`
	// Body is the document's bytes (at most one mebibyte, Section 7.1).
	Body []byte `json:"-"`
	// Document is the parsed document, nil when the bytes are not a link
	// set or when NotModified.
	Document *Document `json:"-"`
	// Report holds the form, the problems of the document and of its
	// retrieval (media type, profile, caching and CORS headers, anchor
	// origin), and the notices. Nil when NotModified.
	Report *Report `json:"report,omitempty"`

	// client is the client the user gave the fetch (nil: the default),
	// which Verify uses when its own options name none.
	client *safefetch.Client
}

// Fetch retrieves and checks the discovery document at rawURL (normally an
// origin's https://host/.well-known/knowledge-linkset) through safefetch,
// reading at most one mebibyte ([knowledge-linkset draft], Section 7.1). The
// received media type decides, not any type attribute that pointed here
// (Section 4.3). The profile is accepted from the media type parameter or a
// Link header field, and the result is the same either way (Section 3.1).
//
// A refused URL or address, a network failure, a body over the bound
// (safefetch.ErrTooLarge) or a status other than 200 (and 304 to a
// conditional request) is an error. For a status it is a
// *safefetch.StatusError. The Fetched is returned with the error whenever
// a response was received. A document that is not conformant in opts.Mode
// is a *ValidationError (errors.Is(err, ErrInvalid)) listing
// Fetched.Report.Problems. It is returned with the Fetched, whose Report
// also holds the form and the notices. Every spec package of this module
// gives that answer for an invalid document. rawURL is exactly the
// document's URL.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func Fetch(ctx context.Context, rawURL string, opts *FetchOptions) (*Fetched, error) {
	if opts == nil {
		opts = &FetchOptions{}
	}
	return asInvalid(fetchWith(ctx, opts.client(), rawURL, opts))
}

// client is the Client of Fetch and Discover: o.Client, or
// safefetch.Default() when it is nil.
func (o *FetchOptions) client() *safefetch.Client { return safefetch.OrDefault(o.Client) }

// asInvalid turns a fetched document with problems into the error every
// spec package returns for an invalid document, the Fetched kept.
func asInvalid(f *Fetched, err error) (*Fetched, error) {
	if err == nil && f != nil && f.Report != nil && len(f.Report.Problems) > 0 {
		return f, invalid(f.Report.Problems).WithSource(f.URL)
	}
	return f, err
}

func fetchWith(ctx context.Context, c *safefetch.Client, rawURL string, opts *FetchOptions) (*Fetched, error) {
	resp, prov, err := c.GetDocument(ctx, rawURL, &safefetch.DocumentRequest{
		Accept:       MediaType + ", application/json;q=0.5",
		Previous:     opts.Previous,
		MaxBodyBytes: maxDocumentBytes,
	})
	if resp == nil {
		return nil, fmt.Errorf("linkset: fetching %s: %w", weburl.Redact(rawURL), err)
	}
	if opts.Now != nil {
		prov.Retrieved = opts.Now()
	}
	f := &Fetched{Provenance: prov, client: opts.Client}
	if u, perr := url.Parse(rawURL); perr == nil {
		f.Origin, _ = weburl.Origin(u)
	}
	if err != nil {
		var se *safefetch.StatusError
		if errors.As(err, &se) {
			return f, err
		}
		return f, fmt.Errorf("linkset: fetching %s: %w", weburl.Redact(rawURL), err)
	}
	if f.NotModified {
		return f, nil
	}
	f.Body = resp.Body
	f.ProfileInMediaType, f.ProfileInLink = profileCarriage(resp.Header, resp.FinalURL)
	d, r := evaluateBytes(resp.Body, opts.Mode)
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
func profileCarriage(h http.Header, base string) (inType, inLink bool) {
	if _, params, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil {
		inType = slices.Contains(strings.Fields(params["profile"]), ProfileURI)
	}
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
	return inType, inLink
}

// retrievalProblems checks what Sections 3.1 to 3.3 ask of the response and
// that the anchor is the Bundle IRI of the origin that served it (Section 2).
func retrievalProblems(ps *problems, h http.Header, f *Fetched, mode Mode) {
	mt, _, err := mime.ParseMediaType(f.ContentType)
	if err != nil || !strings.EqualFold(mt, MediaType) {
		ps.add("", RuleMediaType, "3.1", "the response's media type is %q, not %s (a type attribute that pointed here is only a hint)", shorten.Bytes(f.ContentType, 80), MediaType)
	}
	if !f.ProfileInMediaType && !f.ProfileInLink {
		ps.add("", RuleProfileMissing, "3.1", "the profile %s is carried neither as the media type's profile parameter nor in a Link header field with rel=\"profile\"", ProfileURI)
	}
	// The headers a node sends (Sections 3.2 and 3.3) are the node's
	// obligations; a reading client notes their absence.
	report := ps.add
	if mode == ModeReader {
		report = ps.note
	}
	if f.ETag == "" {
		report("", RuleETagMissing, "3.2", "the response carries no ETag")
	}
	// A node writes its Link header fields (the profile's carrier, Section
	// 3.1) by the grammar of RFC 8288 Section 3; a client reads them as
	// RFC 8288 Appendix B does, whatever they hold.
	if _, err := linkheader.ParseStrict(h.Values("Link"), nil); errors.Is(err, linkheader.ErrMalformed) {
		report("", RuleLinkHeaderSyntax, "3.1", "a Link header field does not follow RFC 8288 section 3: %s", shorten.Bytes(strings.TrimPrefix(err.Error(), "linkheader: "), 200))
	}
	if !hasDirective(h.Values("Cache-Control"), "no-cache") {
		report("", RuleCacheControl, "3.2", "the response does not carry Cache-Control: no-cache")
	}
	if h.Get("Access-Control-Allow-Origin") != "*" {
		report("", RuleCORSAllowOrigin, "3.3", "the response does not carry Access-Control-Allow-Origin: *")
	}
	exposed := map[string]bool{}
	for _, v := range h.Values("Access-Control-Expose-Headers") {
		for _, name := range strings.Split(v, ",") {
			exposed[strings.ToLower(strings.TrimSpace(name))] = true
		}
	}
	if !exposed["*"] && !(exposed["link"] && exposed["etag"] && exposed["content-type"]) {
		report("", RuleCORSExposeHeaders, "3.3", "Access-Control-Expose-Headers does not name Link, ETag and Content-Type")
	}
	if len(h.Values("Access-Control-Allow-Credentials")) > 0 {
		report("", RuleCORSCredentials, "3.3", "the response carries Access-Control-Allow-Credentials")
	}
	if f.Document == nil || f.Origin == "" {
		return
	}
	if c := f.Document.Bundle(); c != nil && !c.NoAnchor && isBundleIRI(c.Anchor) {
		u, err := url.Parse(c.Anchor)
		if o, oerr := weburl.Origin(u); err != nil || oerr != nil || o != f.Origin {
			ps.add("/linkset/"+fmt.Sprint(f.Document.bundleIndex())+"/anchor", RuleAnchorOrigin, "4.1", "the anchor %q is not the Bundle IRI of %s, the origin that served the document", shorten.Bytes(c.Anchor, 120), f.Origin)
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
