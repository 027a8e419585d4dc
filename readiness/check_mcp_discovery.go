package readiness

import (
	"fmt"
	"net/http"
	"strings"
)

func init() {
	register(checkDef{id: "mcp_discovery", needs: []resource{resCards}, run: checkMCPDiscovery})
}

// checkMCPDiscovery: the MCP endpoint answers, negotiates a version it
// returns and lists its tools without a token (readiness-checks.md, Connect;
// method §07, "finding a capability is not permission to use it": this is
// discovery only). Answering initialize while listing needs a token (a 401
// with sign-in metadata) is partial: a 401 is not a failure of discovery.
// Not applicable when no MCP endpoint is found.
func checkMCPDiscovery(s *scan) outcome {
	o := s.mcpObs()
	p := o.probe
	out := outcome{requests: o.requests, records: p.records(), notes: append([]string{"endpoint from " + o.source}, o.notes...)}
	init := p.initExchange()
	signinMeta := o.challenge["resource_metadata"] != "" || (o.signin != nil && (o.signin.prm != nil || o.signin.as != nil))
	switch {
	case p.initialized && p.listed:
		out.verdict = VerdictPass
		out.received = fmt.Sprintf("initialize answered (%s negotiated), %d tool(s) listed without a token in %d page(s)", p.negotiated, p.tools, p.pages)
		if p.pageCapped {
			out.notes = append(out.notes, fmt.Sprintf("stopped after %d pages of tools: more tools may exist", mcpMaxPages))
		}
	case p.initialized && exchangeStatus(p.listExchange()) == http.StatusUnauthorized:
		out.verdict = VerdictPartial
		out.received = fmt.Sprintf("initialize answered (%s negotiated); tools/list needs a token (401)", p.negotiated)
	case o.challenge != nil && signinMeta:
		out.verdict = VerdictPartial
		out.received = "the endpoint answers 401 with a Bearer challenge and sign-in metadata: listing needs a token"
	case p.initialized:
		out.verdict = VerdictPartial
		out.received = fmt.Sprintf("initialize answered (%s negotiated), but tools/list failed: %s", p.negotiated, probeErr(p.listErr))
	case p.returned != "":
		out.verdict = VerdictPartial
		out.received = fmt.Sprintf("initialize answered with protocol version %q, which the client does not support: %s", p.returned, probeErr(p.connectErr))
	case p.unanswered() != nil:
		e := p.unanswered()
		out.verdict = VerdictUnverified
		out.received = fmt.Sprintf("%s %s: %s", e.Method, e.URL, first(e.Error, "no answer"))
	case init != nil && refused(init.Status):
		out.verdict = VerdictUnverified
		out.received = fmt.Sprintf("initialize: the server answered %d: a refusal or failure is not an answer", init.Status)
	case init == nil:
		out.verdict = VerdictUnverified
		out.received = "no initialize request was made: " + probeErr(p.connectErr)
	case !o.declared:
		out.verdict = VerdictNotApplicable
		out.received = fmt.Sprintf("no MCP endpoint: %s answered %d %s, and no card names one", o.endpoint, init.Status, first(init.ContentType, "(no type)"))
	default:
		out.verdict = VerdictFail
		out.received = fmt.Sprintf("not MCP: initialize at %s answered %d %s", o.endpoint, init.Status, first(init.ContentType, "(no type)"))
	}
	if p.readOnly > 0 {
		out.notes = append(out.notes, fmt.Sprintf("%d of %d tools declare readOnlyHint (reported, not scored: a hint is not behaviour)", p.readOnly, p.tools))
	}
	out.mcp = o.mcpReceipt(out.verdict)
	return out
}

func exchangeStatus(e *exchange) int {
	if e == nil {
		return 0
	}
	return e.Status
}

// refused reports the statuses that are a refusal or failure, not an answer
// (as fetched.answered); 401 is judged by the MCP checks themselves.
func refused(code int) bool {
	switch {
	case code == 403, code == 407, code == 408, code == 425, code == 429, code >= 500:
		return true
	}
	return false
}

func probeErr(err error) string {
	if err == nil {
		return "no error"
	}
	return truncate(clean(strings.TrimPrefix(err.Error(), "calling \"")), 200)
}
