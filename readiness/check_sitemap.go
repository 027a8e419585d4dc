package readiness

import (
	"fmt"
	"net/url"
)

func init() {
	register(checkDef{id: "sitemap", needs: []resource{resRobots, resSitemap}, run: checkSitemap})
}

// checkSitemap: R3, the site publishes a sitemap (readiness-checks.md,
// Discover; method §07 "a sitemap must be a real document").
func checkSitemap(s *scan) outcome {
	sm := s.sitemapObs()
	out := outcome{requests: append([]*fetched{s.robotsObs().f}, sm.tried...), notes: sm.notes}
	f := sm.f
	switch {
	case !f.answered():
		out.verdict, out.received = VerdictUnverified, "sitemap "+f.url+": "+f.why()
	case !f.ok():
		out.verdict, out.received = VerdictFail, fmt.Sprintf("no sitemap: %s answered %d", f.url, f.status())
	case sm.html:
		out.verdict, out.received = VerdictFail, "HTML served at "+f.url+", not a sitemap"
	case sm.parseErr != nil:
		out.verdict, out.received = VerdictFail, "not a sitemap: "+clean(sm.parseErr.Error())
	case len(sm.doc.locs) == 0:
		out.verdict, out.received = VerdictPartial, fmt.Sprintf("a <%s> with no loc", sm.doc.root)
	default:
		foreign, firstForeign := 0, ""
		for _, l := range sm.doc.locs {
			u, err := url.Parse(l)
			if err != nil || !u.IsAbs() || !s.sameSite(u) {
				if foreign == 0 {
					firstForeign = l
				}
				foreign++
			}
		}
		if foreign > 0 {
			out.verdict = VerdictPartial
			out.received = fmt.Sprintf("a <%s> with %d locs, %d of them not on %s (first: %s)", sm.doc.root, len(sm.doc.locs), foreign, s.page.Hostname(), truncate(clean(firstForeign), 200))
		} else {
			out.verdict = VerdictPass
			out.received = fmt.Sprintf("a <%s> with %d locs, all on %s", sm.doc.root, len(sm.doc.locs), s.page.Hostname())
		}
	}
	out.notes = append(out.notes, "sitemap URL from "+sm.source)
	return out
}
