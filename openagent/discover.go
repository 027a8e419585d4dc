package openagent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/htmlhead"
	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// Mechanism names how a descriptor was advertised ([OpenAgent 0.1],
// "Publication and discovery").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type Mechanism string

const (
	// MechanismWellKnown is the origin's /.well-known/openagent.json.
	MechanismWellKnown Mechanism = "well-known"
	// MechanismLinkElement is a <link rel="openagent"
	// type="application/json"> in the page.
	MechanismLinkElement Mechanism = "link-element"
	// MechanismLinkHeader is a Link header with rel="openagent" on the
	// page's response.
	MechanismLinkHeader Mechanism = "link-header"
)

// maxDescriptors bounds how many advertised descriptors [Discover] keeps
// from one page (links beyond it are reported as skipped).
const maxDescriptors = 64

// Descriptor is one advertised descriptor URL and where it came from.
// A descriptor on another host is allowed; its ownership claims are verified
// separately, and the source is kept for that ([OpenAgent 0.1],
// "Publication and discovery").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type Descriptor struct {
	// URL is the absolute descriptor URL, resolved against the page or
	// response URL.
	URL string `json:"url"`
	// Via is the mechanism that advertised it.
	Via Mechanism `json:"via"`
	// Source is the URL of the page or response that advertised it; for
	// MechanismWellKnown, the well-known URL itself.
	Source string `json:"source"`
	// CrossHost is true when URL's host differs from Source's host.
	CrossHost bool `json:"cross_host,omitempty"`
}

// Skipped is an advertisement [Discover] did not keep, with the reason.
type Skipped struct {
	Href   string    `json:"href"`
	Via    Mechanism `json:"via"`
	Source string    `json:"source"`
	Reason string    `json:"reason"`
}

// RequestFailure is a request of [Discover] that did not complete.
type RequestFailure struct {
	URL   string `json:"url"`
	Error string `json:"error"`
	err   error
}

// Err returns the underlying error, for errors.Is and errors.As (a
// *safefetch.StatusError for a page that answered with an error status;
// safefetch's errors for refusals and network failures).
func (f RequestFailure) Err() error { return f.err }

// Discovery is the result of [Discover]: every advertised descriptor with
// its mechanism and source, the advertisements it skipped and the requests
// that failed. It also keeps the well-known descriptor it read, so that
// [Discovery.Fetch] does not request it again.
type Discovery struct {
	// PageURL is the page as given, normalized (lower-case scheme and host,
	// IDNA A-labels, no trailing dot, no default port, no fragment);
	// FinalURL is where it was answered from.
	PageURL  string `json:"page_url"`
	FinalURL string `json:"final_url,omitempty"`
	// Descriptors are in this order: the well-known descriptor, then the
	// page's <link> elements, then its Link headers, each in document
	// order. A URL advertised by several mechanisms appears once for each.
	Descriptors []Descriptor `json:"descriptors"`
	// Skipped lists advertisements that were refused (not HTTPS, refused
	// by safefetch.CheckURL, another media type, over maxDescriptors...).
	Skipped []Skipped `json:"skipped,omitempty"`
	// Failures lists the page or well-known requests that failed.
	Failures []RequestFailure `json:"failures,omitempty"`
	// Retrieved is when discovery finished ([FetchOptions].Now when set).
	Retrieved time.Time `json:"retrieved"`

	// wellKnown is the result of reading the well-known descriptor, kept
	// for Fetch: the record, or the error Fetch would return.
	wellKnown    *Record
	wellKnownErr error
	// wellKnownStatus is the well-known URL's 4xx, when it answered one.
	wellKnownStatus *safefetch.StatusError
	// client is the FetchOptions.Client Discover was given, which Fetch
	// uses when its own options name none.
	client *safefetch.Client
}

// Fetch reads the descriptor at rawURL as [Fetch] does, except that the
// well-known descriptor, which [Discover] has already read, is not requested
// again. Its record, or its error (an invalid profile, a wrong media type),
// is returned as it was read, with [FetchOptions].ExpectDID applied. With
// [FetchOptions].Previous set, or for any other URL, it is [Fetch]. When
// opts (or its Client) is nil, the request is made with the client Discover
// was given, not safefetch.Default().
func (d *Discovery) Fetch(ctx context.Context, rawURL string, opts *FetchOptions) (*Record, error) {
	if d != nil && d.client != nil && (opts == nil || opts.Client == nil) {
		o := FetchOptions{}
		if opts != nil {
			o = *opts
		}
		o.Client = d.client
		opts = &o
	}
	if d == nil || opts.previous() != nil || (d.wellKnown == nil && d.wellKnownErr == nil) ||
		len(d.Descriptors) == 0 || d.Descriptors[0].Via != MechanismWellKnown || d.Descriptors[0].URL != rawURL {
		return Fetch(ctx, rawURL, opts)
	}
	expect := opts.expectDID()
	if expect != "" && !isDID(expect) {
		return nil, fmt.Errorf("openagent: expected did %q is not a LogicSRC identity", expect)
	}
	if d.wellKnownErr != nil {
		if d.wellKnown == nil {
			return nil, d.wellKnownErr
		}
		rec := *d.wellKnown
		rec.Body = bytes.Clone(d.wellKnown.Body)
		return &rec, d.wellKnownErr // an invalid profile comes with what was read
	}
	rec := *d.wellKnown
	rec.Profile = d.wellKnown.Profile.Clone()
	rec.Body = bytes.Clone(d.wellKnown.Body)
	if err := checkDID(&rec, rawURL, expect); err != nil {
		return nil, err
	}
	return &rec, nil
}

// URLs returns the distinct descriptor URLs in the order of Descriptors.
func (d *Discovery) URLs() []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range d.Descriptors {
		if !seen[x.URL] {
			seen[x.URL] = true
			out = append(out, x.URL)
		}
	}
	return out
}

// Discover finds the descriptors advertised for pageURL by the three
// mechanisms of [OpenAgent 0.1], "Publication and discovery". They are the
// origin's /.well-known/openagent.json, and <link rel="openagent"
// type="application/json" href> elements in the page. The third is the
// equivalent Link header on the page's response. Relative references are
// resolved against the page (its <base>, else its final URL) or the response
// URL. Descriptors on other hosts are kept and marked CrossHost; at most 64
// are kept from one page, and the rest are reported as skipped.
// [Discovery.URLs] lists the distinct URLs.
//
// Discover fetches the well-known URL and the page and nothing else. It
// reads the well-known descriptor fully, so that [Discovery.Fetch] returns
// it without a second request; the other descriptors are neither fetched nor
// validated (see [Fetch]). A page or well-known request that fails is a
// [RequestFailure] in the result. The error is non-nil when pageURL is
// refused or ctx ends; the Discovery is then nil. It is also non-nil when no
// descriptor is found. The Discovery is then returned with an error that
// wraps [ErrNoDescriptor], the well-known URL's *safefetch.StatusError and
// every request failure. So errors.Is finds safefetch.ErrNotFound when it
// answered 404 or 410, as in every spec package for nothing published.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func Discover(ctx context.Context, pageURL string, opts *FetchOptions) (*Discovery, error) {
	d, err := discover(ctx, pageURL, opts)
	if err != nil {
		return nil, err
	}
	if len(d.Descriptors) == 0 {
		errs := []error{ErrNoDescriptor}
		if d.wellKnownStatus != nil {
			errs = append(errs, d.wellKnownStatus)
		}
		for _, f := range d.Failures {
			errs = append(errs, f.err)
		}
		return d, errors.Join(errs...)
	}
	return d, nil
}

func discover(ctx context.Context, pageURL string, opts *FetchOptions) (*Discovery, error) {
	c := opts.client()
	// The page URL is normalized (scheme and host case, default port,
	// trailing dot) before any origin or host is compared with it.
	norm, err := safefetch.NormalizeURL(pageURL, c.AllowsLoopback())
	if err != nil {
		return nil, fmt.Errorf("openagent: page URL: %w", err)
	}
	page, err := url.Parse(norm)
	if err != nil {
		return nil, fmt.Errorf("openagent: page URL: %w", err)
	}
	pageURL = norm
	d := &Discovery{PageURL: pageURL, Descriptors: []Descriptor{}}
	if opts != nil {
		d.client = opts.Client
	}

	// 1. The origin's well-known descriptor.
	wk := (&url.URL{Scheme: page.Scheme, Host: page.Host, Path: WellKnownPath}).String()
	rec, err := get(ctx, c, wk, &FetchOptions{Now: nowOf(opts)})
	var se *safefetch.StatusError
	var ce *safefetch.ContentTypeError
	var ve *ValidationError
	switch {
	case err == nil:
		d.Descriptors = append(d.Descriptors, Descriptor{URL: wk, Via: MechanismWellKnown, Source: wk})
		d.wellKnown = rec
	case errors.As(err, &ce):
		d.Skipped = append(d.Skipped, Skipped{Href: wk, Via: MechanismWellKnown, Source: wk,
			Reason: fmt.Sprintf("served as %q, not application/json", ce.Got)})
	case errors.As(err, &ve):
		// Served as a descriptor: listed, and Fetch returns its problems.
		d.Descriptors = append(d.Descriptors, Descriptor{URL: wk, Via: MechanismWellKnown, Source: wk})
		d.wellKnown, d.wellKnownErr = rec, err
	case errors.As(err, &se) && se.StatusCode < 500:
		// 404 and other client errors mean "not published here"; the
		// status travels in the error when nothing is found elsewhere.
		d.wellKnownStatus = se
	case errors.As(err, &se):
		// A server error means the answer is unknown, and is reported.
		d.Failures = append(d.Failures, RequestFailure{URL: wk, Error: fmt.Sprintf("HTTP status %d", se.StatusCode), err: se})
	default:
		d.Failures = append(d.Failures, RequestFailure{URL: wk, Error: err.Error(), err: err})
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("openagent: discover: %w", err)
	}

	// 2 and 3. The page: its <link> elements and its Link headers.
	resp, err := c.Get(ctx, pageURL, http.Header{"Accept": {"text/html, application/xhtml+xml;q=0.9, */*;q=0.1"}})
	if err != nil {
		d.Failures = append(d.Failures, RequestFailure{URL: pageURL, Error: err.Error(), err: err})
	} else if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		d.FinalURL = resp.FinalURL
		final, err := url.Parse(resp.FinalURL)
		if err != nil {
			final = page
		}
		if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/html" || mt == "application/xhtml+xml" {
			head, err := htmlhead.Parse(bytes.NewReader(resp.Body), final)
			if err != nil {
				d.Failures = append(d.Failures, RequestFailure{URL: resp.FinalURL, Error: err.Error(), err: err})
			} else {
				for _, l := range head.Links {
					if !hasToken(l.Rel, LinkRel) {
						continue
					}
					d.consider(c, l.Href, l.RawHref, l.Type, MechanismLinkElement, resp.FinalURL)
				}
			}
		}
		if values := resp.Header.Values("Link"); len(values) > 0 {
			links, err := linkheader.Parse(values, final)
			if err != nil {
				d.Failures = append(d.Failures, RequestFailure{URL: resp.FinalURL, Error: "Link header: " + err.Error(), err: err})
			}
			for _, l := range links {
				if !l.HasRel(LinkRel) {
					continue
				}
				if l.Anchor != "" {
					d.Skipped = append(d.Skipped, Skipped{Href: l.Target, Via: MechanismLinkHeader, Source: resp.FinalURL,
						Reason: "the link has an anchor: its context is another resource, not this page"})
					continue
				}
				d.consider(c, l.Target, l.Target, l.Type, MechanismLinkHeader, resp.FinalURL)
			}
		}
	} else {
		d.Failures = append(d.Failures, RequestFailure{URL: pageURL, Error: fmt.Sprintf("HTTP status %d", resp.StatusCode),
			err: &safefetch.StatusError{URL: pageURL, StatusCode: resp.StatusCode}})
	}
	d.Retrieved = opts.now(time.Now())
	return d, nil
}

// consider keeps one advertised href if it is an acceptable descriptor URL.
func (d *Discovery) consider(c *safefetch.Client, href, raw, typ string, via Mechanism, source string) {
	skip := func(reason string) {
		h := href
		if h == "" {
			h = raw
		}
		d.Skipped = append(d.Skipped, Skipped{Href: h, Via: via, Source: source, Reason: reason})
	}
	if typ != "" {
		if mt, _, err := mime.ParseMediaType(typ); err != nil || mt != MediaType {
			skip(fmt.Sprintf("type %q is not application/json", typ))
			return
		}
	}
	u, err := url.Parse(href)
	if err != nil || href == "" || !u.IsAbs() {
		skip("not a resolvable URL")
		return
	}
	if u.Scheme != "https" {
		skip("not an HTTPS URL; descriptors are served over HTTPS")
		return
	}
	if err := safefetch.CheckURL(href, c.AllowsLoopback()); err != nil {
		skip("refused: " + err.Error())
		return
	}
	if a, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
		if aerr := safefetch.CheckAddr(a); aerr != nil && !(c.AllowsLoopback() && a.Unmap().IsLoopback()) {
			skip("refused: " + aerr.Error())
			return
		}
	}
	if len(d.Descriptors) >= maxDescriptors {
		skip(fmt.Sprintf("more than %d descriptors advertised", maxDescriptors))
		return
	}
	src, _ := url.Parse(source)
	cross := src == nil || !sameHost(src, u)
	u.Fragment, u.RawFragment = "", ""
	d.Descriptors = append(d.Descriptors, Descriptor{URL: u.String(), Via: via, Source: source, CrossHost: cross})
}

// nowOf returns the clock of opts, or nil.
func nowOf(opts *FetchOptions) func() time.Time {
	if opts == nil {
		return nil
	}
	return opts.Now
}

func hasToken(list []string, tok string) bool {
	for _, v := range list {
		if strings.EqualFold(v, tok) {
			return true
		}
	}
	return false
}

// sameHost reports whether a and b name the same host once both are
// normalized (case, IDNA, trailing dot).
func sameHost(a, b *url.URL) bool {
	ha, err1 := weburl.NormalizeHost(a.Hostname())
	hb, err2 := weburl.NormalizeHost(b.Hostname())
	return err1 == nil && err2 == nil && ha == hb
}
