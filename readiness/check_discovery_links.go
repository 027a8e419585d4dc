package readiness

import (
	"net/url"
	"path"
	"strings"
)

func init() {
	register(checkDef{id: "discovery_links", needs: []resource{resPage}, run: checkDiscoveryLinks})
}

// announces reports whether a link points an agent at llms.txt or the card (the
// agent-readiness scoring method, Section 04, "link headers that point the
// way"). That is rel describedby to llms.txt or agents.json, or rel alternate
// to agents.json.
func announces(rels []string, target string) bool {
	u, err := url.Parse(target)
	if err != nil {
		return false
	}
	base := strings.ToLower(path.Base(u.Path))
	has := func(r string) bool {
		for _, x := range rels {
			if strings.EqualFold(x, r) {
				return true
			}
		}
		return false
	}
	return (has("describedby") && (base == "llms.txt" || base == "agents.json")) ||
		(has("alternate") && base == "agents.json")
}

// checkDiscoveryLinks: the page announces llms.txt or the card in its Link
// header and in its <head> (the check catalogue, Discover).
func checkDiscoveryLinks(s *scan) outcome {
	p := s.pageRead()
	out := outcome{requests: []*fetched{p.f}}
	if !p.f.answered() {
		out.verdict, out.received = VerdictUnverified, p.f.why()
		return out
	}
	inHeader, inHead := false, false
	if p.f.resp != nil {
		for _, l := range p.headerLinks {
			if announces(l.Rel, l.Target) {
				inHeader = true
			}
		}
	}
	if p.linkErr != nil {
		out.notes = append(out.notes, "the Link header holds more links than are read: "+clean(p.linkErr.Error()))
	}
	if p.linkGrammar != nil {
		out.notes = append(out.notes, "the Link header was read as RFC 8288 Appendix B reads it, but strays from the grammar a publisher must write (section 3): "+clean(p.linkGrammar.Error()))
	}
	if p.head != nil {
		for _, l := range p.head.Links {
			if announces(l.Rel, l.Href) {
				inHead = true
			}
		}
	}
	out.verdict, out.received = announcedIn(inHeader, inHead,
		"announced in the Link header only, not in the <head>",
		"announced in the <head> only, not in the Link header",
		"neither the Link header nor the <head> points at llms.txt or agents.json")
	return out
}

// announcedIn judges a link a check wants in both places a page can
// announce it: pass for the Link header and the <head>, partial for one of
// them, fail for neither. The three texts say what was received in the
// partial and failing cases.
func announcedIn(inHeader, inHead bool, headerOnly, headOnly, neither string) (Verdict, string) {
	switch {
	case inHeader && inHead:
		return VerdictPass, "announced in the Link header and in the <head>"
	case inHeader:
		return VerdictPartial, headerOnly
	case inHead:
		return VerdictPartial, headOnly
	}
	return VerdictFail, neither
}
