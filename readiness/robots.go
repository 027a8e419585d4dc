package readiness

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/temoto/robotstxt"
)

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

// maxRobotsBytes is how much of robots.txt is parsed; RFC 9309 §2.5 asks
// crawlers to parse at least 500 KiB.
const maxRobotsBytes = 512 << 10

// robotsObs is robots.txt as the scan read it.
type robotsObs struct {
	f         *fetched
	data      *robotstxt.RobotsData // nil unless answered
	allowAll  bool                  // a 4xx: RFC 9309 §2.3.1.3, everything allowed
	truncated bool
	parseErr  error
	sitemaps  []string
}

func (s *scan) readRobots() *robotsObs {
	o := &robotsObs{f: s.get(s.resolve("/robots.txt"), "")}
	if !o.f.answered() {
		return o
	}
	st := o.f.status()
	switch {
	case st >= 400:
		o.allowAll = true
		return o
	case st < 200 || st >= 300:
		o.parseErr = fmt.Errorf("status %d", st)
		return o
	}
	body, truncated := capped(o.f.body(), maxRobotsBytes)
	o.truncated = truncated
	o.data, o.sitemaps, o.parseErr = parseRobots(body)
	return o
}

// capped reads at most limit bytes of b through a limited reader, cut back
// to the last line end when it was cut.
func capped(b []byte, limit int64) ([]byte, bool) {
	out, _ := io.ReadAll(io.LimitReader(bytes.NewReader(b), limit))
	if int64(len(b)) <= limit {
		return out, false
	}
	if i := bytes.LastIndexByte(out, '\n'); i >= 0 {
		out = out[:i+1]
	}
	return out, true
}

// agentCode is the stand-in user-agent token robots.txt groups of our
// crawler i are rewritten to: all codes have the same length, so none is a
// prefix of another, and none is a prefix of otherAgent or the reverse.
func agentCode(i int) string { return agentCodes[i] }

var agentCodes = func() []string {
	out := make([]string, len(crawlers))
	for i := range crawlers {
		out[i] = fmt.Sprintf("agentwebtoken%02dz", i)
	}
	return out
}()

const otherAgent = "agentweb-other-agent"

// parseRobots parses robots.txt with exact product-token matching. The
// robotstxt library matches groups by case-insensitive prefix (a group for
// "Applebot" would answer for "Applebot-Extended"), which RFC 9309 §2.2.1
// does not allow, so each User-agent line is rewritten first: a token equal
// (case-insensitively) to one of our crawlers becomes that crawler's code,
// "*" stays, and every other token becomes one inert name. Crawl-delay lines
// are dropped: we do not read them, and one malformed value would fail the
// whole file in the library.
func parseRobots(body []byte) (*robotstxt.RobotsData, []string, error) {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), maxRobotsBytes+1)
	for sc.Scan() {
		line := sc.Text()
		key, val, found := strings.Cut(line, ":")
		k := strings.ToLower(strings.TrimSpace(key))
		if found && (k == "user-agent" || k == "useragent" || k == "user agent") {
			val, _, _ = strings.Cut(val, "#")
			tok := strings.TrimSpace(val)
			if i := strings.IndexAny(tok, "/ \t"); i >= 0 {
				tok = tok[:i]
			}
			code := otherAgent
			if tok == "*" {
				code = "*"
			}
			for i, c := range crawlers {
				if strings.EqualFold(tok, c.token) {
					code = agentCode(i)
				}
			}
			line = "User-agent: " + code
		} else if found && (k == "crawl-delay" || k == "crawldelay" || k == "crawl delay") {
			line = ""
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("robots.txt: %w", err)
	}
	data, err := robotstxt.FromStatusAndBytes(200, out.Bytes())
	if err != nil {
		return nil, nil, fmt.Errorf("robots.txt: %w", err)
	}
	return data, data.Sitemaps, nil
}

// allowed reports whether crawler i may fetch the path (with its query).
func (o *robotsObs) allowed(i int, pathQuery string) bool {
	if o.allowAll || o.data == nil {
		return true
	}
	return o.data.TestAgent(pathQuery, agentCode(i))
}
