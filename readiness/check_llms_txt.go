package readiness

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

func init() {
	register(checkDef{id: "llms_txt", needs: []resource{resLLMs}, run: checkLLMsTxt})
}

var (
	// llmsH1 and llmsLink are the tests of the llms.txt proposal as
	// Lighthouse applies them (readiness-anchors.md §1).
	llmsH1   = regexp.MustCompile(`(?m)^\s*#\s+\S`)
	llmsLink = regexp.MustCompile(`\[[^\]\n]*\]\([^)\s]+[^)]*\)`)
)

const minLLMsChars = 50

// checkLLMsTxt: R4, the site publishes llms.txt (the check catalogue).
func checkLLMsTxt(s *scan) outcome {
	f := s.llmsObs()
	out := outcome{requests: []*fetched{f}}
	if !f.answered() {
		out.verdict, out.received = VerdictUnverified, f.why()
		return out
	}
	if !f.ok() {
		out.verdict, out.received = VerdictFail, fmt.Sprintf("no llms.txt: %d", f.status())
		return out
	}
	mt, _ := f.mediaType()
	body := f.body()
	if mt == "text/html" || looksLikeHTML(body) {
		out.verdict, out.received = VerdictFail, "HTML served at /llms.txt"
		return out
	}
	text := string(body)
	if !utf8.ValidString(text) {
		out.verdict, out.received = VerdictFail, "llms.txt is not UTF-8 text"
		return out
	}
	h1 := llmsH1.MatchString(text)
	link := llmsLink.MatchString(text)
	n := utf8.RuneCountInString(strings.TrimSpace(text))
	textType := strings.HasPrefix(mt, "text/")
	var missing []string
	if !link {
		missing = append(missing, "no Markdown link")
	}
	if n < minLLMsChars {
		missing = append(missing, fmt.Sprintf("%d characters, fewer than %d", n, minLLMsChars))
	}
	if !textType {
		missing = append(missing, fmt.Sprintf("served as %q, not as text", mt))
	}
	switch {
	case !h1:
		out.verdict, out.received = VerdictFail, "no H1 line"
	case len(missing) == 0:
		out.verdict, out.received = VerdictPass, fmt.Sprintf("H1, a Markdown link, %d characters, served as %s", n, mt)
	default:
		out.verdict, out.received = VerdictPartial, "H1, but "+strings.Join(missing, "; ")
	}
	return out
}
