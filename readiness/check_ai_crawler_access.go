package readiness

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "ai_crawler_access", needs: []resource{resRobots}, run: checkAICrawlerAccess})
}

// checkAICrawlerAccess: AI search/citation and user-initiated agents may read
// the page; blocking training crawlers costs nothing (the agent-readiness scoring
// method, Section 07, "three kinds of crawler"). Groups are matched by exact product token.
func checkAICrawlerAccess(s *scan) outcome {
	r := s.robotsRead()
	out := outcome{requests: []*fetched{r.f}}
	switch r.rules.Availability() {
	case webread.AvailabilityUnavailable:
		// A 4xx, 401 and 403 included: RFC 9309 Section 2.3.1.3 lets crawlers
		// access any resource.
		section := "§2.3.1.3"
		if r.f.status() < 400 {
			section = "§2.3.1.2" // a redirect that did not lead to the file
		}
		out.verdict, out.received = VerdictPass, fmt.Sprintf("robots.txt answered %d: everything allowed (RFC 9309 %s)", r.f.status(), section)
		return out
	case webread.AvailabilityUnreachable:
		out.verdict, out.received = VerdictUnverified, r.f.why()
		if r.f.status() >= 500 || r.f.status() == 429 {
			out.notes = append(out.notes, "RFC 9309 crawlers treat a 5xx robots.txt as a complete disallow while it lasts")
		}
		return out
	}
	if mt, _ := r.f.mediaType(); mt == "text/html" || looksLikeHTML(r.f.body()) {
		out.notes = append(out.notes, "robots.txt is an HTML page: it holds no rule a crawler would obey")
	}
	out.notes = append(out.notes, lighthouseRobotsNotes(r.f.body())...)
	if r.rules.Truncated() {
		out.notes = append(out.notes, fmt.Sprintf("only the first %d bytes of robots.txt were parsed (RFC 9309 §2.5)", webread.MaxRobotsBytes))
	}
	pq := s.page.EscapedPath()
	if pq == "" {
		pq = "/"
	}
	if s.page.RawQuery != "" {
		pq += "?" + s.page.RawQuery
	}
	blocked := map[webread.CrawlerClass][]string{}
	for i, c := range crawlers {
		if !r.allowed(i, pq) {
			blocked[c.Class] = append(blocked[c.Class], c.Token)
		}
	}
	if b := blocked[webread.CrawlerTraining]; len(b) > 0 {
		out.notes = append(out.notes, "training crawlers blocked (costs nothing): "+strings.Join(b, ", "))
	}
	bs, bu := blocked[webread.CrawlerSearch], blocked[webread.CrawlerUser]
	switch {
	case len(bs) == 0 && len(bu) == 0:
		out.verdict, out.received = VerdictPass, "AI search and user-initiated agents may read "+pq
	case len(bs) > 0 && len(bu) > 0:
		out.verdict, out.received = VerdictFail, "blocked: search ("+strings.Join(bs, ", ")+") and user-initiated ("+strings.Join(bu, ", ")+")"
	case len(bs) > 0:
		out.verdict, out.received = VerdictPartial, "AI search crawlers blocked: "+strings.Join(bs, ", ")
	default:
		out.verdict, out.received = VerdictPartial, "user-initiated agents blocked: "+strings.Join(bu, ", ")
	}
	return out
}
