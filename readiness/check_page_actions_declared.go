package readiness

import (
	"fmt"
	"strings"
)

func init() {
	register(checkDef{id: "page_actions_declared", needs: []resource{resPage, resPages}, run: checkPageActionsDeclared})
}

// checkPageActionsDeclared: R8, where a page offers an action it declares it
// as a page tool (readiness-checks.md, Act): every action form carries a
// WebMCP toolname, or the page registers tools with
// document.modelContext.registerTool (or the older navigator.modelContext),
// found by reading the scripts, never by running them. A plain site search is
// not an action; a page with no other form is not applicable.
func checkPageActionsDeclared(s *scan) outcome {
	o := s.toolsObs()
	out := outcome{requests: o.requests, scope: o.scope(), notes: o.notes}
	if len(o.pages) == 0 {
		p := s.pageObs()
		if !p.f.answered() {
			out.verdict, out.received = VerdictUnverified, "the page: "+p.f.why()
			return out
		}
		out.verdict, out.received = VerdictNotApplicable, fmt.Sprintf("the page is not HTML (%d): it offers no form", p.f.status())
		return out
	}
	actions := o.actionForms()
	declared := 0
	var undeclared []string
	for _, f := range actions {
		if f.declared() {
			declared++
		} else if len(undeclared) < 5 {
			undeclared = append(undeclared, formLabel(f))
		}
	}
	if searches := len(o.forms) - len(actions); searches > 0 {
		out.notes = append(out.notes, fmt.Sprintf("%d plain site search form(s), not counted as actions", searches))
	}
	if len(undeclared) > 0 {
		out.notes = append(out.notes, "undeclared action forms: "+strings.Join(undeclared, "; "))
	}
	formsText := fmt.Sprintf("%d of %d action forms declared with toolname", declared, len(actions))
	switch {
	case len(o.scripts) > 0:
		out.verdict = VerdictPass
		out.received = fmt.Sprintf("the page registers %d tool(s) through %s; %s", len(o.scripts), scriptAPIs(o.scripts), formsText)
	case len(actions) > 0 && declared == len(actions):
		out.verdict, out.received = VerdictPass, formsText
	case declared > 0:
		out.verdict, out.received = VerdictPartial, formsText
	case len(o.unread) > 0:
		// A script or route that did not answer might register tools.
		out.verdict = VerdictUnverified
		out.received = "no declared tools in what was read; " + o.unread[0].url + ": " + o.unread[0].why()
	case len(actions) > 0:
		out.verdict, out.received = VerdictFail, formsText+", and no script registers a tool"
	default:
		out.verdict, out.received = VerdictNotApplicable, "no action: no form other than a plain site search, and no tool registration"
	}
	return out
}

func formLabel(f pageForm) string {
	m := f.method
	if m == "" {
		m = "get"
	}
	a := f.action
	if a == "" {
		a = "(this page)"
	}
	return fmt.Sprintf("%s form → %s on %s", strings.ToUpper(m), truncate(clean(a), 80), f.page)
}

func scriptAPIs(ts []scriptTool) string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !seen[t.api] {
			seen[t.api] = true
			out = append(out, t.api)
		}
	}
	return strings.Join(out, " and ")
}
