package readiness

import (
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/htmlhead"
)

// mdForm is the page's Markdown form as the scan found it (the agent-readiness
// scoring method, Section 04): by negotiation, or only at an announced alternate URL.
type mdForm struct {
	negotiated   *fetched // GET the page with Accept: text/markdown
	isMD         bool     // negotiation returned Markdown
	alt          *fetched // the announced alternate, read when negotiation did not give Markdown
	altMD        bool
	unverified   bool
	why          string // when unverified
	body         []byte // the Markdown read
	bodyFrom     string
	requestsUsed []*fetched
}

func (m *mdForm) exists() bool { return m.isMD || m.altMD }

// isMarkdown reports a 200 answer in the Markdown media type.
func isMarkdown(f *fetched) bool {
	if !f.ok() || f.status() != 200 {
		return false
	}
	mt, _ := f.mediaType()
	return mt == "text/markdown" || mt == "text/x-markdown"
}

// markdownRead asks for the given page as Markdown, once per scan.
func (s *scan) markdownRead() *fetched {
	return readOnce(s, "markdown", func() *fetched { return s.get(s.page.String(), acceptMarkdown) })
}

// mdFormRead reads the page's Markdown form, once per scan.
func (s *scan) mdFormRead() *mdForm { return readOnce(s, "md-form", s.readMDForm) }

func (s *scan) readMDForm() *mdForm {
	m := &mdForm{negotiated: s.markdownRead()}
	m.requestsUsed = []*fetched{m.negotiated}
	if !m.negotiated.answered() {
		m.unverified, m.why = true, "the Markdown request: "+m.negotiated.why()
		return m
	}
	if isMarkdown(m.negotiated) {
		m.isMD, m.body, m.bodyFrom = true, m.negotiated.body(), m.negotiated.url
		return m
	}
	p := s.pageRead()
	if !p.f.answered() {
		m.unverified, m.why = true, "the page: "+p.f.why()
		return m
	}
	alts := markdownAlternates(p)
	if len(alts.header)+len(alts.head) == 0 {
		return m
	}
	var target string
	for _, t := range append(alts.header, alts.head...) {
		if u, err := url.Parse(t); err == nil && s.sameSite(u) {
			target = t
			break
		}
	}
	if target == "" {
		return m
	}
	m.alt = s.get(target, acceptMarkdown)
	m.requestsUsed = append(m.requestsUsed, m.alt)
	if !m.alt.answered() {
		m.unverified, m.why = true, "the announced Markdown alternate: "+m.alt.why()
		return m
	}
	if isMarkdown(m.alt) {
		m.altMD, m.body, m.bodyFrom = true, m.alt.body(), m.alt.url
	}
	return m
}

// alternates holds the Markdown alternates a page announces, in its Link
// header and in its <head>.
type alternates struct {
	header, head []string
}

func isMarkdownType(t string) bool {
	mt, _, _ := strings.Cut(t, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "text/markdown" || mt == "text/x-markdown"
}

// markdownAlternates lists rel=alternate type=text/markdown links of a page.
func markdownAlternates(p *pageRead) alternates {
	var a alternates
	if p == nil {
		return a
	}
	for _, l := range p.headerLinks {
		if l.HasRel("alternate") && isMarkdownType(l.Type) {
			a.header = append(a.header, l.Target)
		}
	}
	if p.head != nil {
		for _, l := range p.head.Links {
			if hasRel(l, "alternate") && isMarkdownType(l.Type) {
				a.head = append(a.head, l.Href)
			}
		}
	}
	return a
}

func hasRel(l htmlhead.Link, rel string) bool {
	for _, r := range l.Rel {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// formOffers are the two forms of a page (the agent-readiness scoring method,
// Section 04). They are in the order a server that ignores Accept serves them.
// The scanner asks for a form with an Accept header. It judges the answer
// against the form that header prefers, never by substring. That is RFC 9110
// negotiation, the same code the publish kit answers with.
var formOffers = []string{"text/html", "text/markdown"}
