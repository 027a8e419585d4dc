package readiness

import "github.com/agentweb/agentweb/internal/webread"

func init() {
	register(checkDef{id: "vary_accept", needs: []resource{resPage, resMDForm}, run: checkVaryAccept})
}

// checkVaryAccept: the HTML form names Accept in Vary, so caches keep the two
// forms apart (the agent-readiness scoring method, Section 04, "Vary: Accept, every
// time"). Not applicable when the page has no Markdown form.
func checkVaryAccept(s *scan) outcome {
	m := s.mdFormRead()
	p := s.pageRead()
	out := outcome{requests: append([]*fetched{p.f}, m.requestsUsed...), notes: []string{"read from one page"}}
	if m.unverified {
		out.verdict, out.received = VerdictUnverified, "whether a Markdown form exists is unknown: "+m.why
		return out
	}
	if !m.exists() {
		out.verdict, out.received = VerdictNotApplicable, "the page has no Markdown form"
		return out
	}
	if !p.f.answered() {
		out.verdict, out.received = VerdictUnverified, p.f.why()
		return out
	}
	mt, _ := p.f.mediaType()
	want := webread.Preferred(p.f.accept, formOffers)
	switch {
	case mt != want:
		out.verdict, out.received = VerdictFail, describe(p.f)+", not "+want
	case variesOnAccept(p.f.resp.Header):
		out.verdict, out.received = VerdictPass, describe(p.f)
	default:
		out.verdict, out.received = VerdictFail, describe(p.f)+": a cache may hand agents the wrong form"
	}
	return out
}
