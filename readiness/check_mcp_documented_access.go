package readiness

import "github.com/agentweb/agentweb/internal/plural"

func init() {
	register(checkDef{id: "mcp_documented_access", needs: []resource{resCards}, run: checkMCPDocumentedAccess})
}

// checkMCPDocumentedAccess: the service states which capabilities need a token
// and which do not (the check catalogue, Connect; method Section 07). The
// card's sign-in section may name public and token-requiring capabilities. Or a
// card interface is stated open while nothing asks for a token. Saying only
// that sign-in exists is partial: a sign-in type, scopes in protected resource
// metadata, a Bearer challenge. It is not applicable without MCP.
func checkMCPDocumentedAccess(s *scan) outcome {
	o := s.mcpRead()
	out := outcome{requests: o.requests}
	if v, why, ok := mcpPrecondition(o); !ok {
		out.verdict, out.received = v, why
		return out
	}
	where, stated := o.documented()
	switch {
	case where != "":
		out.verdict, out.received = VerdictPass, "stated in "+where
		if c := o.card; c != nil && c.Auth != nil && (len(c.Auth.Public) > 0 || len(c.Auth.TokenRequired) > 0) {
			out.received += fmtCounts(len(c.Auth.Public), len(c.Auth.TokenRequired))
		}
	case stated:
		out.verdict, out.received = VerdictPartial, "sign-in exists, but nothing states which capabilities need a token and which do not"
	default:
		out.verdict, out.received = VerdictFail, "nothing states what needs a token: no sign-in section in the card, no scopes, no challenge"
	}
	if o.signin != nil && o.signin.prmURL != "" {
		out.requests = append(out.requests, o.signin.tried...)
	}
	return out
}

func fmtCounts(public, token int) string {
	return ": " + plural.N(public, "public capability", "public capabilities") + ", " + plural.N(token, "capability needs a token", "capabilities need a token")
}

// mcpPrecondition decides the Connect checks that need an MCP endpoint: not
// applicable when there is none, unverified when a declared one did not
// answer.
func mcpPrecondition(o *mcpRead) (Verdict, string, bool) {
	if o.isMCP() {
		return "", "", true
	}
	if o.probe.unanswered() != nil {
		// Whether declared or only guessed, an unanswered probe is not an
		// absence.
		return VerdictUnverified, "the MCP endpoint " + o.endpoint + " did not answer", false
	}
	return VerdictNotApplicable, "no MCP endpoint answered as MCP", false
}
