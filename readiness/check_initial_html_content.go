package readiness

import "fmt"

func init() {
	register(checkDef{id: "initial_html_content", needs: []resource{resPage, resPages}, run: checkInitialHTMLContent})
}

// minVisibleChars is the visible text a page needs without scripts
// (the check catalogue, Read).
const minVisibleChars = 200

// checkInitialHTMLContent: R1, important content is present in the initial
// HTML, read without running scripts. The catalogue's partial is the app shell:
// fewer than 200 characters with a script that runs. A page that runs no script
// cannot be one. So a heading and any visible text pass there, however short
// the page. The catalogue is silent on short server-rendered pages; this is the
// fair reading, since their content is all in the HTML. With a [Renderer] the
// verdict is still the HTML's, before scripts: an agent that does not run them
// reads only that. A note says how much text the page has once rendered. When
// scripts build what the HTML lacks, the fix says to serve it in the HTML.
func checkInitialHTMLContent(s *scan) outcome {
	out := s.overPages(func(p *pageRead) (Verdict, string) {
		d := fmt.Sprintf("%d characters of visible text, %d headings, %d scripts", p.text, p.headings, p.scripts)
		switch {
		case p.text >= minVisibleChars && p.headings > 0:
			return VerdictPass, d
		case p.text > 0 && p.scripts == 0 && p.headings > 0:
			// No script runs, so nothing is built later: a short page
			// (a contact page) has all its content in the HTML.
			return VerdictPass, d + ": a short page with no script, all its content in the HTML"
		case p.text > 0 && p.scripts > 0 && p.text < minVisibleChars:
			return VerdictPartial, d + ": an app shell, fewer than 200 characters with a script that runs"
		case p.text > 0:
			return VerdictPartial, d + ": no heading"
		}
		return VerdictFail, d + ": no visible content"
	})
	if s.renderer == nil || out.verdict == VerdictUnverified {
		return out
	}
	o := s.toolsRead()
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
