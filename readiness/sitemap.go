package readiness

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/weburl"
)

// sitemapNS is the sitemaps.org 0.9 namespace.
const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// Bounds of the sitemap reader (sitemaps.org: at most 50,000 URLs a file).
const (
	maxSitemapLocs   = 50000
	maxSitemapTokens = 1 << 20
	maxSitemapDepth  = 16
	maxLocBytes      = 2048
)

var errNotSitemap = errors.New("not a sitemap")

// sitemapDoc is a sitemap as the strict reader saw it.
type sitemapDoc struct {
	root string // "urlset" or "sitemapindex"
	locs []string
}

// parseSitemap reads a sitemap with a strict XML decoder: the root must be
// urlset or sitemapindex in the sitemaps.org 0.9 namespace, every loc is
// collected (url/loc or sitemap/loc), and the token count, depth and loc count
// are bounded. Entities other than XML's five are refused by the strict
// decoder; non-UTF-8 encodings are refused.
func parseSitemap(data []byte) (*sitemapDoc, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(charset string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(charset, "utf-8") || strings.EqualFold(charset, "utf8") {
			return r, nil
		}
		return nil, fmt.Errorf("encoding %q is not UTF-8", charset)
	}
	doc := &sitemapDoc{}
	var stack []xml.Name
	var loc *strings.Builder
	for tokens := 0; ; tokens++ {
		if tokens > maxSitemapTokens {
			return nil, fmt.Errorf("%w: more than %d XML tokens", errNotSitemap, maxSitemapTokens)
		}
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errNotSitemap, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				if doc.root != "" {
					return nil, fmt.Errorf("%w: more than one root element", errNotSitemap)
				}
				if t.Name.Local != "urlset" && t.Name.Local != "sitemapindex" {
					return nil, fmt.Errorf("%w: root element <%s>, not <urlset> or <sitemapindex>", errNotSitemap, t.Name.Local)
				}
				if t.Name.Space != sitemapNS {
					return nil, fmt.Errorf("%w: root element in namespace %q, not %q", errNotSitemap, t.Name.Space, sitemapNS)
				}
				doc.root = t.Name.Local
			}
			stack = append(stack, t.Name)
			if len(stack) > maxSitemapDepth {
				return nil, fmt.Errorf("%w: elements nested deeper than %d", errNotSitemap, maxSitemapDepth)
			}
			want := "url"
			if doc.root == "sitemapindex" {
				want = "sitemap"
			}
			if len(stack) == 3 && t.Name.Local == "loc" && t.Name.Space == sitemapNS && stack[1].Local == want && stack[1].Space == sitemapNS {
				if len(doc.locs) >= maxSitemapLocs {
					return nil, fmt.Errorf("%w: more than %d locs", errNotSitemap, maxSitemapLocs)
				}
				loc = &strings.Builder{}
			}
		case xml.CharData:
			if loc != nil && loc.Len() <= maxLocBytes {
				loc.Write(t)
			}
		case xml.EndElement:
			if loc != nil && len(stack) == 3 {
				doc.locs = append(doc.locs, strings.TrimSpace(loc.String()))
				loc = nil
			}
			stack = stack[:len(stack)-1]
		}
	}
	if doc.root == "" {
		return nil, fmt.Errorf("%w: no root element", errNotSitemap)
	}
	return doc, nil
}

// sitemapObs is the sitemap the scan judged, with the requests it took.
type sitemapObs struct {
	f        *fetched   // the response judged
	tried    []*fetched // every sitemap request relied on
	source   string     // where its URL came from
	doc      *sitemapDoc
	parseErr error
	html     bool
	notes    []string
}

// readSitemap takes the first same-site Sitemap: line of robots.txt, else
// /sitemap.xml (readiness-checks.md, sitemap), and reads it. When the
// declared sitemap is missing, /sitemap.xml is tried too.
func (s *scan) readSitemap() *sitemapObs {
	o := &sitemapObs{}
	var candidates []string
	r := s.robotsObs()
	for _, sm := range r.sitemaps() {
		u, err := url.Parse(strings.TrimSpace(sm))
		if err != nil || !u.IsAbs() || !s.sameSite(u) {
			o.notes = append(o.notes, fmt.Sprintf("robots.txt names a sitemap on another site, not read: %s", truncate(clean(sm), 200)))
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
	o.doc, o.parseErr = parseSitemap(o.f.body())
	return o
}

// sameSite reports whether u is on the scanned host or its exact www/apex
// counterpart (readiness-checks.md, sitemap).
func (s *scan) sameSite(u *url.URL) bool {
	if u == nil || (u.Scheme != "https" && u.Scheme != "http") {
		return false
	}
	h, err := weburl.NormalizeHost(u.Hostname())
	if err != nil {
		return false
	}
	mine, err := weburl.NormalizeHost(s.page.Hostname())
	if err != nil {
		return false
	}
	return h == mine || weburl.IsWWWCounterpart(h, mine)
}
