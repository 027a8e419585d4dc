package readiness

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/plural"
)

func init() {
	register(checkDef{id: "auth_discovery", needs: []resource{resCards}, run: checkAuthDiscovery})
}

// checkAuthDiscovery: where sign-in is needed, its discovery is
// machine-readable and valid (the check catalogue, Trust). It may be OAuth
// metadata: the MCP endpoint's, the card's auth.metadata, or the origin's RFC
// 8414 document. It may be /.well-known/agent-signup.json, validated with
// package agentsignup. It may be an Agent Auth configuration at
// /.well-known/agent-configuration. One valid document passes; an invalid one
// beside it is named in the notes. Documents present but all invalid are
// partial. It is not applicable when nothing needs sign-in.
func checkAuthDiscovery(s *scan) outcome {
	out := outcome{}
	m := s.mcpRead()
	needed := m.authNeeded
	if c := m.card; c != nil {
		if c.Auth != nil && !isNoAuth(c.Auth.Type) && (c.Auth.Type != "" || len(c.Auth.TokenRequired) > 0 || (c.Auth.Required != nil && *c.Auth.Required) || len(c.Auth.Methods) > 0) {
			needed = true
		}
		for _, it := range c.Interfaces {
			if it.Auth != "" && !isNoAuth(it.Auth) {
				needed = true
			}
		}
	}
	var valid, invalid []string
	unanswered := false
	if si := m.signin; si != nil {
		out.requests = append(out.requests, si.tried...)
		switch {
		case si.resolved:
			valid = append(valid, "OAuth metadata at "+si.asURL)
		case si.as != nil || si.prm != nil:
			invalid = append(invalid, "OAuth metadata for the MCP endpoint: "+strings.Join(si.problems, "; "))
		}
	}
	o := s.oauthRead()
	out.requests = append(out.requests, o.f)
	switch {
	case o.meta != nil && len(o.problems) == 0:
		valid = append(valid, "OAuth metadata at "+o.f.url)
	case o.present:
		invalid = append(invalid, "OAuth metadata at "+o.f.url+": "+strings.Join(o.problems, "; "))
	}
	if !o.f.answered() {
		unanswered = true
	}
	d := s.signupRead()
	out.requests = append(out.requests, d.f)
	switch {
	case d.doc != nil:
		valid = append(valid, "agent sign-up discovery at "+d.f.url)
	case d.present:
		invalid = append(invalid, "agent sign-up discovery at "+d.f.url+": "+signupProblems(d.err))
	}
	if !d.f.answered() {
		unanswered = true
	}
	ac := s.agentConfigRead()
	out.requests = append(out.requests, ac.f)
	switch {
	case ac.present && ac.err == nil:
		valid = append(valid, "an Agent Auth configuration at "+ac.f.url)
	case ac.present:
		invalid = append(invalid, "Agent Auth configuration at "+ac.f.url+": "+clean(ac.err.Error()))
	}
	if !ac.f.answered() {
		unanswered = true
	}
	if len(valid)+len(invalid) > 0 {
		needed = true
	}
	out.notes = invalid
	cards := s.cardsRead()
	if !cards.wellKnown.f.answered() || !cards.root.f.answered() || m.probe.unanswered() != nil {
		// Whether sign-in is needed is itself unknown.
		unanswered = true
	}
	switch {
	case !needed && unanswered:
		out.verdict, out.received = VerdictUnverified, "whether sign-in is needed is unknown: the card, the MCP endpoint or a discovery document did not answer"
	case !needed:
		out.verdict, out.received = VerdictNotApplicable, "nothing needs sign-in: no 401, no sign-in in the card, no sign-in document"
	case len(valid) > 0:
		// One valid way to discover sign-in is what the check asks for; an
		// invalid document beside it is named in the notes (and in its own
		// optional convention's receipt).
		out.verdict, out.received = VerdictPass, "machine-readable sign-in discovery: "+strings.Join(dedupe(valid), "; ")
		if len(invalid) > 0 {
			out.received += fmt.Sprintf(" (and %s, see notes)", plural.N(len(invalid), "invalid document", "invalid documents"))
		}
	case len(invalid) > 0:
		out.verdict, out.received = VerdictPartial, "sign-in discovery present but invalid: "+strings.Join(invalid, "; ")
	case unanswered:
		out.verdict, out.received = VerdictUnverified, "sign-in is needed and some discovery documents did not answer"
	default:
		out.verdict, out.received = VerdictFail, "sign-in is needed but no OAuth metadata, agent-signup.json or Agent Auth configuration is published"
	}
	return out
}

// signupProblems lists the problems of an agentsignup validation error.
func signupProblems(err error) string {
	var ve *agentsignup.ValidationError
	if errors.As(err, &ve) {
		var ps []string
		for i, p := range ve.Problems {
			if i == 5 {
				ps = append(ps, "…")
				break
			}
			ps = append(ps, p.Pointer+" "+p.Rule)
		}
		return strings.Join(ps, ", ")
	}
	if err != nil {
		return clean(err.Error())
	}
	return ""
}
