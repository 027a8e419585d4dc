package readiness

import "fmt"

func init() {
	register(checkDef{id: "initial_html_content", needs: []resource{resPage, resPages}, run: checkInitialHTMLContent})
}

// minVisibleChars is the visible text a page needs without scripts
// (the check catalogue, Read).
const minVisibleChars = 200

// checkInitialHTMLContent: R1, important content is present in the initial
// HTML, read without running scripts. With a [Renderer] the verdict is still
// the HTML's, before scripts (an agent that does not run them reads only
// that); a note says how much text the page has once rendered, and when
// scripts build what the HTML lacks, the fix says to serve it in the HTML.
func checkInitialHTMLContent(s *scan) outcome {
	out := s.overPages(func(p *pageObs) (Verdict, string) {
		d := fmt.Sprintf("%d characters of visible text, %d headings, %d scripts", p.text, p.headings, p.scripts)
		switch {
		case p.text >= minVisibleChars && p.headings > 0:
			return VerdictPass, d
		case p.text >= minVisibleChars:
			return VerdictPartial, d + ": no heading"
		case p.text > 0 && p.scripts > 0:
			return VerdictPartial, d + ": an app shell, fewer than 200 characters"
		case p.text > 0:
			return VerdictPartial, d + ": fewer than 200 characters"
		}
		return VerdictFail, d + ": no visible content"
	})
	if s.renderer == nil || out.verdict == VerdictUnverified {
		return out
	}
	o := s.toolsObs()
	built := false
	for _, pr := range o.rendered {
		static := 0
		for _, p := range o.pages {
			if p.url == pr.page {
				static = p.text
			}
		}
		out.notes = append(out.notes, fmt.Sprintf("%s rendered in %s: %d characters of visible text after scripts, %d before", pr.page, pr.r.Browser, pr.text, static))
		if pr.text >= minVisibleChars && static < minVisibleChars {
			built = true
		}
	}
	if built && out.verdict != VerdictPass {
		out.fix = "Scripts build the page's text in a browser, but the HTML the server sends lacks it: serve the heading and text in the HTML itself (server-side rendering or prerendering), so that an agent that does not run scripts reads it."
	}
	return out
}
