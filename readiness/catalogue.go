package readiness

// This file holds the check catalogue as data: the six sections and their
// points (the agent-readiness scoring method, Section 02), the ten requirements
// (Section 03) and every check with its id, section, weight and requirement. The
// method fixes the sections, points, requirements and verdicts but publishes
// no checks; this catalogue is this package's reading of it, 27 scored checks
// and 8 optional conventions. The engine scores from these tables only; a
// check's code (one file per check) supplies the verdict and receipt and
// nothing else.

// MethodVersion is the version of the agent-readiness scoring method the
// reports follow (its Section 07 lists what changed in 1.2).
const MethodVersion = "1.2"

// SectionID names one of the six sections (the agent-readiness scoring
// method, Section 02).
type SectionID string

// The section ids, as they appear in every form of the report.
const (
	SectionDiscover   SectionID = "discover"
	SectionUnderstand SectionID = "understand"
	SectionRead       SectionID = "read"
	SectionAct        SectionID = "act"
	SectionConnect    SectionID = "connect"
	SectionTrust      SectionID = "trust"
)

// Section describes one section of the method: its id, its title, the question
// it asks and the points it is worth (the agent-readiness scoring method,
// Section 02).
type Section struct {
	ID       SectionID
	Title    string
	Layer    string
	Question string
	Points   float64
}

// Requirement is one of the ten clauses R1–R10 that decide whether a site is
// ready (the agent-readiness scoring method, Section 03), with the catalogue checks
// that prove it. R10 has two checks and needs both.
type Requirement struct {
	ID     string
	Layer  string
	Text   string
	Checks []string
}

// CheckSpec is one row of the check catalogue ([Catalogue]): a stable
// snake_case id, which every form of the report uses, its section, its weight in that section, the requirement it
// proves (empty for a diagnostic), whether it is an optional convention (weight
// 0, verdict optional), what it requests and what passes.
type CheckSpec struct {
	ID          string
	Title       string
	Section     SectionID
	Requirement string
	Weight      float64
	Optional    bool
	Request     string
	Expected    string
}

var sectionTable = [...]Section{
	{SectionDiscover, "Discover", "Discovery", "Can AI agents find your content?", 15},
	{SectionUnderstand, "Understand", "Semantics", "Can agents understand your business correctly?", 15},
	{SectionRead, "Read", "Content", "Can agents use your content efficiently?", 20},
	{SectionAct, "Act", "Actions", "Can agents take actions on your site?", 20},
	{SectionConnect, "Connect", "Remote capabilities", "Can external agents call your systems?", 20},
	{SectionTrust, "Trust", "Security", "Can agents authenticate, confirm actions, and reach a human?", 10},
}

var requirementTable = [...]Requirement{
	{"R1", "Content", "Important content is present in the initial HTML.", []string{"initial_html_content"}},
	{"R2", "Content", "A page can expose its own Markdown representation.", []string{"markdown_representation"}},
	{"R3", "Discovery", "The site publishes a sitemap.", []string{"sitemap"}},
	{"R4", "Discovery", "The site publishes llms.txt.", []string{"llms_txt"}},
	{"R5", "Discovery", "The site publishes a machine-readable capability manifest.", []string{"capability_manifest"}},
	{"R6", "Semantics", "Pages declare their language and canonical URL.", []string{"language_and_canonical"}},
	{"R7", "Semantics", "The site publishes structured business or product metadata.", []string{"structured_business_data"}},
	{"R8", "Actions", "Where a page offers any action, it declares it as a web (page) action.", []string{"page_actions_declared"}},
	{"R9", "Actions", "Where the service offers any tool or API, it declares a backend agent tool or API.", []string{"backend_interface_declared"}},
	{"R10", "Security", "Authentication, authorization and human handoff are explicit.", []string{"human_handoff", "access_policy"}},
}

var catalogueTable = [...]CheckSpec{
	// Discover (15)
	{"sitemap", "Sitemap", SectionDiscover, "R3", 4, false,
		"Sitemap: lines of /robots.txt, else /sitemap.xml",
		"a real urlset or sitemapindex (sitemaps.org 0.9 namespace, gzip-compressed or not) whose locs, and those of the child sitemaps read, are on the site's own host (www/apex counterpart allowed)"},
	{"llms_txt", "llms.txt", SectionDiscover, "R4", 4, false,
		"GET /llms.txt",
		"an H1 line, at least one Markdown link and at least 50 characters, served as text/plain or text/markdown (the body is judged: an HTML document fails whatever its label)"},
	{"capability_manifest", "Capability manifest", SectionDiscover, "R5", 4, false,
		"GET /.well-known/agents.json and /agents.json",
		"a JSON object card naming at least one publication, interface, sign-in or contact"},
	{"manifest_twins", "Manifest twins agree", SectionDiscover, "", 1, false,
		"the two agents.json copies",
		"both copies present and JSON-equal (JCS bytes), or only one copy"},
	{"discovery_links", "Discovery links", SectionDiscover, "", 1, false,
		"the page's Link headers and <head>",
		"describedby llms.txt (or the card) announced in the Link header and in the <head>"},
	{"ai_crawler_access", "AI crawler access", SectionDiscover, "", 1, false,
		"GET /robots.txt",
		"AI search/citation and user-initiated agents may read the page (blocking training crawlers costs nothing)"},
	// Understand (15)
	{"language_and_canonical", "Language and canonical URL", SectionUnderstand, "R6", 6, false,
		"the page",
		"<html lang> with a valid BCP 47 tag and an absolute same-site rel=canonical"},
	{"structured_business_data", "Structured business data", SectionUnderstand, "R7", 6, false,
		"JSON-LD in the page",
		"a JSON-LD node of a business or product type with name and url, every block parsing"},
	{"identity_node", "Identity node", SectionUnderstand, "", 1, false,
		"JSON-LD",
		"the identity node has name, url, and logo or sameAs"},
	{"content_freshness", "Content freshness", SectionUnderstand, "", 1, false,
		"JSON-LD",
		"CreativeWork-family nodes carry dateModified"},
	{"page_metadata", "Page metadata", SectionUnderstand, "", 1, false,
		"the page",
		"<title> and <meta name=description>"},
	// Read (20)
	{"initial_html_content", "Content in the initial HTML", SectionRead, "R1", 7, false,
		"GET the page without running scripts",
		"a heading and at least 200 characters of visible text outside script, style, template and noscript; on a page that runs no script, a heading and any visible text (it cannot be an app shell)"},
	{"markdown_representation", "Markdown representation", SectionRead, "R2", 7, false,
		"GET the page with Accept: text/markdown",
		"200, text/markdown; charset=utf-8, Vary: Accept"},
	{"vary_accept", "Vary: Accept on HTML", SectionRead, "", 2, false,
		"GET the page with Accept: text/html",
		"HTML with a Vary header naming Accept"},
	{"markdown_alternate_link", "Markdown alternate link", SectionRead, "", 2, false,
		"the page's Link headers and <head>",
		"rel=alternate type=text/markdown in the Link header and in the <head>"},
	{"markdown_frontmatter", "Markdown front matter", SectionRead, "", 2, false,
		"the Markdown form",
		"front matter with canonical, updated (a date) and language"},
	// Act (20)
	{"page_actions_declared", "Page actions declared", SectionAct, "R8", 12, false,
		"the page's forms and scripts",
		"every action form is declared as a page tool (toolname and tooldescription), or the page registers tools with document.modelContext; unverified when a script or an app shell's content was not read"},
	{"page_tool_quality", "Page tool quality", SectionAct, "", 4, false,
		"the declared tools",
		"each tool has a name, a description and a description of each named control"},
	{"page_tool_permissions", "Page tool permissions", SectionAct, "", 4, false,
		"the Permissions-Policy header",
		"no tools entry (the default allowlist 'self') or tools=(self ...)"},
	// Connect (20)
	{"backend_interface_declared", "Backend interface declared", SectionConnect, "R9", 8, false,
		"the card, agentic.json, Link headers, /.well-known/mcp.json, /openapi.json, /mcp",
		"a live interface: an MCP endpoint that answers, an OpenAPI 3 document, a GraphQL schema, or a card interface that answers"},
	{"mcp_discovery", "MCP discovery", SectionConnect, "", 4, false,
		"MCP server/discover offering 2026-07-28, then initialize offering 2025-11-25, notifications/initialized, tools/list without a token",
		"answers, negotiates a version it returns, lists tools"},
	{"mcp_documented_access", "MCP documented access", SectionConnect, "", 3, false,
		"the card's sign-in section, protected-resource metadata, the tool list",
		"the service states which capabilities need a token and which do not"},
	{"mcp_signin_discovery", "MCP sign-in discovery", SectionConnect, "", 3, false,
		"OAuth metadata, version-aware",
		"metadata resolves, issuer and resource match, code_challenge_methods_supported contains S256"},
	{"mcp_tested_execution", "MCP tested execution", SectionConnect, "", 2, false,
		"none: never executed",
		"unverified wherever something callable was found (the scanner holds no credentials and never calls an unknown tool); not applicable when nothing callable was"},
	// Trust (10)
	{"human_handoff", "Human handoff", SectionTrust, "R10", 4, false,
		"the page, llms.txt, the card, JSON-LD",
		"a way to reach a person: mailto, a contact page, a JSON-LD contactPoint or email, or a contact in llms.txt or the card"},
	{"access_policy", "Access policy", SectionTrust, "R10", 4, false,
		"the card, agentic.json, protected-resource metadata",
		"a stated position on who may do what"},
	{"auth_discovery", "Auth discovery", SectionTrust, "", 2, false,
		"OAuth metadata, /.well-known/agent-signup.json, /.well-known/agent-configuration",
		"where sign-in is needed, its discovery is machine-readable and valid"},
	// Optional conventions (weight 0)
	{"mcp_server_card", "MCP server card", SectionConnect, "", 0, true,
		"/.well-known/mcp/server-card (SEP-2127), else /.well-known/mcp.json or /.well-known/mcp/server-card.json", "found or absent"},
	{"a2a_agent_card", "A2A agent card", SectionConnect, "", 0, true,
		"/.well-known/agent-card.json", "found or absent"},
	{"api_catalog", "API catalog (RFC 9727)", SectionConnect, "", 0, true,
		"/.well-known/api-catalog", "found or absent"},
	{"agentic_site_profile", "Agentic site profile", SectionDiscover, "", 0, true,
		"/agentic.json and /agentic.txt", "found or absent"},
	{"knowledge_linkset", "Knowledge linkset", SectionDiscover, "", 0, true,
		"/.well-known/knowledge-linkset", "found or absent"},
	{"openagent_profile", "OpenAgent profile", SectionDiscover, "", 0, true,
		"/.well-known/openagent.json", "found or absent"},
	{"agent_signup", "Agent sign-up discovery", SectionTrust, "", 0, true,
		"/.well-known/agent-signup.json", "found or absent"},
	{"dynamic_client_registration", "Dynamic client registration", SectionTrust, "", 0, true,
		"registration_endpoint or client ID metadata documents", "found or absent"},
}

// Sections returns the six sections in report order (the agent-readiness
// scoring method, Section 02).
func Sections() []Section {
	out := make([]Section, len(sectionTable))
	copy(out, sectionTable[:])
	return out
}

// Requirements returns the ten requirements R1–R10 (the agent-readiness
// scoring method, Section 03).
func Requirements() []Requirement {
	out := make([]Requirement, len(requirementTable))
	for i, r := range requirementTable {
		r.Checks = append([]string(nil), r.Checks...)
		out[i] = r
	}
	return out
}

// Catalogue returns every check this package scores by, the 27 scored checks
// and the 8 optional conventions, in catalogue order: its reading of the
// agent-readiness scoring method, which publishes no checks of its own.
// Every scan runs all of them.
func Catalogue() []CheckSpec {
	out := make([]CheckSpec, len(catalogueTable))
	copy(out, catalogueTable[:])
	return out
}

func specOf(id string) (CheckSpec, bool) {
	for _, c := range catalogueTable {
		if c.ID == id {
			return c, true
		}
	}
	return CheckSpec{}, false
}

func sectionOf(id SectionID) (Section, bool) {
	for _, s := range sectionTable {
		if s.ID == id {
			return s, true
		}
	}
	return Section{}, false
}
