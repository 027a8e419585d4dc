package readiness

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
)

func init() {
	register(checkDef{id: "page_tool_quality", needs: []resource{resPage, resPages}, run: checkPageToolQuality})
}

// checkPageToolQuality: each declared page tool has a name and a description
// (the check catalogue, Act; the WebMCP declarative API explainer). A
// declarative form also has a toolparamdescription on each named control. A
// tool registered through navigator.modelContext is not fully described: that
// form is deprecated, since Chrome 150, for document.modelContext. With a
// [Renderer], the tools are those the browser registered, with the name and
// description it reports.
//
// It is not applicable when no tool is declared in everything read. It is
// unverified when no tool is found but a script or an app shell's content was
// not read. It is unverified too when no read tool falls short but a script
// registers a tool whose name or description is not a literal. The scan cannot
// read such a value (a variable, a computed value) without running the script.
// Could not check is never a pass, and never a fail (the scoring method,
// Section 06).
func checkPageToolQuality(s *scan) outcome {
	o := s.toolsRead()
	out := outcome{requests: o.requests, scope: o.scope(), records: o.renderRecords()}
	total, complete := 0, 0
	var gaps []string
	gap := func(s string) {
		if len(gaps) < 8 {
			gaps = append(gaps, s)
		}
	}
	for _, f := range o.forms {
		if !f.declared() {
			continue
		}
		total++
		var missing []string
		if f.toolDesc == "" {
			missing = append(missing, "no tooldescription")
		}
		var bare []string
		for _, c := range f.controls {
			if !c.paramDesc {
				bare = append(bare, c.name)
			}
		}
		if len(bare) > 0 {
			missing = append(missing, "no toolparamdescription on "+strings.Join(bare, ", "))
		}
		if len(missing) == 0 {
			complete++
		} else {
			gap(fmt.Sprintf("form tool %q on %s: %s", shorten.Runes(clean(f.toolName), 60), f.page, strings.Join(missing, "; ")))
		}
	}
	unread := 0
	for _, t := range o.scripts {
		if !t.rendered && !t.literal && t.api != apiNavigator && (t.name == "" || !t.description) {
			// The registration's name or description is not a literal after the
			// call: a variable, a computed value. The scan never runs the
			// script, so it cannot tell a full description from none.
			unread++
			gap(fmt.Sprintf("registered tool in %s: its name or description is built by the script, unread without running it", t.source))
			continue
		}
		total++
		var missing []string
		if t.api == apiNavigator {
			missing = append(missing, "registered through navigator.modelContext, the deprecated form (Chrome 150 deprecates it for document.modelContext)")
		}
		switch {
		case t.rendered && t.name == "":
			missing = append(missing, "no name")
		case t.name == "":
			missing = append(missing, "no literal name")
		}
		switch {
		case t.rendered && !t.description:
			missing = append(missing, "no description")
		case !t.description:
			missing = append(missing, "no literal description")
		}
		if len(missing) == 0 {
			complete++
		} else {
			label := t.name
			if label == "" {
				label = "(unnamed)"
			}
			gap(fmt.Sprintf("registered tool %q in %s: %s", shorten.Runes(clean(label), 60), t.source, strings.Join(missing, "; ")))
		}
	}
	out.notes = gaps
	if current, _ := o.formsText(); len(current) > 0 {
		// The annotations tell an agent what a tool does to the page and
		// what it returns: credited, never required.
		out.notes = append(out.notes, "current WebMCP forms read: "+strings.Join(current, "; "))
	}
	if r := o.renderedSummary(); r != "" {
		out.notes = append(out.notes, r)
	}
	switch {
	case total == 0 && len(o.pages) == 0 && !s.pageRead().f.answered():
		out.verdict, out.received = VerdictUnverified, "the page: "+s.pageRead().f.why()
	case unread > 0 && (total == 0 || complete == total):
		out.verdict = VerdictUnverified
		out.received = fmt.Sprintf("%s whose name or description a script builds, unread without a browser", plural.N(unread, "registered tool", "registered tools"))
		if total > 0 {
			out.received += fmt.Sprintf("; the other %s fully described", plural.N(total, "tool", "tools"))
		}
	case total == 0 && o.notRead() != "":
		out.verdict, out.received = VerdictUnverified, "no page tool in what was read; not read: "+o.notRead()
	case total == 0:
		out.verdict, out.received = VerdictNotApplicable, "no page tool is declared"
	case complete == total:
		out.verdict, out.received = VerdictPass, fmt.Sprintf("all %s a name, a description and described parameters", plural.N(total, "tool has", "tools have"))
	case complete > 0:
		out.verdict, out.received = VerdictPartial, fmt.Sprintf("%d of %s fully described", complete, plural.N(total, "tool", "tools"))
	default:
		out.verdict, out.received = VerdictFail, fmt.Sprintf("none of %s fully described", plural.N(total, "tool", "tools"))
	}
	return out
}
