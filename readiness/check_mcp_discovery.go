package readiness

import (
	"fmt"
	"github.com/agentweb/agentweb/internal/plural"

	"github.com/agentweb/agentweb/readiness/mcpprobe"
)

func init() {
	register(checkDef{id: "mcp_discovery", needs: []resource{resCards}, run: checkMCPDiscovery})
}

// checkMCPDiscovery: the MCP endpoint answers, negotiates a version it returns
// and lists its tools without a token. That is the check catalogue, Connect,
// and method Section 07: "finding a capability is not permission to use it".
// This is discovery only. The probe is package mcpprobe's. An endpoint that
// asks for a token with a Bearer challenge, before or after initialize, is
// partial: a 401 is not a failure of discovery. A transport failure, a time-out
// or a cap is unverified, never a version problem (method Section 06). It is
// not applicable when no MCP endpoint is found.
func checkMCPDiscovery(s *scan) outcome {
	o := s.mcpRead()
	p := o.probe
	r := p.r
	out := outcome{requests: o.requests, records: p.records(), notes: append([]string{"endpoint from " + o.source}, o.notes...)}
	// What a 2026-07-28 server left out of its answers, by that version's
	// rules: named, never scored.
	out.notes = append(out.notes, r.Omissions...)
	switch r.Outcome {
	case mcpprobe.OutcomeListed:
		out.verdict = VerdictPass
		out.received = fmt.Sprintf("initialize answered (%s negotiated), %s listed without a token in %s", r.Protocol.Negotiated, plural.N(r.Tools.ListedWithoutToken, "tool", "tools"), plural.N(r.Tools.Pages, "page", "pages"))
		if r.Tools.PagesCapped {
			out.notes = append(out.notes, fmt.Sprintf("stopped after %d pages of tools: more tools may exist", mcpMaxPages))
		}
	case mcpprobe.OutcomeSignInRequired:
		out.verdict = VerdictPartial
		if r.Initialize {
			out.received = fmt.Sprintf("initialize answered (%s negotiated); tools/list needs a token (401 with a Bearer challenge)", r.Protocol.Negotiated)
		} else {
			out.received = "the endpoint answers 401 with a Bearer challenge before any version is negotiated: listing needs a token"
		}
		if si := o.signin; si != nil && si.resolved {
			out.received += "; sign-in metadata at " + si.asURL
		} else if r.Auth.Challenge != nil && r.Auth.Challenge.ResourceMetadata == "" {
			out.received += "; the challenge names no resource_metadata"
		}
	case mcpprobe.OutcomeInitialized, mcpprobe.OutcomeUnsupportedVersion:
		out.verdict = VerdictPartial
		out.received = r.Reason
	case mcpprobe.OutcomeUnanswered:
		out.verdict = VerdictUnverified
		out.received = r.Reason
	default:
		if !o.declared {
			out.verdict = VerdictNotApplicable
			out.received = "no MCP endpoint: " + r.Reason + ", and no card names one"
		} else {
			out.verdict = VerdictFail
			out.received = "not MCP: " + r.Reason
		}
	}
	if r.Tools.WithReadOnlyHint > 0 {
		out.notes = append(out.notes, fmt.Sprintf("%d of %d tools declare readOnlyHint (reported, not scored: a hint is not behaviour)", r.Tools.WithReadOnlyHint, r.Tools.ListedWithoutToken))
	}
	out.mcp = o.mcpReceipt(out.verdict)
	return out
}
