package readiness

// This file holds the check catalogue as data. It has the six sections and
// their points (the agent-readiness scoring method, Section 02) and the ten
// requirements (Section 03). It has every check with its id, section, weight,
// requirement and fix. The method fixes the sections, points, requirements and
// verdicts but publishes no checks. This catalogue is this package's reading of
// it: 27 scored checks and 8 optional conventions. The engine scores from these
// tables only. A check's code, one file per check, supplies the verdict and
// receipt and nothing else.

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

// CheckSpec is one row of the check catalogue ([Catalogue]). It has a stable
// snake_case id, which every form of the report uses, its section and its
// weight in that section. It names the requirement it proves, empty for a
// diagnostic. It says whether it is an optional convention (weight 0, verdict
// optional), what it requests and what passes.
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

// checkRow is one row of the catalogue: the public spec and what the report
// does with the check. A check's whole contract is on its row.
type checkRow struct {
	spec CheckSpec
	// fix is what to publish or change so that the check passes. The report
	// gives it for fail, partial and unverified; an optional convention has
	// none.
	fix string
	// neverVerifiable marks a check no scan can answer: the scanner never
	// calls a tool and holds no credentials (the scoring method, Section
	// 07, "no perfect connection score"). Its unverified verdict gets its
	// own fix, never the advice to scan again, and never enters the
	// fix-first list.
	neverVerifiable bool
}

// catalogueTable is the catalogue. The fix names the publish kit's field
// where the kit does the work: "Site.X" is a field of
// github.com/agentweb/agentweb/readiness/publish.
var catalogueTable = [...]checkRow{
	// Discover (15)
	{spec: CheckSpec{"sitemap", "Sitemap", SectionDiscover, "R3", 4, false,
		"Sitemap: lines of /robots.txt, else /sitemap.xml",
		"a real urlset or sitemapindex (sitemaps.org 0.9 namespace, gzip-compressed or not) whose locs, and those of the child sitemaps read, are on the site's own host (www/apex counterpart allowed)"},
		fix: "Publish /sitemap.xml as a sitemaps.org 0.9 urlset whose loc values are on this host, and name it in robots.txt with a Sitemap line; publish.Site.Pages does both.",
	},
	{spec: CheckSpec{"llms_txt", "llms.txt", SectionDiscover, "R4", 4, false,
		"GET /llms.txt",
		"an H1 line, at least one Markdown link and at least 50 characters, served as text/plain or text/markdown (the body is judged: an HTML document fails whatever its label)"},
		fix: "Serve /llms.txt as text/plain: an H1 with the site's name, a one-line summary and Markdown links to the pages that matter; publish.Site.Handler builds it from Name, Description and Pages.",
	},
	{spec: CheckSpec{"capability_manifest", "Capability manifest", SectionDiscover, "R5", 4, false,
		"GET /.well-known/agents.json and /agents.json",
		"a JSON object card naming at least one publication, interface, sign-in or contact"},
		fix: "Publish a capability card at /.well-known/agents.json (and /agents.json) naming what the site publishes, its interfaces, how to sign in and whom to contact; publish.Site.Handler serves one built from the site's facts, or Site.Card.",
	},
	{spec: CheckSpec{"manifest_twins", "Manifest twins agree", SectionDiscover, "", 1, false,
		"the two agents.json copies",
		"both copies present and JSON-equal (JCS bytes), or only one copy"},
		fix: "Serve the same card at /.well-known/agents.json and /agents.json; publish.Site.Handler serves both from one value.",
	},
	{spec: CheckSpec{"discovery_links", "Discovery links", SectionDiscover, "", 1, false,
		"the page's Link headers and <head>",
		"describedby llms.txt (or the card) announced in the Link header and in the <head>"},
		fix: `Announce llms.txt with a Link header (rel="describedby") and the same <link> in the page head; publish.Site.Handler adds both to every page.`,
	},
	{spec: CheckSpec{"ai_crawler_access", "AI crawler access", SectionDiscover, "", 1, false,
		"GET /robots.txt",
		"AI search/citation and user-initiated agents may read the page (blocking training crawlers costs nothing)"},
		fix: "Let AI search and user-initiated agents (OAI-SearchBot, Claude-User, ...) read the page in robots.txt; blocking training crawlers costs nothing: publish.Site.Crawlers{Training: publish.Disallow}.",
	},
	// Understand (15)
	{spec: CheckSpec{"language_and_canonical", "Language and canonical URL", SectionUnderstand, "R6", 6, false,
		"the page",
		"<html lang> with a valid BCP 47 tag and an absolute same-site rel=canonical"},
		fix: `Give <html> a lang attribute with a BCP 47 tag and add an absolute <link rel="canonical"> on this site; publish.Site.Language and the kit's head injection add both.`,
	},
	{spec: CheckSpec{"structured_business_data", "Structured business data", SectionUnderstand, "R7", 6, false,
		"JSON-LD in the page",
		"a JSON-LD node of a business or product type with name and url, every block parsing"},
		fix: "Describe the business in JSON-LD: an Organization (or LocalBusiness, Product, Service) node with name and url, in a block that parses; publish.Site.Handler injects one built from Name and Origin.",
	},
	{spec: CheckSpec{"identity_node", "Identity node", SectionUnderstand, "", 1, false,
		"JSON-LD",
		"the identity node has name, url, and logo or sameAs"},
		fix: "Complete the Organization node of the JSON-LD with name, url, and logo or sameAs; set publish.Site.Logo or Site.SameAs.",
	},
	{spec: CheckSpec{"content_freshness", "Content freshness", SectionUnderstand, "", 1, false,
		"JSON-LD",
		"CreativeWork-family nodes carry dateModified"},
		fix: "Give the page's CreativeWork node (WebPage, Article, ...) a dateModified; publish.Page.Updated adds it.",
	},
	{spec: CheckSpec{"page_metadata", "Page metadata", SectionUnderstand, "", 1, false,
		"the page",
		"<title> and <meta name=description>"},
		fix: `Give the page a <title> and a <meta name="description">; publish.Page.Title and Page.Description supply the description when the page lacks one.`,
	},
	// Read (20)
	{spec: CheckSpec{"initial_html_content", "Content in the initial HTML", SectionRead, "R1", 7, false,
		"GET the page without running scripts",
		"a heading and at least 200 characters of visible text outside script, style, template and noscript; on a page that runs no script, a heading and any visible text (it cannot be an app shell)"},
		fix: "Render the page's heading and text into the HTML the server sends, without needing JavaScript (server-side rendering or prerendering); an empty app shell tells an agent nothing.",
	},
	{spec: CheckSpec{"markdown_representation", "Markdown representation", SectionRead, "R2", 7, false,
		"GET the page with Accept: text/markdown",
		"200, text/markdown; charset=utf-8, Vary: Accept"},
		fix: "Answer a request with Accept: text/markdown with 200, Content-Type text/markdown; charset=utf-8 and Vary: Accept at the page's own URL; publish.Site.Handler negotiates every HTML page.",
	},
	{spec: CheckSpec{"vary_accept", "Vary: Accept on HTML", SectionRead, "", 2, false,
		"GET the page with Accept: text/html",
		"HTML with a Vary header naming Accept"},
		fix: "Send Vary: Accept on the HTML form too, so that caches keep the two forms apart; publish.Site.Handler does.",
	},
	{spec: CheckSpec{"markdown_alternate_link", "Markdown alternate link", SectionRead, "", 2, false,
		"the page's Link headers and <head>",
		"rel=alternate type=text/markdown in the Link header and in the <head>"},
		fix: `Announce the Markdown form with rel="alternate" type="text/markdown" in a Link header and in the page head; publish.Site.Handler adds both.`,
	},
	{spec: CheckSpec{"markdown_frontmatter", "Markdown front matter", SectionRead, "", 2, false,
		"the Markdown form",
		"front matter with canonical, updated (a date) and language"},
		fix: "Start the Markdown form with front matter giving canonical, updated (a date) and language; publish.Site.Handler writes it from Page.Updated and Site.Language.",
	},
	// Act (20)
	{spec: CheckSpec{"page_actions_declared", "Page actions declared", SectionAct, "R8", 12, false,
		"the page's forms and scripts",
		"every action form is declared as a page tool (toolname and tooldescription), or the page registers tools with document.modelContext; unverified when a script or an app shell's content was not read"},
		fix: `Declare each action form as a page tool: toolname and tooldescription on the <form> (browsers register no tool without a description), or register tools with document.modelContext.registerTool.`,
	},
	{spec: CheckSpec{"page_tool_quality", "Page tool quality", SectionAct, "", 4, false,
		"the declared tools",
		"each tool has a name, a description and a description of each named control"},
		fix: "Give every declared tool a name, a description and a toolparamdescription on each named control.",
	},
	{spec: CheckSpec{"page_tool_permissions", "Page tool permissions", SectionAct, "", 4, false,
		"the Permissions-Policy header",
		"no tools entry (the default allowlist 'self') or tools=(self ...)"},
		fix: "Do not shut page tools out with Permissions-Policy: tools=(); leave the default or allow tools=(self).",
	},
	// Connect (20)
	{spec: CheckSpec{"backend_interface_declared", "Backend interface declared", SectionConnect, "R9", 8, false,
		"the card, agentic.json, Link headers, /.well-known/mcp.json, /openapi.json, /mcp",
		"a live interface: an MCP endpoint that answers, an OpenAPI 3 document, a GraphQL schema, or a card interface that answers"},
		fix: "If the site offers no tool or API, say so in the card with an empty interfaces list (publish.Site.Handler writes it for a site without MCP or OpenAPI): the check is then not applicable and Connect leaves the denominator. Otherwise publish a live interface an agent can call and name it in the card: an MCP endpoint (publish.Site.MCP), an OpenAPI 3 document (publish.Site.OpenAPI) or a GraphQL schema.",
	},
	{spec: CheckSpec{"mcp_discovery", "MCP discovery", SectionConnect, "", 4, false,
		"MCP server/discover offering 2026-07-28, then initialize offering 2025-11-25, notifications/initialized, tools/list without a token",
		"answers, negotiates a version it returns, lists tools"},
		fix: "Make the MCP endpoint answer initialize with a protocol version the client offered and list its tools (tools/list), or answer 401 with protected-resource metadata when listing needs a token.",
	},
	{spec: CheckSpec{"mcp_documented_access", "MCP documented access", SectionConnect, "", 3, false,
		"the card's sign-in section, protected-resource metadata, the tool list",
		"the service states which capabilities need a token and which do not"},
		fix: "State which tools need a token and which do not: in the card's sign-in section, the protected-resource metadata's scopes_supported, or the tool list; publish.MCP.PublicTools and TokenTools.",
	},
	{spec: CheckSpec{"mcp_signin_discovery", "MCP sign-in discovery", SectionConnect, "", 3, false,
		"OAuth metadata, version-aware",
		"metadata resolves, issuer and resource match, code_challenge_methods_supported contains S256"},
		fix: "Publish OAuth metadata for the MCP endpoint: protected-resource metadata (RFC 9728) naming an authorization server whose RFC 8414 metadata matches its issuer and lists S256 in code_challenge_methods_supported; publish.MCP.AuthorizationServers serves the first part.",
	},
	{spec: CheckSpec{"mcp_tested_execution", "MCP tested execution", SectionConnect, "", 2, false,
		"none: never executed",
		"unverified wherever something callable was found (the scanner holds no credentials and never calls an unknown tool); not applicable when nothing callable was"},
		fix:             "The scanner never calls a tool and holds no credentials, so wherever the site offers something callable this check stays unverified; test your tools with your own client.",
		neverVerifiable: true,
	},
	// Trust (10)
	{spec: CheckSpec{"human_handoff", "Human handoff", SectionTrust, "R10", 4, false,
		"the page, llms.txt, the card, JSON-LD",
		"a way to reach a person: mailto, a contact page, a JSON-LD contactPoint or email, or a contact in llms.txt or the card"},
		fix: "Give agents a way to reach a person: a mailto: or contact-page link, a JSON-LD contactPoint, or a contact in llms.txt or the card; publish.Site.Contact puts it in all of them.",
	},
	{spec: CheckSpec{"access_policy", "Access policy", SectionTrust, "R10", 4, false,
		"the card, agentic.json, protected-resource metadata",
		"a stated position on who may do what"},
		fix: "State who may do what: a sign-in section in the card saying which capabilities need a token (or that nothing needs one), or a linked policy for agents; publish.Site.Handler's card states it: that nothing needs sign-in for a site without an MCP endpoint, else which tools are public and which need a token (publish.MCP.PublicTools and TokenTools).",
	},
	{spec: CheckSpec{"auth_discovery", "Auth discovery", SectionTrust, "", 2, false,
		"OAuth metadata, /.well-known/agent-signup.json, /.well-known/agent-configuration",
		"where sign-in is needed, its discovery is machine-readable and valid"},
		fix: "Where sign-in is needed, make its discovery machine-readable and valid: OAuth metadata (RFC 8414, RFC 9728), /.well-known/agent-signup.json or the Agent Auth configuration.",
	},
	// Optional conventions (weight 0)
	{spec: CheckSpec{"mcp_server_card", "MCP server card", SectionConnect, "", 0, true,
		"/.well-known/mcp/server-card (SEP-2127), else /.well-known/mcp.json or /.well-known/mcp/server-card.json", "found or absent"},
	},
	{spec: CheckSpec{"a2a_agent_card", "A2A agent card", SectionConnect, "", 0, true,
		"/.well-known/agent-card.json", "found or absent"},
	},
	{spec: CheckSpec{"api_catalog", "API catalog (RFC 9727)", SectionConnect, "", 0, true,
		"/.well-known/api-catalog", "found or absent"},
	},
	{spec: CheckSpec{"agentic_site_profile", "Agentic site profile", SectionDiscover, "", 0, true,
		"/agentic.json and /agentic.txt", "found or absent"},
	},
	{spec: CheckSpec{"knowledge_linkset", "Knowledge linkset", SectionDiscover, "", 0, true,
		"/.well-known/knowledge-linkset", "found or absent"},
	},
	{spec: CheckSpec{"openagent_profile", "OpenAgent profile", SectionDiscover, "", 0, true,
		"/.well-known/openagent.json", "found or absent"},
	},
	{spec: CheckSpec{"agent_signup", "Agent sign-up discovery", SectionTrust, "", 0, true,
		"/.well-known/agent-signup.json", "found or absent"},
	},
	{spec: CheckSpec{"dynamic_client_registration", "Dynamic client registration", SectionTrust, "", 0, true,
		"registration_endpoint or client ID metadata documents", "found or absent"},
	},
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

// Catalogue returns every check this package scores by, in catalogue order: the
// 27 scored checks and the 8 optional conventions. It is this package's reading
// of the agent-readiness scoring method, which publishes no checks of its own.
// Every scan runs all of them.
func Catalogue() []CheckSpec {
	out := make([]CheckSpec, len(catalogueTable))
	for i, r := range catalogueTable {
		out[i] = r.spec
	}
	return out
}

// rowOf returns the catalogue row of the check id.
func rowOf(id string) (checkRow, bool) {
	for _, r := range catalogueTable {
		if r.spec.ID == id {
			return r, true
		}
	}
	return checkRow{}, false
}

func specOf(id string) (CheckSpec, bool) {
	r, ok := rowOf(id)
	return r.spec, ok
}

// fixOf returns the fix of the check id: "" for an optional convention and
// for an id outside the catalogue.
func fixOf(id string) string {
	r, _ := rowOf(id)
	return r.fix
}

// neverVerifiable reports whether no scan can answer the check id (see
// [checkRow]).
func neverVerifiable(id string) bool {
	r, _ := rowOf(id)
	return r.neverVerifiable
}

func sectionOf(id SectionID) (Section, bool) {
	for _, s := range sectionTable {
		if s.ID == id {
			return s, true
		}
	}
	return Section{}, false
}
