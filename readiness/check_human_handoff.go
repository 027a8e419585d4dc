package readiness

import (
	"fmt"
	"regexp"
	"strings"
)

func init() {
	register(checkDef{id: "human_handoff", needs: []resource{resPage, resPages, resLLMs, resCards}, run: checkHumanHandoff})
}

var (
	// contactPath matches the path of a contact page.
	contactPath = regexp.MustCompile(`(?i)(^|/)(contact|contact-us|contactus|kontakt|contacto|support|help|impressum|imprint)(/|\.html?)?$`)
	// llmsContact matches a contact stated in llms.txt: a mailto link, an
	// e-mail address, or a contact link.
	llmsContact = regexp.MustCompile(`(?i)mailto:|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|\[[^\]]*(contact|support|kontakt)[^\]]*\]\(`)
)

// checkHumanHandoff: R10, a way to reach a person (the check catalogue, Trust;
// method Section 07, "handoff contacts need no crawl"). It is a mailto: link or
// a link to a contact page on a route the scan read. A JSON-LD contactPoint or
// email, or a contact in llms.txt or the card, counts too.
func checkHumanHandoff(s *scan) outcome {
	out := outcome{}
	var found []string
	var scope []string
	pages := append([]*pageRead{s.pageRead()}, s.extraPages()...)
	answered := false
	for _, p := range pages {
		if p == nil {
			continue
		}
		out.requests = append(out.requests, p.f)
		if !p.readable() {
			continue
		}
		answered = true
		scope = append(scope, p.url)
		for _, a := range p.anchors {
			switch {
			case strings.EqualFold(a.Scheme, "mailto") && a.Opaque != "":
				found = append(found, "a mailto: link on "+p.url)
			case s.sameOrigin(a) && contactPath.MatchString(strings.TrimSuffix(a.Path, "/")):
				found = append(found, "a link to the contact page "+a.String()+" on "+p.url)
			default:
				continue
			}
			break
		}
		for _, n := range p.ld.Nodes {
			if n.Has("contactPoint") || n.Has("email") || (n.Is(set("ContactPoint")) && (n.Has("telephone") || n.Has("url"))) {
				found = append(found, "JSON-LD contact data on "+p.url)
				break
			}
		}
	}
	llms := s.llmsRead()
	out.requests = append(out.requests, llms)
	if llms.ok() && !looksLikeHTML(llms.body()) && llmsContact.Match(llms.body()) {
		found = append(found, "a contact in llms.txt")
		answered = true
	}
	cards := s.cardsRead()
	out.requests = append(out.requests, cards.wellKnown.f, cards.root.f)
	for _, cp := range []*cardCopy{cards.wellKnown, cards.root} {
		if cp.card != nil && cp.card.Contact != nil {
			found = append(found, "a contact in the card at "+cp.f.url)
			break
		}
	}
	out.scope = scope
	switch {
	case len(found) > 0:
		out.verdict = VerdictPass
		out.received = fmt.Sprintf("a way to reach a person: %s", strings.Join(dedupe(found), "; "))
	case !answered || !llms.answered() || !cards.wellKnown.f.answered() || !cards.root.f.answered():
		out.verdict = VerdictUnverified
		out.received = "no contact in what answered; " + firstUnanswered(pages[0].f, llms, cards.wellKnown.f, cards.root.f).why()
	default:
		out.verdict = VerdictFail
		out.received = "no mailto: link, contact page link, JSON-LD contact, llms.txt contact or card contact"
	}
	return out
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
