package readiness

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

func init() {
	register(checkDef{id: "llms_txt", needs: []resource{resLLMs}, run: checkLLMsTxt})
}

const minLLMsChars = 50

// llmsTextTypes are the labels llms.txt passes with: the proposal serves it
// as plain text, and Markdown is what it is.
var llmsTextTypes = map[string]bool{"text/plain": true, "text/markdown": true}

// checkLLMsTxt: R4, the site publishes llms.txt (the check catalogue).
func checkLLMsTxt(s *scan) outcome {
	f := s.llmsRead()
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
	// The body is what an agent reads, so the body is judged. An HTML document
	// fails whatever its label. A Markdown body with a wrong label is at most
	// partial, the label named in the receipt and the fix.
	if llmsIsHTML(body) {
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
	var missing []string
	if !link {
		missing = append(missing, "no Markdown link")
	}
	if n < minLLMsChars {
		missing = append(missing, fmt.Sprintf("%d characters, fewer than %d", n, minLLMsChars))
	}
	if !llmsTextTypes[mt] {
		label := mt
		if label == "" {
			label = "no Content-Type"
		}
		missing = append(missing, fmt.Sprintf("a Markdown body labelled %q, not text/plain or text/markdown", label))
		out.fix = fmt.Sprintf("Serve /llms.txt with Content-Type text/plain; charset=utf-8 (or text/markdown): its body is Markdown, but it is labelled %q, which tells an agent it is something else. ", label) + fixOf("llms_txt")
	}
	switch {
	case !h1:
		out.verdict, out.received = VerdictFail, "no H1 line"
		out.fix = ""
	case len(missing) == 0:
		out.verdict, out.received = VerdictPass, fmt.Sprintf("H1, a Markdown link, %d characters, served as %s", n, mt)
	default:
		out.verdict, out.received = VerdictPartial, "H1, but "+strings.Join(missing, "; ")
	}
	return out
}
