package readiness

import (
	"regexp"
	"strings"
)

// llmsRead fetches /llms.txt, once per scan.
func (s *scan) llmsRead() *fetched {
	return readOnce(s, "llms", func() *fetched { return s.get(s.resolve("/llms.txt"), "") })
}

var (
	// llmsH1 and llmsLink are the tests of the llms.txt proposal as
	// Lighthouse applies them (readiness-anchors.md Section 1).
	llmsH1   = regexp.MustCompile(`(?m)^\s*#\s+\S`)
	llmsLink = regexp.MustCompile(`\[[^\]\n]*\]\([^)\s]+[^)]*\)`)
)

// llmsIsHTML reports whether an llms.txt body is an HTML document rather than
// Markdown. It is when it starts as an HTML document does, or starts with a tag
// and has no Markdown H1 line.
func llmsIsHTML(body []byte) bool {
	if looksLikeHTML(body) {
		return true
	}
	t := strings.TrimSpace(string(body[:min(len(body), 4096)]))
	return strings.HasPrefix(t, "<") && !llmsH1.MatchString(string(body))
}
