package readiness

import "github.com/agentweb/agentweb/internal/webread"

// crawlerClass is one of the three kinds of AI crawler (readiness-method.md
// §07, "three kinds of crawler").
type crawlerClass string

const (
	classTraining crawlerClass = "training"
	classSearch   crawlerClass = "search"
	classUser     crawlerClass = "user"
)

// crawlers is the one table of AI crawler product tokens, by class
// (readiness-checks.md, Discover). Sources: OpenAI's bots page (GPTBot,
// OAI-SearchBot, ChatGPT-User), Anthropic's crawler page (ClaudeBot,
// Claude-SearchBot, Claude-User), Google's common crawlers page
// (Google-Extended), Apple's Applebot page (Applebot-Extended), Common Crawl
// (CCBot), ByteDance (Bytespider), Meta's web crawlers page
// (meta-externalagent), Perplexity's crawlers page (PerplexityBot,
// Perplexity-User); collected in the ai-robots-txt project's robots.json.
var crawlers = []struct {
	token string
	class crawlerClass
}{
	{"GPTBot", classTraining},
	{"ClaudeBot", classTraining},
	{"Google-Extended", classTraining},
	{"Applebot-Extended", classTraining},
	{"CCBot", classTraining},
	{"Bytespider", classTraining},
	{"meta-externalagent", classTraining},
	{"OAI-SearchBot", classSearch},
	{"Claude-SearchBot", classSearch},
	{"PerplexityBot", classSearch},
	{"ChatGPT-User", classUser},
	{"Claude-User", classUser},
	{"Perplexity-User", classUser},
}

// robotsRedirects is how many redirects the robots.txt fetch follows: RFC
// 9309 §2.3.1.2 asks for at least five.
const robotsRedirects = 5

// robotsObs is robots.txt as the scan read it.
type robotsObs struct {
	f     *fetched
	rules *webread.Robots // never nil
}

// readRobots fetches robots.txt (following up to five redirects) and reads
// it by RFC 9309: a 2xx is parsed, a 4xx allows everything, a 5xx, a 429 or
// no answer disallows everything (§2.3.1).
func (s *scan) readRobots() *robotsObs {
	o := &robotsObs{f: s.getRedirects(s.resolve("/robots.txt"), "", robotsRedirects)}
	if o.f.err != nil || o.f.resp == nil {
		// No answer, more than five redirects included: §2.3.1.2 lets a
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
	return o.rules.Allowed(crawlers[i].token, pathQuery)
}

// sitemaps returns the Sitemap lines of robots.txt.
func (o *robotsObs) sitemaps() []string { return o.rules.Sitemaps() }
