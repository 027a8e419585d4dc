package readiness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/webread"
)

// crawlers is the one table of AI crawler product tokens by class, shared
// with the publish kit that writes robots.txt from it.
var crawlers = webread.Crawlers()

// robotsRedirects is how many redirects the robots.txt fetch asks for: RFC
// 9309 Section 2.3.1.2 asks for at least five. The client's own limit bounds it
// (three for safefetch's default): a request never raises it.
const robotsRedirects = 5

// robotsRead is robots.txt as the scan read it.
type robotsRead struct {
	f     *fetched
	rules *webread.Robots // never nil
}

// robotsRead reads robots.txt, once per scan.
func (s *scan) robotsRead() *robotsRead { return readOnce(s, "robots", s.readRobots) }

// readRobots fetches robots.txt and reads it by RFC 9309. It follows up to five
// redirects, as many as the client allows. A 2xx is parsed and a 4xx allows
// everything. A 5xx, a 429 or no answer disallows everything (Section 2.3.1).
func (s *scan) readRobots() *robotsRead {
	o := &robotsRead{f: s.getRedirects(s.resolve("/robots.txt"), "", robotsRedirects)}
	if o.f.err != nil || o.f.resp == nil {
		// No answer, more redirects than followed included. Section 2.3.1.2
		// lets a crawler take the file as unavailable after five. But a scan
		// that could not read it says so rather than pass.
		o.rules = webread.RobotsUnreachable()
		return o
	}
	o.rules = webread.RobotsForStatus(o.f.status(), o.f.body())
	return o
}

// allowed reports whether crawler i may fetch the path (with its query).
// Groups are matched by exact product token (RFC 9309 Section 2.2.1).
func (o *robotsRead) allowed(i int, pathQuery string) bool {
	return o.rules.Allowed(crawlers[i].Token, pathQuery)
}

// sitemaps returns the Sitemap lines of robots.txt.
func (o *robotsRead) sitemaps() []string { return o.rules.Sitemaps() }

// lighthouseRobotsSafelist are the robots.txt directives that Lighthouse's
// SEO robots-txt audit accepts (Lighthouse 13.5.0,
// core/audits/seo/robots-txt.js, DIRECTIVE_SAFELIST); any other directive
// fails that audit as "Unknown directive".
var lighthouseRobotsSafelist = []string{"user-agent", "disallow", "allow", "sitemap", "crawl-delay", "clean-param", "host",
	"request-rate", "visit-time", "noindex", "content-signal"}

// lighthouseAlternatives say, for a directive that the audit flags, how to
// state the same thing without a robots.txt line.
var lighthouseAlternatives = map[string]string{
	"agentmap":      `advertise the AI catalog with a Link: </.well-known/ai-catalog.json>; rel="ai-catalog" response header or a <link rel="ai-catalog"> element instead (Lighthouse's ard gatherer reads both), or serve it at /.well-known/ai-catalog.json, where it looks last`,
	"license":       `state the licence with a Link: <URL>; rel="license" response header on the pages instead`,
	"content-usage": "send the same preferences as a Content-Usage response header (draft-ietf-aipref-attach) instead",
}

// maxLighthouseNotes bounds the directives named.
const maxLighthouseNotes = 5

// lighthouseRobotsNotes names the directives of a robots.txt body that
// Lighthouse's SEO robots-txt audit fails as unknown. Each comes with the line
// it first appears on and, where there is one, the header alternative. A line
// written to follow one tool's advice costs a pass in another. Lines are split,
// stripped of comments and cut at the first colon as that audit does. Given
// names (lower case), only those directives are named.
func lighthouseRobotsNotes(body []byte, only ...string) []string {
	type seen struct {
		name        string
		first, more int
	}
	var order []*seen
	byName := map[string]*seen{}
	n := 0
	text := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(body[:min(len(body), webread.MaxRobotsBytes)]))
	for line := range strings.Lines(text) {
		n++
		line, _, _ = strings.Cut(line, "#")
		name, _, ok := strings.Cut(strings.TrimSpace(line), ":")
		name = strings.ToLower(strings.TrimSpace(name))
		if !ok || slices.Contains(lighthouseRobotsSafelist, name) || len(only) > 0 && !slices.Contains(only, name) {
			continue
		}
		if d := byName[name]; d != nil {
			d.more++
			continue
		}
		if len(order) == maxLighthouseNotes {
			continue
		}
		d := &seen{name: name, first: n}
		byName[name] = d
		order = append(order, d)
	}
	var out []string
	for _, d := range order {
		note := fmt.Sprintf("robots.txt line %d: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive %q as unknown", d.first, shorten.Runes(clean(d.name), 40))
		if d.more > 0 {
			note += fmt.Sprintf(" (%s in all)", plural.N(d.more+1, "line", "lines"))
		}
		if alt := lighthouseAlternatives[d.name]; alt != "" {
			note += "; to keep that audit clean, " + alt
		}
		out = append(out, note)
	}
	return out
}
