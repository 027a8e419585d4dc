package readiness

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"

	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "sitemap", needs: []resource{resRobots, resSitemap}, run: checkSitemap})
}

// checkSitemap: R3, the site publishes a sitemap (the catalogue row of the
// sitemap check; the agent-readiness scoring method, Section 07, "a sitemap
// must be a real document"). It is a urlset or sitemapindex of the
// [sitemaps.org] 0.9 namespace, gzip-compressed or not, whose locs are on the
// site. For an index, the child sitemaps read must be urlsets on the site too.
// A child that is not one makes it partial.
//
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
func checkSitemap(s *scan) outcome {
	sm := s.sitemapRead()
	out := outcome{requests: append([]*fetched{s.robotsRead().f}, sm.tried...), notes: sm.notes}
	f := sm.f
	gz := ""
	if sm.gzipped {
		gz = "gzip-compressed "
	}
	switch {
	case !f.answered():
		out.verdict, out.received = VerdictUnverified, "sitemap "+f.url+": "+f.why()
	case !f.ok():
		out.verdict, out.received = VerdictFail, fmt.Sprintf("no sitemap: %s answered %d", f.url, f.status())
	case sm.html:
		out.verdict, out.received = VerdictFail, "HTML served at "+f.url+", not a sitemap"
	case sm.parseErr != nil:
		// The reader's errors say "not a sitemap: why" themselves.
		out.verdict, out.received = VerdictFail, f.url+": "+clean(sm.parseErr.Error())
	case len(sm.doc.Locs) == 0:
		out.verdict, out.received = VerdictPartial, fmt.Sprintf("a %s<%s> with no loc", gz, sm.doc.Root)
	default:
		foreign, firstForeign := s.foreignLocs(sm.doc.Locs)
		var bad []string
		pages := 0
		for _, c := range sm.children {
			if p := c.problem(); p != "" {
				bad = append(bad, c.f.url+": "+p)
				continue
			}
			if !c.f.answered() {
				out.notes = append(out.notes, "child sitemap "+c.f.url+" not read: "+c.f.why())
				continue
			}
			pages += len(c.doc.Locs)
			n, first := s.foreignLocs(c.doc.Locs)
			if foreign == 0 {
				firstForeign = first
			}
			foreign += n
		}
		desc := fmt.Sprintf("a %s<%s> with %s", gz, sm.doc.Root, plural.N(len(sm.doc.Locs), "loc", "locs"))
		if sm.doc.Root == webread.SitemapIndex {
			desc += fmt.Sprintf(" (%d of %d child sitemaps read, %d page URLs)", len(sm.children), sm.childTotal, pages)
		}
		switch {
		case len(bad) > 0:
			out.verdict = VerdictPartial
			out.received = desc + "; child sitemaps that are not usable: " + shorten.Runes(strings.Join(bad, "; "), 400)
		case foreign > 0:
			out.verdict = VerdictPartial
			out.received = fmt.Sprintf("%s, %d of them not on %s (first: %s)", desc, foreign, s.page.Hostname(), shorten.Runes(clean(firstForeign), 200))
		default:
			out.verdict = VerdictPass
			out.received = fmt.Sprintf("%s, all on %s", desc, s.page.Hostname())
		}
	}
	out.notes = append(out.notes, "sitemap URL from "+sm.source)
	return out
}

// foreignLocs counts the locs that are not on the site, and gives the first.
func (s *scan) foreignLocs(locs []string) (int, string) {
	n, firstForeign := 0, ""
	for _, l := range locs {
		u, err := url.Parse(l)
		if err != nil || !u.IsAbs() || !s.sameSite(u) {
			if n == 0 {
				firstForeign = l
			}
			n++
		}
	}
	return n, firstForeign
}
