package readiness

import "github.com/agentweb/agentweb/internal/shorten"

func init() {
	register(checkDef{id: "agent_signup", run: checkAgentSignup})
}

// checkAgentSignup: the optional agent-identity-v1 sign-up discovery
// document at /.well-known/agent-signup.json, validated with
// agentsignup.Parse. Its warnings (unknown fields) are notes, and do not
// make the document invalid.
func checkAgentSignup(s *scan) outcome {
	d := s.signupRead()
	problems := problemNotes(d.err)
	what := "agent-identity-v1 sign-up discovery"
	if d.doc != nil {
		what += " for " + shorten.Runes(clean(d.doc.ProviderName), 80)
		for _, w := range d.doc.Warnings {
			problems = append(problems, "warning: "+problemNote(w))
		}
		if len(problems) > 0 {
			// Warnings alone do not make the document invalid.
			out := convention(d.f, true, what, nil)
			out.notes = capNotes(problems)
			return out
		}
	}
	return convention(d.f, d.present, what, problems)
}
