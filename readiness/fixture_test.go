package readiness

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fixedReport is the report behind the golden files. It holds every check
// of the catalogue and every verdict, receipts with headers and bodies, and
// text that needs escaping in each form. One section (Act) leaves the total
// because none of its checks applies.
func fixedReport() *Report {
	site := "https://shop.example/"
	page := []string{site}
	res := func(id string, v Verdict, received string, reqs ...RequestRecord) CheckResult {
		return CheckResult{ID: id, Verdict: v, Scope: page, Receipt: Receipt{
			Requests: reqs, Expected: "see the catalogue", Received: received,
		}}
	}
	get := func(u string, accept string, status int, media string, body string) RequestRecord {
		rr := RequestRecord{Method: "GET", URL: u, Response: &ResponseRecord{Status: status, MediaType: media, Bytes: len(body), Body: body}}
		if accept != "" {
			rr.Headers = map[string]string{"Accept": accept}
		}
		return rr
	}
	results := []CheckResult{
		res("sitemap", VerdictPass, "urlset with 3 locs, all on shop.example", get(site+"sitemap.xml", "", 200, "application/xml", `<?xml version="1.0"?><urlset ...>`)),
		res("llms_txt", VerdictPartial, "H1 only: no Markdown link", get(site+"llms.txt", "", 200, "text/plain", "# Shop <b>&amp;</b> | pipes")),
		res("capability_manifest", VerdictPass, "card (agentweb) naming interfaces and contact", get(site+".well-known/agents.json", "", 200, "application/json", `{"name":"Example Shop"}`)),
		res("manifest_twins", VerdictNotApplicable, "no copy of agents.json"),
		{ID: "discovery_links", Verdict: VerdictUnverified, Scope: page, Receipt: Receipt{
			Requests: []RequestRecord{{Method: "GET", URL: site, Headers: map[string]string{"Accept": "text/html"}, Error: "safefetch: request timed out"}},
			Expected: "describedby in header and head", Received: "no answer: timeout", Notes: []string{"a timeout is never a pass nor a fail"},
		}},
		res("ai_crawler_access", VerdictPass, "search and user agents allowed; training blocked (free)"),
		res("language_and_canonical", VerdictPass, `lang="en", canonical https://shop.example/`),
		res("structured_business_data", VerdictFail, "no JSON-LD"),
		res("identity_node", VerdictFail, "no identity node"),
		res("content_freshness", VerdictNotApplicable, "no CreativeWork node"),
		res("page_metadata", VerdictPartial, "<title> only"),
		res("initial_html_content", VerdictPass, "h1 and 812 characters of text"),
		res("markdown_representation", VerdictPartial, "text/markdown without Vary: Accept",
			get(site, "text/markdown", 200, "text/markdown", "---\ncanonical: https://shop.example/\n---\n# Shop")),
		func() CheckResult {
			r := res("vary_accept", VerdictFail, "no Vary header")
			r.Fix = "Send `Vary: Accept` with every HTML response of a page that also has a <Markdown> form."
			return r
		}(),
		res("markdown_alternate_link", VerdictPass, "in Link header and <head>"),
		res("markdown_frontmatter", VerdictPartial, "canonical only"),
		res("page_actions_declared", VerdictNotApplicable, "no action form and no script registering tools"),
		res("page_tool_quality", VerdictNotApplicable, "no declared tool"),
		res("page_tool_permissions", VerdictNotApplicable, "no declared tool"),
		res("backend_interface_declared", VerdictPass, "MCP endpoint https://shop.example/mcp answers",
			RequestRecord{Method: "POST", URL: site + "mcp", Headers: map[string]string{"MCP-Protocol-Version": "2025-06-18"},
				Response: &ResponseRecord{Status: 200, MediaType: "application/json", Bytes: 2, Body: "{}"}}),
		res("mcp_discovery", VerdictPartial, "initialize answered; tools/list needs a token"),
		res("mcp_documented_access", VerdictFail, "no statement of which capabilities need a token"),
		{ID: "mcp_signin_discovery", Verdict: VerdictUnverified, Scope: page, Receipt: Receipt{
			Requests: []RequestRecord{{Method: "GET", URL: site + ".well-known/oauth-protected-resource", Error: "safefetch: budget exhausted"}},
			Expected: "see the catalogue", Received: "no answer: budget exhausted",
		}},
		res("mcp_tested_execution", VerdictUnverified, "never executed: the scanner holds no credentials"),
		res("human_handoff", VerdictPass, "mailto: link <support@shop.example> on the page"),
		res("access_policy", VerdictPartial, "sign-in exists; no statement of who may do what"),
		res("auth_discovery", VerdictNotApplicable, "no sign-in"),
		res("mcp_server_card", VerdictOptional, "absent (https://shop.example/.well-known/mcp.json: 404)"),
		res("a2a_agent_card", VerdictOptional, "absent (https://shop.example/.well-known/agent-card.json: 404)"),
		res("api_catalog", VerdictOptional, "absent (https://shop.example/.well-known/api-catalog: 404)"),
		{ID: "agentic_site_profile", Verdict: VerdictOptional, Scope: page, Receipt: Receipt{
			Expected: "see the catalogue", Received: "found at https://shop.example/agentic.json, with 1 validation problem: an Agentic Site Profile",
			Notes: []string{"/resources/0/url [url-https] must be an https URL"},
		}},
		res("knowledge_linkset", VerdictOptional, "absent (https://shop.example/.well-known/knowledge-linkset: 404)"),
		res("openagent_profile", VerdictOptional, "found: an OpenAgent 0.1 profile at https://shop.example/.well-known/openagent.json"),
		res("agent_signup", VerdictUnverified, "https://shop.example/.well-known/agent-signup.json: 503"),
		res("dynamic_client_registration", VerdictOptional, "absent: no OAuth metadata"),
	}
	scope := Scope{
		Routes: []string{site, site + "about"},
		Budget: BudgetUse{Attempts: 9, Bytes: 48213, PeakConcurrency: 5, MaxAttempts: 48, MaxBytes: 8 << 20},
	}
	r, err := Compose(site, time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC), results, scope)
	if err != nil {
		panic(err)
	}
	return r
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}
