package readiness

import "fmt"

func init() {
	register(checkDef{id: "initial_html_content", needs: []resource{resPage, resPages}, run: checkInitialHTMLContent})
}

// minVisibleChars is the visible text a page needs without scripts
// (the check catalogue, Read).
const minVisibleChars = 200

// checkInitialHTMLContent: R1, important content is present in the initial
// HTML, read without running scripts.
func checkInitialHTMLContent(s *scan) outcome {
	return s.overPages(func(p *pageObs) (Verdict, string) {
		d := fmt.Sprintf("%d characters of visible text, %d headings, %d scripts", p.text, p.headings, p.scripts)
		switch {
		case p.text >= minVisibleChars && p.headings > 0:
			return VerdictPass, d
		case p.text >= minVisibleChars:
			return VerdictPartial, d + ": no heading"
		case p.text > 0:
			return VerdictPartial, d + ": an app shell, fewer than 200 characters"
		}
		return VerdictFail, d + ": no visible content"
	})
}
