package readiness

import (
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
)

func init() {
	register(checkDef{id: "access_policy", needs: []resource{resCards, resPage}, run: checkAccessPolicy})
}

// checkAccessPolicy: R10, a stated position on who may do what (the check
// catalogue, Trust). It is the card's sign-in section or an auth statement for
// each interface of the card. The card's policies, an agent-auth resource in
// agentic.json or a terms-of-service link on the page state one too. Sign-in
// that exists (a 401, OAuth, agent sign-up or Agent Auth metadata) with no
// statement of what needs it is partial.
func checkAccessPolicy(s *scan) outcome {
	cards := s.cardsRead()
	out := outcome{requests: []*fetched{cards.wellKnown.f, cards.root.f}}
	var stated []string
	for _, cp := range []*cardCopy{cards.wellKnown, cards.root} {
		c := cp.card
		if c == nil {
			continue
		}
		switch {
		case c.Auth != nil:
			stated = append(stated, "the sign-in section of the card at "+cp.f.url)
		case len(c.Interfaces) > 0 && allInterfacesStateAuth(c):
			stated = append(stated, "an auth statement for each interface of the card at "+cp.f.url)
		case c.Policies:
			stated = append(stated, "the policies of the card at "+cp.f.url)
		default:
			continue
		}
		break
	}
	if a := s.agenticRead(); a.value != nil {
		out.requests = append(out.requests, a.f)
		for _, r := range agenticResources(a.value) {
			if r.kind == "agent-auth" {
				stated = append(stated, "an agent-auth resource in agentic.json ("+shorten.Runes(clean(r.url), 120)+")")
				break
			}
		}
	}
	if p := s.pageRead(); p.readable() {
		out.requests = append(out.requests, p.f)
		for _, l := range p.headerLinks {
			if l.HasRel("terms-of-service") {
				stated = append(stated, "a terms-of-service link ("+shorten.Runes(clean(l.Target), 120)+")")
				break
			}
		}
		for _, l := range p.head.Links {
			if hasRel(l, "terms-of-service") {
				stated = append(stated, "a terms-of-service link ("+shorten.Runes(clean(l.Href), 120)+")")
				break
			}
		}
	}
	if len(stated) > 0 {
		out.verdict, out.received = VerdictPass, "stated in "+strings.Join(dedupe(stated), "; ")
		return out
	}
	var exists []string
	m := s.mcpRead()
	if m.probe.unauthorized() != nil {
		exists = append(exists, "the MCP endpoint answers 401")
	}
	if m.signin != nil && m.signin.as != nil {
		exists = append(exists, "OAuth metadata at "+m.signin.asURL)
		out.requests = append(out.requests, m.signin.tried...)
	}
	if o := s.oauthRead(); o.present {
		exists = append(exists, "OAuth metadata at "+o.f.url)
		out.requests = append(out.requests, o.f)
	}
	if d := s.signupRead(); d.present {
		exists = append(exists, "agent sign-up discovery at "+d.f.url)
		out.requests = append(out.requests, d.f)
	}
	if ac := s.agentConfigRead(); ac.present {
		exists = append(exists, "an Agent Auth configuration at "+ac.f.url)
		out.requests = append(out.requests, ac.f)
	}
	switch {
	case len(exists) > 0:
		out.verdict = VerdictPartial
		out.received = "sign-in exists (" + strings.Join(dedupe(exists), "; ") + "), but nothing states who may do what"
	case !cards.wellKnown.f.answered() || !cards.root.f.answered():
		out.verdict = VerdictUnverified
		out.received = "agents.json: " + firstUnanswered(cards.wellKnown.f, cards.root.f).why()
	default:
		out.verdict = VerdictFail
		out.received = "no statement of who may do what: no sign-in section or interface auth in a card, no policy, no terms link"
	}
	return out
}

func allInterfacesStateAuth(c *card) bool {
	for _, it := range c.Interfaces {
		if it.Auth == "" {
			return false
		}
	}
	return true
}
