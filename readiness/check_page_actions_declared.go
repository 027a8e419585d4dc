package readiness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
)

func init() {
	register(checkDef{id: "page_actions_declared", needs: []resource{resPage, resPages}, run: checkPageActionsDeclared})
}

// checkPageActionsDeclared: R8, where a page offers an action it declares it as
// a page tool (the check catalogue, Act). Every action form carries a WebMCP
// toolname and tooldescription; browsers register no declarative tool without a
// description. Or the page registers tools with
// document.modelContext.registerTool. Those are found by reading every script
// the pages load, within [MaxScripts] and [MaxScriptBytes]. With a [Renderer],
// the browser that ran them finds them. Tools registered only through the older
// navigator.modelContext are partial, since current browsers no longer expose
// it. So are forms with a toolname but no tooldescription. A plain site search
// is not an action.
//
// A page with no other form is not applicable only when every script and the
// page's content were read. Some things may hold the actions: a script that did
// not answer or was over the bounds, or an app shell that no browser rendered.
// An app shell is a short page with a script that runs, whose content a script
// builds. Each makes the check unverified, never not applicable. The method's
// Section 06 says could not check is never a pass; Section 07 says findings
// state their scope.
func checkPageActionsDeclared(s *scan) (out outcome) {
	o := s.toolsRead()
	out = outcome{requests: o.requests, scope: o.scope(), notes: o.notes, records: o.renderRecords()}
	rendered := o.renderedSummary()
	withRendering := func(s string) string {
		if rendered == "" {
			return s
		}
		return s + "; " + rendered
	}
	defer func() { out.received = withRendering(out.received) }()
	if len(o.pages) == 0 {
		p := s.pageRead()
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
				unregistered = append(unregistered, fmt.Sprintf("%q on %s", shorten.Runes(clean(f.toolName), 60), f.page))
			}
		case len(undeclared) < 5:
			undeclared = append(undeclared, formLabel(f))
		}
	}
	if searches := len(o.forms) - len(actions); searches > 0 {
		out.notes = append(out.notes, fmt.Sprintf("%s, not counted as actions", plural.N(searches, "plain site search form", "plain site search forms")))
	}
	if len(undeclared) > 0 {
		out.notes = append(out.notes, "undeclared action forms: "+strings.Join(undeclared, "; "))
	}
	if len(unregistered) > 0 {
		out.notes = append(out.notes, "form tools with a toolname but no tooldescription, which browsers do not register: "+strings.Join(unregistered, "; "))
	}
	docRegs, navRegs := o.registrations()
	current, deprecated := o.formsText()
	if len(current) > 0 {
		out.notes = append(out.notes, "current WebMCP forms read: "+strings.Join(current, "; "))
	}
	if len(deprecated) > 0 {
		out.notes = append(out.notes, "deprecated WebMCP forms read: "+strings.Join(deprecated, "; "))
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
		out.received = o.registrationText() + "; " + formsText
	case len(actions) > 0 && registered == len(actions):
		out.verdict, out.received = VerdictPass, formsText
	case navRegs > 0:
		out.verdict = VerdictPartial
		out.received = o.registrationText() + ", only through navigator.modelContext, the deprecated form (Chrome 150 deprecates it for document.modelContext); " + formsText
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
		if o.sources > 0 {
			out.received += fmt.Sprintf(" (%s)", plural.N(o.sources, "script", "scripts"))
		}
	}
	return out
}

// registrationText counts the tool registrations found, and where. Calls of
// registerTool (or provideContext) are read in script text; each may register
// one tool or, in a loop, several. Tools a browser registered while rendering
// are counted one by one.
func (o *toolsRead) registrationText() string {
	var read, ran []scriptTool
	for _, t := range o.scripts {
		if t.rendered {
			ran = append(ran, t)
		} else {
			read = append(read, t)
		}
	}
	var parts []string
	if len(ran) > 0 {
		parts = append(parts, fmt.Sprintf("the browser registered %s through %s", plural.N(len(ran), "tool", "tools"), apiDocument))
	}
	if len(read) > 0 {
		var sources []string
		for _, t := range read {
			if !slices.Contains(sources, t.source) {
				sources = append(sources, t.source)
			}
		}
		where := strings.Join(sources[:min(3, len(sources))], ", ")
		if len(sources) > 3 {
			where += fmt.Sprintf(" and %d more", len(sources)-3)
		}
		parts = append(parts, fmt.Sprintf("%s through %s, read in %s", plural.N(len(read), "tool registration call", "tool registration calls"), scriptAPIs(read), where))
	}
	return strings.Join(parts, "; ")
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
	return fmt.Sprintf("%s form → %s on %s", strings.ToUpper(m), shorten.Runes(clean(a), 80), f.page)
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
