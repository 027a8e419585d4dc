package readiness

import "github.com/agentweb/agentweb/internal/webread"

// crawlers is the one table of AI crawler product tokens by class, shared
// with the publish kit that writes robots.txt from it.
var crawlers = webread.Crawlers()

// robotsRedirects is how many redirects the robots.txt fetch asks for: RFC
// 9309 §2.3.1.2 asks for at least five. The client's own limit bounds it
// (three for safefetch's default): a request never raises it.
const robotsRedirects = 5

// robotsObs is robots.txt as the scan read it.
type robotsObs struct {
	f     *fetched
	rules *webread.Robots // never nil
}

// readRobots fetches robots.txt (following up to five redirects, as many
// as the client allows) and reads
// it by RFC 9309: a 2xx is parsed, a 4xx allows everything, a 5xx, a 429 or
// no answer disallows everything (§2.3.1).
func (s *scan) readRobots() *robotsObs {
	o := &robotsObs{f: s.getRedirects(s.resolve("/robots.txt"), "", robotsRedirects)}
	if o.f.err != nil || o.f.resp == nil {
		// No answer, more redirects than followed included: §2.3.1.2 lets a
		// crawler take the file as unavailable after five, but a scan
		// that could not read it says so rather than pass.
		o.rules = webread.RobotsUnreachable()
		return o
	}
	o.rules = webread.RobotsForStatus(o.f.status(), o.f.body())
	return o
}

// allowed reports whether crawler i may fetch the path (with its query).
// Groups are matched by exact product token (RFC 9309 §2.2.1).
func (o *robotsObs) allowed(i int, pathQuery string) bool {
	return o.rules.Allowed(crawlers[i].Token, pathQuery)
}

// sitemaps returns the Sitemap lines of robots.txt.
func (o *robotsObs) sitemaps() []string { return o.rules.Sitemaps() }
