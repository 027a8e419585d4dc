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
	"github.com/agentweb/agentweb/safefetch"
)

// Mechanism names how a descriptor was advertised (openagent-0.1.md,
// "Publication and discovery").
type Mechanism string

const (
	// ViaWellKnown is the origin's /.well-known/openagent.json.
	ViaWellKnown Mechanism = "well-known"
	// ViaLinkElement is a <link rel="openagent" type="application/json"> in
	// the page.
	ViaLinkElement Mechanism = "link-element"
	// ViaLinkHeader is a Link header with rel="openagent" on the page's
	// response.
	ViaLinkHeader Mechanism = "link-header"
)

// MaxDescriptors bounds how many advertised descriptors [DiscoverAll] keeps
// from one page (links beyond it are reported as skipped).
const MaxDescriptors = 64

// Descriptor is one advertised descriptor URL and where it came from.
// A descriptor on another host is allowed; its ownership claims are verified
// separately, and the source is kept for that (openagent-0.1.md,
// "Publication and discovery").
type Descriptor struct {
	// URL is the absolute descriptor URL, resolved against the page or
	// response URL.
	URL string `json:"url"`
	// Via is the mechanism that advertised it.
	Via Mechanism `json:"via"`
	// Source is the URL of the page or response that advertised it; for
	// ViaWellKnown, the well-known URL itself.
	Source string `json:"source"`
	// CrossHost is true when URL's host differs from Source's host.
	CrossHost bool `json:"cross_host,omitempty"`
}

// Skipped is an advertisement [DiscoverAll] did not keep, with the reason.
type Skipped struct {
	Href   string    `json:"href"`
	Via    Mechanism `json:"via"`
	Source string    `json:"source"`
	Reason string    `json:"reason"`
}

// Failure is a request of [DiscoverAll] that did not complete.
type Failure struct {
	URL   string `json:"url"`
	Error string `json:"error"`
	err   error
}

// Err returns the underlying error, for errors.Is and errors.As (a
// *[StatusError] for a page that answered with an error status; safefetch's
// errors for refusals and network failures).
func (f Failure) Err() error { return f.err }

// Discovery is the result of [DiscoverAll].
type Discovery struct {
	// PageURL is the page as given; FinalURL is where it was answered from.
	PageURL  string `json:"page_url"`
	FinalURL string `json:"final_url,omitempty"`
	// Descriptors are in this order: the well-known descriptor, then the
	// page's <link> elements, then its Link headers, each in document
	// order. A URL advertised by several mechanisms appears once for each.
	Descriptors []Descriptor `json:"descriptors"`
	// Skipped lists advertisements that were refused (not HTTPS, refused
	// by safefetch.CheckURL, another media type, over MaxDescriptors...).
	Skipped []Skipped `json:"skipped,omitempty"`
	// Failures lists the page or well-known requests that failed.
	Failures []Failure `json:"failures,omitempty"`
	// Retrieved is when discovery finished.
	Retrieved time.Time `json:"retrieved"`
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

// Discover returns the distinct descriptor URLs advertised for pageURL by
// the three mechanisms of openagent-0.1.md, "Publication and discovery": the
// origin's /.well-known/openagent.json, <link rel="openagent"
// type="application/json" href> elements in the page, and the equivalent Link
// header on the page's response. Relative references are resolved against
// the page (its <base>, else its final URL) or the response URL. Descriptors
// on other hosts are kept; [DiscoverAll] says where each came from.
//
// Discover fetches the page and the well-known URL and nothing else; it does
// not fetch or validate the descriptors (see [Fetch]). When none is found
// the error wraps [ErrNoDescriptor] and any request failure.
func Discover(ctx context.Context, pageURL string, opts *FetchOptions) ([]string, error) {
	d, err := DiscoverAll(ctx, pageURL, opts)
	if err != nil {
		return nil, err
	}
	urls := d.URLs()
	if len(urls) == 0 {
		errs := []error{ErrNoDescriptor}
		for _, f := range d.Failures {
			errs = append(errs, f.err)
		}
		return nil, errors.Join(errs...)
	}
	return urls, nil
}

// DiscoverAll is [Discover] with the full result: every descriptor with its
// mechanism and source, the advertisements it skipped and the requests that
// failed. Its error is non-nil only when pageURL is refused or ctx ends; a
// page or well-known request that fails is a [Failure] in the result.
func DiscoverAll(ctx context.Context, pageURL string, opts *FetchOptions) (*Discovery, error) {
	c := opts.client()
	page, err := url.Parse(pageURL)
	if err != nil {
		return nil, fmt.Errorf("openagent: page URL: %w", err)
	}
	if err := safefetch.CheckURL(pageURL, c.AllowsLoopback()); err != nil {
		return nil, fmt.Errorf("openagent: page URL: %w", err)
	}
	d := &Discovery{PageURL: pageURL, Descriptors: []Descriptor{}}

	// 1. The origin's well-known descriptor.
	wk := (&url.URL{Scheme: page.Scheme, Host: page.Host, Path: WellKnownPath}).String()
	if resp, err := c.Get(ctx, wk, http.Header{"Accept": {MediaType}}); err != nil {
		d.Failures = append(d.Failures, Failure{URL: wk, Error: err.Error(), err: err})
	} else if resp.StatusCode == http.StatusOK {
		if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err == nil && mt == MediaType {
			d.Descriptors = append(d.Descriptors, Descriptor{URL: wk, Via: ViaWellKnown, Source: wk})
		} else {
			d.Skipped = append(d.Skipped, Skipped{Href: wk, Via: ViaWellKnown, Source: wk,
				Reason: fmt.Sprintf("served as %q, not application/json", resp.Header.Get("Content-Type"))})
		}
	} else if resp.StatusCode >= 500 {
		// 404 and other client errors mean "not published here"; a server
		// error means the answer is unknown, and is reported.
		d.Failures = append(d.Failures, Failure{URL: wk, Error: fmt.Sprintf("HTTP status %d", resp.StatusCode),
			err: &StatusError{URL: wk, StatusCode: resp.StatusCode}})
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("openagent: discover: %w", err)
	}

	// 2 and 3. The page: its <link> elements and its Link headers.
	resp, err := c.Get(ctx, pageURL, http.Header{"Accept": {"text/html, application/xhtml+xml;q=0.9, */*;q=0.1"}})
	if err != nil {
		d.Failures = append(d.Failures, Failure{URL: pageURL, Error: err.Error(), err: err})
	} else if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		d.FinalURL = resp.FinalURL
		final, err := url.Parse(resp.FinalURL)
		if err != nil {
			final = page
		}
		if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/html" || mt == "application/xhtml+xml" {
			head, err := htmlhead.Parse(bytes.NewReader(resp.Body), final)
			if err != nil {
				d.Failures = append(d.Failures, Failure{URL: resp.FinalURL, Error: err.Error(), err: err})
			} else {
				for _, l := range head.Links {
					if !hasToken(l.Rel, LinkRel) {
						continue
					}
					d.consider(c, l.Href, l.RawHref, l.Type, ViaLinkElement, resp.FinalURL)
				}
			}
		}
		if values := resp.Header.Values("Link"); len(values) > 0 {
			links, err := linkheader.Parse(values, final)
			if err != nil {
				d.Failures = append(d.Failures, Failure{URL: resp.FinalURL, Error: "Link header: " + err.Error(), err: err})
			}
			for _, l := range links {
				if !l.HasRel(LinkRel) {
					continue
				}
				if l.Anchor != "" {
					d.Skipped = append(d.Skipped, Skipped{Href: l.Target, Via: ViaLinkHeader, Source: resp.FinalURL,
						Reason: "the link has an anchor: its context is another resource, not this page"})
					continue
				}
				d.consider(c, l.Target, l.Target, l.Type, ViaLinkHeader, resp.FinalURL)
			}
		}
	} else {
		d.Failures = append(d.Failures, Failure{URL: pageURL, Error: fmt.Sprintf("HTTP status %d", resp.StatusCode),
			err: &StatusError{URL: pageURL, StatusCode: resp.StatusCode}})
	}
	d.Retrieved = time.Now()
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
	if len(d.Descriptors) >= MaxDescriptors {
		skip(fmt.Sprintf("more than %d descriptors advertised", MaxDescriptors))
		return
	}
	src, _ := url.Parse(source)
	cross := src == nil || !strings.EqualFold(src.Hostname(), u.Hostname())
	u.Fragment, u.RawFragment = "", ""
	d.Descriptors = append(d.Descriptors, Descriptor{URL: u.String(), Via: via, Source: source, CrossHost: cross})
}

func hasToken(list []string, tok string) bool {
	for _, v := range list {
		if strings.EqualFold(v, tok) {
			return true
		}
	}
	return false
}
