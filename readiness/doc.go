// Package readiness scores how ready a website is for AI agents, by the
// agent-readiness method version 1.2 (readiness-method.md) and this project's
// check catalogue (readiness-checks.md), and renders the result with evidence
// for every verdict.
//
// # Method
//
// A site is graded in six sections worth 100 points in all (method §02):
// Discover 15, Understand 15, Read 20, Act 20, Connect 20 and Trust 10. Each
// section holds checks with weights that add up to its points; ten of them
// prove the requirements R1–R10 that decide whether a site is ready (§03).
// The whole catalogue is data: see [Catalogue], [Sections] and [Requirements].
//
// # Verdicts and scoring
//
// A check lands as [VerdictPass] (credit 1), [VerdictPartial] (0.5), [VerdictFail] (0),
// [VerdictOptional] (optional conventions only, weight 0), [VerdictNotApplicable] (the
// check leaves its section's denominator) or [VerdictUnverified] (the probe could
// not be answered: a refusal, a timeout, a redirect that never ends, an
// exhausted budget). Unverified is never a pass and never a fail: it keeps its
// weight, earns nothing and is listed apart (method §06).
//
// A section's score is its points × Σ(credit × weight) / Σ(weight of its
// applicable checks); a section with no applicable check leaves the total's
// denominator. The total is 100 × Σ section scores / Σ points of the sections
// scored. The site is ready when all ten requirements are met, each by a pass
// or a not-applicable verdict of its checks; R10 needs both of its checks.
// [Compose] applies these rules to any set of check results.
//
// # What this scanner runs
//
// The engine runs the checks it has an implementation for ([Implemented]).
// A catalogue check with no implementation is never scored and never
// silently passes: it is listed in the report's [Scope] as not scanned, a
// section none of whose checks ran leaves the total's denominator (so the
// total is the score over the sections that were scanned, and the report says
// which), and a requirement that depends on an unscanned check has the status
// "not_scanned" and is not met, so such a report never claims a site is
// ready. This release runs every check of the catalogue: the six sections
// and the eight optional conventions.
//
// # Page tools (Act)
//
// The Act checks read the forms and scripts of the routes the scan read,
// without running anything. A form is declared as a page tool by the WebMCP
// declarative attributes (toolname, tooldescription, toolautosubmit, and
// toolparamdescription on its controls); a script registers tools when its
// text calls registerTool (or the older provideContext) on
// document.modelContext or navigator.modelContext, in an inline script or a
// same-origin script file (at most six are read). A form tool needs a
// tooldescription to count (browsers register none without one), and tools
// registered only on navigator.modelContext, which current browsers no
// longer expose, are partial. What the scan did not read (scripts of another
// origin, scripts past the bound, the content a script builds in an app
// shell) makes the Act checks unverified, never not applicable, and the
// receipt names it. A plain site search (one
// search box, in a search landmark or named like one) is not an action. The
// Permissions-Policy header is read as an RFC 9651 dictionary: no tools
// member means the feature's default allowlist, 'self', applies, which
// passes (method §07, "the default is a policy"); a header that does not
// parse is ignored, as browsers ignore it.
//
// # The MCP probe (Connect)
//
// The MCP endpoint is the one the capability card names, else the MCP server
// card's, else agentic.json's, else /mcp; an endpoint on another site is
// named, never probed. The probe speaks Streamable HTTP with the official
// Go SDK (github.com/modelcontextprotocol/go-sdk), whose requests go through
// the scan's safefetch client behind a round-tripper that records every
// exchange and caps every body at 256 KiB: initialize offering
// [MCPOfferedVersion] (2025-06-18), notifications/initialized, and
// tools/list without a token, at most five pages; retries and the standalone
// SSE stream are off and the probe has a deadline. It never signs in and
// never calls a tool. A 401 is not a failure of discovery: its Bearer
// challenge's resource_metadata starts sign-in discovery, by the rules of
// the negotiated version (2025-03-26: RFC 8414 metadata at the server
// origin; from 2025-06-18: RFC 9728 protected resource metadata, from the
// challenge, then path-inserted, then at the root, then the authorization
// server's RFC 8414 metadata, and OpenID Connect discovery for 2025-11-25).
// Metadata is decoded strictly into this package's own types; issuer and
// resource must match and PKCE S256 must be advertised. The evidence is an
// [MCPReceipt] on mcp_discovery, the method's §05 receipt field for field
// with the raw handshake added. mcp_tested_execution is always
// [VerdictUnverified], so no site scores 20/20 in Connect (method §07).
//
// # Trust and the optional conventions
//
// A way to reach a person needs no crawl (method §07): a mailto: link or a
// link to a contact page on a route read, JSON-LD contact data, a contact in
// llms.txt or in the card. A position on who may do what is the card's
// sign-in section, an auth statement for each of its interfaces, its
// policies, an agent-auth resource in agentic.json or a terms-of-service
// link; sign-in that exists with no such statement is partial. Sign-in
// discovery is OAuth metadata, /.well-known/agent-signup.json validated with
// package agentsignup, or an Agent Auth configuration at
// /.well-known/agent-configuration.
//
// The eight optional conventions weigh nothing and land as [VerdictOptional],
// found or absent (or [VerdictUnverified] when the request went unanswered). The
// ones this module implements are validated with their own packages
// (agentic.ParseSite and agentic.CheckText for /agentic.json and
// /agentic.txt, linkset.Parse and Document.Check for the knowledge linkset,
// openagent.Parse, agentsignup.Parse); a document found but invalid is
// reported as found, with its problems in the receipt's notes.
//
// # Scanning
//
// [Scan] reads the given page, the site's well-known files (robots.txt, the
// sitemap, llms.txt, both agents.json copies) and at most [Options].MaxPages
// further same-origin routes, chosen from the sitemap and then from the
// page's links. Every resource is fetched once per scan through a memo keyed
// by method, URL and Accept header, and shared by every check that reads it;
// independent fetches run concurrently, the ones on the critical path
// (robots.txt, /sitemap.xml, the page) first. Everything goes through a
// safefetch client charged to one budget: by default 80 attempts, 5 in
// flight, 1 MiB a response, 8 MiB in all and 60 s. The scanner never sends
// a credential, never runs JavaScript and never calls a tool.
//
// A probe that is refused (a fetch-policy refusal, 401, 403, 429), fails on
// the server's side (5xx), times out, never finishes redirecting or runs out
// of budget makes the checks that relied on it [VerdictUnverified]; the report says
// which request went unanswered and why.
//
// The readers of remote data are bounded and strict where the format is: the
// sitemap is decoded with a strict XML decoder (sitemaps.org 0.9 namespace,
// UTF-8, at most 50,000 locs; gzip-compressed sitemaps are inflated within
// the per-response cap; of a sitemap index, the first three child sitemaps
// on the site are read) and its locs compared by host with the exact
// www/apex rule; robots.txt is parsed by github.com/temoto/robotstxt from at
// most 512 KiB, with AI crawler groups matched by exact product token
// (RFC 9309 §2.2.1) rather than by the library's prefix rule; Accept headers
// are parsed with q-values; Markdown front matter is read by a small reader
// of the keys the method names; agents.json is read by package agentsjson,
// a tolerant reader of the formats in use (the method's card, the agents.txt
// draft's capabilities, wild-card-ai's sources and flows, the site_info
// draft's intents) that names a document of another kind as foreign.
//
// # Adding a check
//
// The catalogue is data (catalogue.go): a check's id, section, weight and
// requirement live there and nowhere else. A check's code is one file,
// check_<id>.go, whose init function registers the id, the observations it
// reads (so the engine fetches them ahead, concurrently) and a function from
// the scan's shared observations to a verdict, the text received, notes and
// the requests relied on. The engine turns that into a receipt, scores it
// from the catalogue and renders it. A check that is not registered is not
// run and is reported as not scanned, never as passed.
//
// # Evidence
//
// Every check carries a [Receipt] (method §05): the requests it relied on
// (method, URL and only the request headers that change the answer), what
// was expected, what was received (status, media type, the relevant response
// headers and a short summary of the body), and notes. Credentials are never
// sent and never recorded. Every finding names the routes it was read from,
// and the routes the scan read travel with the report (§07, "findings state
// their scope").
//
// # One result, three forms
//
// A [Report] is one value. [Report.JSON] is the canonical form with the field
// names of readiness-checks.md; [Report.Markdown] and [Report.HTML] render the
// same numbers for people. The HTML page is self-contained (inline CSS and
// SVG only) and readable with scripts off and on paper.
package readiness
