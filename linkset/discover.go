package linkset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/agentweb/agentweb/internal/htmlhead"
	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// ErrNotDiscovered is returned by [Discover] when a page names no
// discovery document whose profile could be confirmed.
var ErrNotDiscovered = errors.New("linkset: no knowledge-linkset discovery document found")

// maxCandidates bounds the candidates Discover fetches.
const maxCandidates = 3

// candidates returns the discovery documents a page points at (Section 5).
// They are the targets of its describedby links whose type is
// application/linkset+json. The links come from the Link header fields and
// the <link> elements of html (nil for none). The one that resolves to the
// page origin's well-known path comes first, then the rest in document
// order, each once.
func candidates(pageURL string, header http.Header, html []byte) ([]string, error) {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, fmt.Errorf("linkset: page URL %q: %w", shorten.Bytes(weburl.Redact(pageURL), 120), err)
	}
	var found []string
	add := func(target, typ string) {
		if target != "" && mediaTypeIs(typ, MediaType) && !slices.Contains(found, target) {
			found = append(found, target)
		}
	}
	if links, err := linkheader.Parse(header.Values("Link"), base); err == nil {
		for _, l := range links {
			if l.HasRel("describedby") {
				add(l.Target, l.Type)
			}
		}
	}
	if len(html) > 0 {
		head, _ := htmlhead.Parse(bytes.NewReader(html), base) // a limit keeps what was read
		if head != nil {
			for _, l := range head.LinksWithRel("describedby") {
				add(l.Href, l.Type)
			}
		}
	}
	if o, err := weburl.Origin(base); err == nil {
		wk := o + WellKnownPath
		for i, c := range found {
			if cu, err := CanonicalURL(c, true); err == nil && cu == wk {
				found = append([]string{c}, slices.Delete(found, i, i+1)...)
				break
			}
		}
	}
	return found, nil
}

// Discover reads the page at pageURL: its Link header fields and, for an
// HTML page, the <link> elements of its head. It picks the describedby
// links of type application/linkset+json. It fetches them, the one at the
// origin's well-known path first, until one carries the profile
// ([knowledge-linkset draft], Sections 3.1 and 5). The origin's well-known
// URI is tried whether or not the page names it, last when it does not: it
// is where Section 3 puts the document. It is also tried when the page
// itself cannot be read (a status other than 2xx). At most three
// advertised candidates are fetched, besides the well-known URI. The
// returned Fetched is checked as [Fetch] checks it, and a non-conformant
// one comes with the same *ValidationError.
//
// pageURL may be any https URL of the site. When no candidate carries the
// profile the error wraps [ErrNotDiscovered] and the well-known URI's own
// error: nothing published there is a *safefetch.StatusError that
// errors.Is finds as safefetch.ErrNotFound, as in every spec package.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func Discover(ctx context.Context, pageURL string, opts *FetchOptions) (*Fetched, error) {
	if opts == nil {
		opts = &FetchOptions{}
	}
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, fmt.Errorf("linkset: page URL %q: %w", shorten.Bytes(weburl.Redact(pageURL), 120), err)
	}
	origin, err := weburl.Origin(base)
	if err != nil {
		return nil, fmt.Errorf("linkset: page URL %q: %w", shorten.Bytes(weburl.Redact(pageURL), 120), err)
	}
	wellKnown := origin + WellKnownPath
	c := opts.client()
	resp, err := c.Get(ctx, pageURL, http.Header{"Accept": {"text/html, */*;q=0.5"}})
	if resp == nil {
		return nil, fmt.Errorf("linkset: fetching page %s: %w", weburl.Redact(pageURL), err)
	}
	if err != nil && !errors.Is(err, safefetch.ErrTooLarge) {
		return nil, fmt.Errorf("linkset: fetching page %s: %w", weburl.Redact(pageURL), err)
	}
	var found []string
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		if found, err = candidates(pageURL, resp.Header, resp.Body); err != nil {
			return nil, err
		}
	}
	if len(found) > maxCandidates {
		found = found[:maxCandidates]
	}
	advertised := false
	for _, cand := range found {
		if cu, err := CanonicalURL(cand, true); err == nil && cu == wellKnown {
			advertised = true
		}
	}
	if !advertised {
		found = append(found, wellKnown)
	}
	var last, atWellKnown error
	for _, cand := range found {
		f, err := fetchWith(ctx, c, cand, opts)
		if err == nil && !f.ProfileInMediaType && !f.ProfileInLink {
			err = fmt.Errorf("%w: %s does not carry the profile %s", ErrNotDiscovered, cand, ProfileURI)
		}
		if err == nil {
			return asInvalid(f, nil)
		}
		last = err
		if cu, cerr := CanonicalURL(cand, true); cerr == nil && cu == wellKnown {
			atWellKnown = err
		}
	}
	if atWellKnown != nil {
		last = atWellKnown
	}
	if errors.Is(last, ErrNotDiscovered) {
		return nil, last
	}
	return nil, fmt.Errorf("%w: %w", ErrNotDiscovered, last)
}
