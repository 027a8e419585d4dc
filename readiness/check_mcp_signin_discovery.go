package readiness

import (
	"fmt"
	"strings"
)

func init() {
	register(checkDef{id: "mcp_signin_discovery", needs: []resource{resCards}, run: checkMCPSigninDiscovery})
}

// checkMCPSigninDiscovery: OAuth metadata resolves by the rules of the
// negotiated protocol version. Its issuer and resource match, and PKCE S256 is
// advertised (the check catalogue, Connect; method Section 07, "version-aware
// probes"). Metadata without S256 is partial. So is, from 2025-06-18, only the
// origin's RFC 8414 metadata without protected resource metadata. It is not
// applicable when every tool lists and nothing asks for a token.
func checkMCPSigninDiscovery(s *scan) outcome {
	o := s.mcpRead()
	out := outcome{requests: o.requests}
	if v, why, ok := mcpPrecondition(o); !ok {
		out.verdict, out.received = v, why
		return out
	}
	si := o.signin
	if !o.authNeeded || si == nil {
		out.verdict, out.received = VerdictNotApplicable, "every tool lists without a token and nothing asks for one"
		return out
	}
	out.requests = si.tried
	out.notes = append([]string{"rules of " + si.rules}, si.problems...)
	switch {
	case si.resolved && si.as.HasS256() && !si.legacyFallback:
		out.verdict = VerdictPass
		out.received = fmt.Sprintf("metadata resolves at %s, issuer%s match, PKCE %s", si.asURL, resourceToo(si), strings.Join(si.as.CodeChallengeMethodsSupported, ", "))
	case si.resolved && !si.as.HasS256():
		out.verdict = VerdictPartial
		out.received = "metadata resolves at " + si.asURL + ", but code_challenge_methods_supported does not contain S256"
	case si.resolved:
		out.verdict = VerdictPartial
		out.received = "only the origin's RFC 8414 metadata at " + si.asURL + ": no protected resource metadata, which " + si.version + " requires"
	case si.unanswered != nil:
		out.verdict = VerdictUnverified
		out.received = si.unanswered.url + ": " + si.unanswered.why()
	default:
		out.verdict = VerdictFail
		out.received = "sign-in metadata does not resolve"
		if f := si.failure; f != nil {
			out.received += fmt.Sprintf(": %s (%s, the %s rules): %s", f.URL, f.Rule, f.Version, f.Problem)
		} else {
			out.received += ": no discovery document was requested"
		}
	}
	return out
}

func resourceToo(si *signinResult) string {
	if si.prm != nil {
		return " and resource"
	}
	return ""
}
