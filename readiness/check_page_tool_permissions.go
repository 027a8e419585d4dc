package readiness

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "page_tool_permissions", needs: []resource{resPage, resPages}, run: checkPageToolPermissions})
}

// checkPageToolPermissions: the Permissions-Policy "tools" feature of the page
// that declares tools. That is the check catalogue, Act, and the
// agent-readiness scoring method Section 07, "the default is a policy". No
// tools entry means the default allowlist 'self' applies, which passes; so does
// tools=(self ...). tools=* is partial. tools=() fails while the page declares
// tools, and so does an allowlist without the page's own origin. It is not
// applicable when no tool is declared in everything read. It is unverified when
// a script or an app shell's content was not read.
func checkPageToolPermissions(s *scan) outcome {
	o := s.toolsRead()
	if o.tools() == 0 {
		out := outcome{requests: o.requests, scope: o.scope()}
		if len(o.pages) == 0 && !s.pageRead().f.answered() {
			out.verdict, out.received = VerdictUnverified, "the page: "+s.pageRead().f.why()
			return out
		}
		if nr := o.notRead(); nr != "" {
			out.verdict, out.received = VerdictUnverified, "no page tool in what was read; not read: "+nr
			return out
		}
		out.verdict, out.received = VerdictNotApplicable, "no page tool is declared"
		return out
	}
	// The policy of the first route that declares a tool (the given page
	// when it does).
	p := o.pages[0]
	for _, q := range o.pages {
		if pageDeclaresTools(o, q.url) {
			p = q
			break
		}
	}
	out := outcome{requests: []*fetched{p.f}, scope: []string{p.url}}
	origin := webread.Origin(p.url)
	pol := webread.ParseToolsPolicy(p.f.resp.Header.Values("Permissions-Policy"), origin)
	out.received = describeToolsPolicy(pol)
	if pol.Invalid != nil {
		out.notes = append(out.notes, "Permissions-Policy does not parse: "+clean(pol.Invalid.Error()))
	}
	switch pol.Kind {
	case webread.ToolsPolicyDefault, webread.ToolsPolicySelf:
		out.verdict = VerdictPass
		if pol.Kind == webread.ToolsPolicyDefault {
			out.notes = append(out.notes, "an explicit tools=(self) allowlist is hardening on top of the default, not a requirement")
		}
	case webread.ToolsPolicyAll:
		out.verdict = VerdictPartial
		out.notes = append(out.notes, "tools=* lets frames of any site use the page's tools; the missing half is an allowlist of the origins that need them")
	default:
		out.verdict = VerdictFail
	}
	return out
}

func pageDeclaresTools(o *toolsRead, page string) bool {
	for _, f := range o.forms {
		if f.page == page && f.declared() {
			return true
		}
	}
	for _, t := range o.scripts {
		if t.source == page {
			return true
		}
	}
	return false
}

// describeToolsPolicy says what a Permissions-Policy tools member means,
// for receipts.
func describeToolsPolicy(p webread.ToolsPolicy) string {
	switch p.Kind {
	case webread.ToolsPolicySelf:
		if len(p.Origins) > 0 {
			return fmt.Sprintf("%s: the page's own origin and %d more", p.Member, len(p.Origins))
		}
		return p.Member + ": the page's own origin"
	case webread.ToolsPolicyAll:
		return p.Member + ": every origin, frames of other sites included"
	case webread.ToolsPolicyNone:
		if len(p.Origins) > 0 {
			return p.Member + ": other origins only, not the page's own"
		}
		return p.Member + ": tools disabled"
	}
	if p.Invalid != nil {
		return "a Permissions-Policy header that is not a structured-field dictionary (browsers ignore it): the default allowlist 'self' applies"
	}
	return "no tools entry: the default allowlist 'self' applies"
}
