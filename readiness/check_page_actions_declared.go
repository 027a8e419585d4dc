package readiness

import (
	"fmt"
	"strings"
)

func init() {
	register(checkDef{id: "page_actions_declared", needs: []resource{resPage, resPages}, run: checkPageActionsDeclared})
}

// checkPageActionsDeclared: R8, where a page offers an action it declares it
// as a page tool (the check catalogue, Act): every action form carries a
// WebMCP toolname and tooldescription (browsers register no declarative tool
// without a description), or the page registers tools with
// document.modelContext.registerTool, found by reading the scripts, never by
// running them. Tools registered only through the older
// navigator.modelContext, which current browsers no longer expose, and forms
// with a toolname but no tooldescription are partial. A plain site search is
// not an action. A page with no other form is not applicable only when every
// script and the page's content were read: a script of another origin or
// over the bound, or an app shell whose content a script builds, may hold
// the actions, and makes the check unverified, never not applicable (the
// method's §06: could not check is never a pass; §07: findings state their
// scope).
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
	registered, named := 0, 0
	var undeclared, unregistered []string
	for _, f := range actions {
		switch {
		case f.registered():
			registered++
		case f.declared():
			named++
			if len(unregistered) < 5 {
				unregistered = append(unregistered, fmt.Sprintf("%q on %s", truncate(clean(f.toolName), 60), f.page))
			}
		case len(undeclared) < 5:
			undeclared = append(undeclared, formLabel(f))
		}
	}
	if searches := len(o.forms) - len(actions); searches > 0 {
		out.notes = append(out.notes, fmt.Sprintf("%d plain site search form(s), not counted as actions", searches))
	}
	if len(undeclared) > 0 {
		out.notes = append(out.notes, "undeclared action forms: "+strings.Join(undeclared, "; "))
	}
	if len(unregistered) > 0 {
		out.notes = append(out.notes, "form tools with a toolname but no tooldescription, which browsers do not register: "+strings.Join(unregistered, "; "))
	}
	docRegs, navRegs := o.registrations()
	if navRegs > 0 {
		out.notes = append(out.notes, fmt.Sprintf("%d tool(s) registered only through navigator.modelContext: current browsers expose document.modelContext, and navigator.modelContext.registerTool fails there", navRegs))
	}
	notRead := o.notRead()
	if notRead != "" {
		out.notes = append(out.notes, "not read: "+notRead)
	}
	formsText := fmt.Sprintf("%d of %d action forms declared with toolname and tooldescription", registered, len(actions))
	if named > 0 {
		formsText += fmt.Sprintf(" (%d more with a toolname only)", named)
	}
	switch {
	case docRegs > 0:
		out.verdict = VerdictPass
		out.received = fmt.Sprintf("the page registers %d tool(s) through %s; %s", len(o.scripts), scriptAPIs(o.scripts), formsText)
	case len(actions) > 0 && registered == len(actions):
		out.verdict, out.received = VerdictPass, formsText
	case navRegs > 0:
		out.verdict = VerdictPartial
		out.received = fmt.Sprintf("the page registers %d tool(s) only through navigator.modelContext, which current browsers no longer expose; %s", navRegs, formsText)
	case registered > 0 || named > 0:
		out.verdict, out.received = VerdictPartial, formsText
	case notRead != "":
		// What was not read might declare the page's actions.
		out.verdict = VerdictUnverified
		out.received = "no declared tools in what was read; not read: " + notRead
	case len(actions) > 0:
		out.verdict, out.received = VerdictFail, formsText+", and no script registers a tool"
	default:
		out.verdict, out.received = VerdictNotApplicable, "no action: no form other than a plain site search, and no tool registration, in every script and page read"
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
