package readiness

import (
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/webread"
	"github.com/agentweb/agentweb/internal/weburl"
)

// maxSitemapChildren bounds the child sitemaps of a sitemap index the scan
// fetches (each one request of the scan's budget); the others are counted,
// not read.
const maxSitemapChildren = 3

// readSitemapBody returns a sitemap response's XML: the body itself, or its
// decompression when it is gzip-compressed. sitemaps.org allows a sitemap
// "compressed using gzip". The decompressed size counts against the same
// per-response cap as any body. It counts against the scan's byte budget as it
// is inflated. So a decompression bomb is refused once it passes either.
//
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
func (s *scan) readSitemapBody(f *fetched) (body []byte, gzipped bool, err error) {
	body = f.body()
	if !webread.IsGzip(body) {
		return body, false, nil
	}
	out, err := webread.GunzipCharged(body, s.maxBody, func(n int) error { return s.client.Charge(int64(n)) })
	if err != nil {
		return nil, true, fmt.Errorf("gzip sitemap refused: %w", err)
	}
	return out, true, nil
}

// sitemapChild is one child sitemap of a sitemap index, as read.
type sitemapChild struct {
	f       *fetched
	doc     *webread.Sitemap
	err     error // not XML, not a sitemap, or a refused gzip body
	html    bool
	gzipped bool
}

// problem says why a child that answered is not a usable urlset, or "".
func (c *sitemapChild) problem() string {
	switch {
	case !c.f.answered():
		return ""
	case !c.f.ok():
		return fmt.Sprintf("answered %d", c.f.status())
	case c.html:
		return "HTML, not a sitemap"
	case c.err != nil:
		return clean(c.err.Error())
	case c.doc.Root != webread.SitemapURLSet:
		return "a <" + c.doc.Root + "> inside a sitemap index (sitemaps.org: an index lists urlsets only); not followed"
	}
	return ""
}

// sitemapRead is the sitemap the scan judged, with the requests it took.
type sitemapRead struct {
	f        *fetched   // the response judged
	tried    []*fetched // every sitemap request relied on
	source   string     // where its URL came from
	doc      *webread.Sitemap
	parseErr error
	html     bool
	gzipped  bool
	notes    []string

	// For a sitemap index: the children read (at most maxSitemapChildren
	// of childTotal same-site children).
	children   []*sitemapChild
	childTotal int
}

// pageLocs are the page URLs the sitemap lists: its locs when it is a
// urlset, the locs of the children read when it is an index.
func (o *sitemapRead) pageLocs() []string {
	if o == nil || o.doc == nil {
		return nil
	}
	if o.doc.Root == webread.SitemapURLSet {
		return o.doc.Locs
	}
	var out []string
	for _, c := range o.children {
		if c.doc != nil && c.doc.Root == webread.SitemapURLSet {
			out = append(out, c.doc.Locs...)
		}
	}
	return out
}

// sitemapRead reads the sitemap, once per scan.
func (s *scan) sitemapRead() *sitemapRead { return readOnce(s, "sitemap", s.readSitemap) }

// readSitemap takes the first same-site Sitemap: line of robots.txt, else
// /sitemap.xml (the catalogue row of the sitemap check), and reads it,
// gzip-compressed or not. When the declared sitemap is missing, /sitemap.xml
// is tried too. The children of a sitemap index are fetched concurrently,
// the first maxSitemapChildren on the site.
func (s *scan) readSitemap() *sitemapRead {
	o := &sitemapRead{}
	var candidates []string
	r := s.robotsRead()
	for _, sm := range r.sitemaps() {
		u, err := url.Parse(strings.TrimSpace(sm))
		if err != nil || !u.IsAbs() || !s.sameSite(u) {
			o.notes = append(o.notes, fmt.Sprintf("robots.txt names a sitemap on another site, not read: %s", shorten.Runes(clean(sm), 200)))
			continue
		}
		candidates = append(candidates, u.String())
		o.source = "robots.txt"
		break
	}
	def := s.resolve("/sitemap.xml")
	if len(candidates) == 0 || candidates[0] != def {
		candidates = append(candidates, def)
	}
	if o.source == "" {
		o.source = "the default location"
	}
	for i, c := range candidates {
		f := s.get(c, "")
		o.tried = append(o.tried, f)
		o.f = f
		if i == 0 && len(candidates) > 1 && f.answered() && !f.ok() {
			o.notes = append(o.notes, fmt.Sprintf("the sitemap robots.txt names answered %d; /sitemap.xml tried too", f.status()))
			o.source = "the default location"
			continue
		}
		break
	}
	if !o.f.ok() {
		return o
	}
	mt, _ := o.f.mediaType()
	if mt == "text/html" || mt == "application/xhtml+xml" || looksLikeHTML(o.f.body()) {
		o.html = true
		return o
	}
	var body []byte
	body, o.gzipped, o.parseErr = s.readSitemapBody(o.f)
	if o.parseErr != nil {
		return o
	}
	o.doc, o.parseErr = webread.ParseSitemap(body)
	if o.doc != nil && o.doc.Root == webread.SitemapIndex {
		s.readSitemapChildren(o)
	}
	return o
}

func (s *scan) readSitemapChildren(o *sitemapRead) {
	var urls []string
	seen := map[string]bool{}
	for _, l := range o.doc.Locs {
		u, err := url.Parse(l)
		if err != nil || !u.IsAbs() || !s.sameSite(u) || seen[u.String()] {
			continue
		}
		seen[u.String()] = true
		o.childTotal++
		if len(urls) < maxSitemapChildren {
			urls = append(urls, u.String())
		}
	}
	if o.childTotal > len(urls) {
		o.notes = append(o.notes, fmt.Sprintf("read %d of the index's %d child sitemaps", len(urls), o.childTotal))
	}
	o.children = make([]*sitemapChild, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Go(func() {
			c := &sitemapChild{f: s.get(u, "")}
			o.children[i] = c
			if !c.f.ok() {
				return
			}
			if looksLikeHTML(c.f.body()) {
				c.html = true
				return
			}
			var body []byte
			if body, c.gzipped, c.err = s.readSitemapBody(c.f); c.err == nil {
				c.doc, c.err = webread.ParseSitemap(body)
			}
		})
	}
	wg.Wait()
	for _, c := range o.children {
		o.tried = append(o.tried, c.f)
	}
}

// sameSite reports whether u is on the scanned host or its exact www/apex
// counterpart (the catalogue row of the sitemap check).
func (s *scan) sameSite(u *url.URL) bool {
	if u == nil || (u.Scheme != "https" && u.Scheme != "http") {
		return false
	}
	h, mine, ok := s.hosts(u)
	return ok && (h == mine || weburl.IsWWWCounterpart(h, mine))
}
