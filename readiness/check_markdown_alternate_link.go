package readiness

func init() {
	register(checkDef{id: "markdown_alternate_link", needs: []resource{resPage, resMDForm}, run: checkMarkdownAlternateLink})
}

// checkMarkdownAlternateLink: the page announces its Markdown form with
// rel=alternate type=text/markdown in its Link header and in its <head> (the
// agent-readiness scoring method, Section 04). Not applicable when there is no Markdown
// form.
func checkMarkdownAlternateLink(s *scan) outcome {
	m := s.mdFormRead()
	p := s.pageRead()
	out := outcome{requests: []*fetched{p.f}, notes: []string{"read from one page"}}
	if m.unverified {
		out.requests = append(out.requests, m.requestsUsed...)
		out.verdict, out.received = VerdictUnverified, "whether a Markdown form exists is unknown: "+m.why
		return out
	}
	if !m.exists() {
		out.requests = append(out.requests, m.requestsUsed...)
		out.verdict, out.received = VerdictNotApplicable, "the page has no Markdown form"
		return out
	}
	if !p.f.answered() {
		out.verdict, out.received = VerdictUnverified, p.f.why()
		return out
	}
	a := markdownAlternates(p)
	out.verdict, out.received = announcedIn(len(a.header) > 0, len(a.head) > 0,
		"announced in the Link header only",
		"announced in the <head> only",
		"no rel=alternate type=text/markdown link")
	return out
}
