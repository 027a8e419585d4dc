package readiness

// specRef is one published text a check's fix follows: its title with the
// section that applies, and its public address.
type specRef struct {
	Title string
	URL   string
}

// packageDoc is where a check without a published text of its own is
// explained: this package's documentation.
const packageDoc = "https://pkg.go.dev/github.com/agentweb/agentweb/readiness"

// Published texts several checks follow.
var (
	refRFC8288     = specRef{"RFC 8288, Web Linking, §3 (the Link header field)", "https://www.rfc-editor.org/rfc/rfc8288#section-3"}
	refRFC9110Neg  = specRef{"RFC 9110, HTTP Semantics, §12 (content negotiation)", "https://www.rfc-editor.org/rfc/rfc9110#section-12"}
	refRFC9110Vary = specRef{"RFC 9110, HTTP Semantics, §12.5.5 (Vary)", "https://www.rfc-editor.org/rfc/rfc9110#section-12.5.5"}
	refRFC7763     = specRef{"RFC 7763, The text/markdown Media Type, §2", "https://www.rfc-editor.org/rfc/rfc7763#section-2"}
	refRFC8414     = specRef{"RFC 8414, OAuth 2.0 Authorization Server Metadata, §3", "https://www.rfc-editor.org/rfc/rfc8414#section-3"}
	refRFC9728     = specRef{"RFC 9728, OAuth 2.0 Protected Resource Metadata, §3 and §5", "https://www.rfc-editor.org/rfc/rfc9728#section-3"}
	refMCPAuth     = specRef{"MCP 2025-11-25, Authorization", "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization"}
	refMCPLife     = specRef{"MCP 2025-11-25, Lifecycle (initialization)", "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle"}
	refMCPTools    = specRef{"MCP 2025-11-25, Tools (listing tools)", "https://modelcontextprotocol.io/specification/2025-11-25/server/tools"}
	refWebMCP      = specRef{"WebMCP, W3C Web Machine Learning Community Group draft (declarative and imperative tools)", "https://webmachinelearning.github.io/webmcp/"}
	refSchemaOrg   = specRef{"schema.org, Organization", "https://schema.org/Organization"}
	refJSONLD      = specRef{"JSON-LD 1.1, §6 (embedding JSON-LD in HTML documents)", "https://www.w3.org/TR/json-ld11/#embedding-json-ld-in-html-documents"}
	refAgentsJSON  = specRef{"agents.json (the capability card formats in use)", "https://github.com/wild-card-ai/agents-json"}
	refHTMLMeta    = specRef{"HTML Living Standard, §4.2.5.1 (standard metadata names)", "https://html.spec.whatwg.org/multipage/semantics.html#standard-metadata-names"}
	refMethod      = specRef{"the agent-readiness scoring method 1.2 as this package reads it (its catalogue)", packageDoc}
)

// specRefs holds, for every check of the catalogue, the published texts
// that say what passes, the one to read first first. A test keeps it
// complete.
var specRefs = map[string][]specRef{
	"sitemap":                  {{"sitemaps.org, Sitemaps XML format (and \"Informing search engine crawlers\")", "https://www.sitemaps.org/protocol.html"}, {"RFC 9309, Robots Exclusion Protocol, §2.2.4 (other records)", "https://www.rfc-editor.org/rfc/rfc9309#section-2.2.4"}},
	"llms_txt":                 {{"The /llms.txt file, Format", "https://llmstxt.org/#format"}},
	"capability_manifest":      {refAgentsJSON},
	"manifest_twins":           {refAgentsJSON},
	"discovery_links":          {refRFC8288, {"IANA Link Relations registry (describedby)", "https://www.iana.org/assignments/link-relations/link-relations.xhtml"}},
	"ai_crawler_access":        {{"RFC 9309, Robots Exclusion Protocol, §2.2 (rules and user agents)", "https://www.rfc-editor.org/rfc/rfc9309#section-2.2"}},
	"language_and_canonical":   {{"HTML Living Standard, §3.2.6.2 (the lang attribute)", "https://html.spec.whatwg.org/multipage/dom.html#the-lang-and-xml:lang-attributes"}, {"RFC 6596, The Canonical Link Relation, §3", "https://www.rfc-editor.org/rfc/rfc6596#section-3"}},
	"structured_business_data": {refSchemaOrg, refJSONLD},
	"identity_node":            {{"schema.org, Organization (name, url, logo, sameAs)", "https://schema.org/Organization"}},
	"content_freshness":        {{"schema.org, dateModified", "https://schema.org/dateModified"}},
	"page_metadata":            {refHTMLMeta, {"HTML Living Standard, §4.2.2 (the title element)", "https://html.spec.whatwg.org/multipage/semantics.html#the-title-element"}},
	"initial_html_content":     {refMethod},
	"markdown_representation":  {refRFC9110Neg, refRFC7763},
	"vary_accept":              {refRFC9110Vary},
	"markdown_alternate_link":  {refRFC8288, {"HTML Living Standard, §4.6.7.1 (link type alternate)", "https://html.spec.whatwg.org/multipage/links.html#rel-alternate"}},
	"markdown_frontmatter":     {refMethod, refRFC7763},
	"page_actions_declared":    {refWebMCP},
	"page_tool_quality":        {refWebMCP},
	"page_tool_permissions":    {{"Permissions Policy, §5 (the Permissions-Policy header field)", "https://www.w3.org/TR/permissions-policy/#permissions-policy-http-header-field"}, refWebMCP},
	"backend_interface_declared": {{"MCP 2025-11-25, Transports (Streamable HTTP)", "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports"},
		{"OpenAPI Specification 3.1", "https://spec.openapis.org/oas/v3.1.0"}},
	"mcp_discovery":               {refMCPLife, refMCPTools},
	"mcp_documented_access":       {refMCPAuth, refRFC9728},
	"mcp_signin_discovery":        {refRFC9728, refRFC8414, refMCPAuth},
	"mcp_tested_execution":        {refMCPTools},
	"human_handoff":               {{"schema.org, ContactPoint", "https://schema.org/ContactPoint"}, {"RFC 6068, The 'mailto' URI Scheme", "https://www.rfc-editor.org/rfc/rfc6068"}},
	"access_policy":               {refAgentsJSON, refRFC9728},
	"auth_discovery":              {refRFC8414, refRFC9728, {"agent-identity-v1 discovery fields", "https://agentregistrar.dev/agent-identity/v1/"}},
	"mcp_server_card":             {{"MCP Server Cards (SEP-2127)", "https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127"}},
	"a2a_agent_card":              {{"Agent2Agent (A2A) Protocol, §5 (agent discovery: the agent card)", "https://a2a-protocol.org/latest/specification/"}},
	"api_catalog":                 {{"RFC 9727, api-catalog: A Well-Known URI and Link Relation, §4", "https://www.rfc-editor.org/rfc/rfc9727#section-4"}},
	"agentic_site_profile":        {{"Agentic Site Profile 1.1", "https://github.com/sam1siam/agentic"}},
	"knowledge_linkset":           {{"knowledge-linkset well-known URI (Internet-Draft)", "https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/"}},
	"openagent_profile":           {{"OpenAgent 0.1", "https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md"}},
	"agent_signup":                {{"agent-identity-v1 discovery fields", "https://agentregistrar.dev/agent-identity/v1/"}},
	"dynamic_client_registration": {{"RFC 7591, OAuth 2.0 Dynamic Client Registration Protocol, §3", "https://www.rfc-editor.org/rfc/rfc7591#section-3"}},
}

// refsOf returns the published texts of a check, or this package's
// documentation when it has none.
func refsOf(id string) []specRef {
	if r := specRefs[id]; len(r) > 0 {
		return r
	}
	return []specRef{{"readiness package documentation", packageDoc}}
}
