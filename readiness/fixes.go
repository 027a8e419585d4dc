package readiness

import "fmt"

// fixText is what a report tells the site to do about one check: Do for a
// fail or a partial (what to publish or change, naming the publish kit's
// field where the kit does it). A not_applicable verdict has no fix: the
// check leaves the denominator and there is nothing to do.
type fixText struct {
	Do string
}

// fixes holds the fix of every scored check. The kit is
// github.com/agentweb/agentweb/readiness/publish; "Site.X" names its field.
var fixes = map[string]fixText{
	"sitemap":                    {Do: "Publish /sitemap.xml as a sitemaps.org 0.9 urlset whose loc values are on this host, and name it in robots.txt with a Sitemap line; publish.Site.Pages does both."},
	"llms_txt":                   {Do: "Serve /llms.txt as text/plain: an H1 with the site's name, a one-line summary and Markdown links to the pages that matter; publish.Site.Handler builds it from Name, Description and Pages."},
	"capability_manifest":        {Do: "Publish a capability card at /.well-known/agents.json (and /agents.json) naming what the site publishes, its interfaces, how to sign in and whom to contact; publish.Site.Handler serves one built from the site's facts, or Site.Card."},
	"manifest_twins":             {Do: "Serve the same card at /.well-known/agents.json and /agents.json; publish.Site.Handler serves both from one value."},
	"discovery_links":            {Do: `Announce llms.txt with a Link header (rel="describedby") and the same <link> in the page head; publish.Site.Handler adds both to every page.`},
	"ai_crawler_access":          {Do: "Let AI search and user-initiated agents (OAI-SearchBot, Claude-User, ...) read the page in robots.txt; blocking training crawlers costs nothing: publish.Site.Crawlers{Training: publish.Disallow}."},
	"language_and_canonical":     {Do: `Give <html> a lang attribute with a BCP 47 tag and add an absolute <link rel="canonical"> on this site; publish.Site.Language and the kit's head injection add both.`},
	"structured_business_data":   {Do: "Describe the business in JSON-LD: an Organization (or LocalBusiness, Product, Service) node with name and url, in a block that parses; publish.Site.Handler injects one built from Name and Origin."},
	"identity_node":              {Do: "Complete the Organization node of the JSON-LD with name, url, and logo or sameAs; set publish.Site.Logo or Site.SameAs."},
	"content_freshness":          {Do: "Give the page's CreativeWork node (WebPage, Article, ...) a dateModified; publish.Page.Updated adds it."},
	"page_metadata":              {Do: `Give the page a <title> and a <meta name="description">; publish.Page.Title and Page.Description supply the description when the page lacks one.`},
	"initial_html_content":       {Do: "Render the page's heading and text into the HTML the server sends, without needing JavaScript (server-side rendering or prerendering); an empty app shell tells an agent nothing."},
	"markdown_representation":    {Do: "Answer a request with Accept: text/markdown with 200, Content-Type text/markdown; charset=utf-8 and Vary: Accept at the page's own URL; publish.Site.Handler negotiates every HTML page."},
	"vary_accept":                {Do: "Send Vary: Accept on the HTML form too, so that caches keep the two forms apart; publish.Site.Handler does."},
	"markdown_alternate_link":    {Do: `Announce the Markdown form with rel="alternate" type="text/markdown" in a Link header and in the page head; publish.Site.Handler adds both.`},
	"markdown_frontmatter":       {Do: "Start the Markdown form with front matter giving canonical, updated (a date) and language; publish.Site.Handler writes it from Page.Updated and Site.Language."},
	"page_actions_declared":      {Do: `Declare each action form as a page tool: toolname and tooldescription on the <form> (browsers register no tool without a description), or register tools with document.modelContext.registerTool.`},
	"page_tool_quality":          {Do: "Give every declared tool a name, a description and a toolparamdescription on each named control."},
	"page_tool_permissions":      {Do: "Do not shut page tools out with Permissions-Policy: tools=(); leave the default or allow tools=(self)."},
	"backend_interface_declared": {Do: "If the site offers no tool or API, say so in the card with an empty interfaces list (publish.Site.Handler writes it for a site without MCP or OpenAPI): the check is then not applicable and Connect leaves the denominator. Otherwise publish a live interface an agent can call and name it in the card: an MCP endpoint (publish.Site.MCP), an OpenAPI 3 document (publish.Site.OpenAPI) or a GraphQL schema."},
	"mcp_discovery":              {Do: "Make the MCP endpoint answer initialize with a protocol version the client offered and list its tools (tools/list), or answer 401 with protected-resource metadata when listing needs a token."},
	"mcp_documented_access":      {Do: "State which tools need a token and which do not: in the card's sign-in section, the protected-resource metadata's scopes_supported, or the tool list; publish.MCP.PublicTools and TokenTools."},
	"mcp_signin_discovery":       {Do: "Publish OAuth metadata for the MCP endpoint: protected-resource metadata (RFC 9728) naming an authorization server whose RFC 8414 metadata matches its issuer and lists S256 in code_challenge_methods_supported; publish.MCP.AuthorizationServers serves the first part."},
	"mcp_tested_execution":       {Do: "The scanner never calls a tool and holds no credentials, so wherever the site offers something callable this check stays unverified; test your tools with your own client."},
	"human_handoff":              {Do: "Give agents a way to reach a person: a mailto: or contact-page link, a JSON-LD contactPoint, or a contact in llms.txt or the card; publish.Site.Contact puts it in all of them."},
	"access_policy":              {Do: "State who may do what: a sign-in section in the card saying which capabilities need a token (or that nothing needs one), or a linked policy for agents; publish.Site.Handler's card states it: that nothing needs sign-in for a site without an MCP endpoint, else which tools are public and which need a token (publish.MCP.PublicTools and TokenTools)."},
	"auth_discovery":             {Do: "Where sign-in is needed, make its discovery machine-readable and valid: OAuth metadata (RFC 8414, RFC 9728), /.well-known/agent-signup.json or the Agent Auth configuration."},
}

// fixFor returns the report's fix for a check's verdict: empty for pass,
// optional and not_applicable, the check's own text otherwise, and for unverified a
// sentence first that says the check could not be answered.
func fixFor(id string, v Verdict) string {
	f, ok := fixes[id]
	if !ok {
		return ""
	}
	switch v {
	case VerdictPass, VerdictOptional, VerdictNotApplicable:
		return ""
	case VerdictUnverified:
		if id == "mcp_tested_execution" {
			return f.Do
		}
		return "The scan could not answer this check (see the receipt): make sure the requests it lists answer within the budget, then scan again. " + f.Do
	}
	return f.Do
}

// fixUnread is the fix of an unverified check whose every request answered:
// what kept it from an answer is something the scan did not read or run
// (named in the receipt), not a request that failed.
func fixUnread(id string) string {
	f, ok := fixes[id]
	if !ok {
		return ""
	}
	return "Every request of this check answered, but the scan could not read all it needs (see the receipt's notes): serve the content in the HTML, or scan with a browser (readiness/browser), then scan again. " + f.Do
}

// Fix returns what to publish or change so that the check passes: the text
// a report gives as [CheckResult].Fix when the check fails or is partial.
// It is empty for an optional convention (weight 0), which leaves no points
// to win, and for an id outside the catalogue.
func (c CheckSpec) Fix() string { return fixes[c.ID].Do }

// fixTooLarge is the fix of an unverified check that needed an answer over
// the per-response cap: the cap, not the site's content, is what kept it
// from an answer, so the check's own fix is not repeated.
func fixTooLarge(maxBody int64) string {
	return fmt.Sprintf("An answer this check needs is larger than the scan's cap of %s per response (see the receipt), so the scan could not read it: serve a smaller page, or scan again with a larger cap (readiness.Options.MaxBodyBytes; the command's -max-body flag).", byteSize(maxBody))
}

// byteSize writes n bytes in the largest binary unit that divides it.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
