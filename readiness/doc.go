// Package readiness scores how ready a website is for AI agents, by version
// 1.2 of the agent-readiness scoring method and this package's own check
// catalogue, and renders the result with evidence for every verdict.
//
// # Method
//
// The method fixes the sections, their points, the ten requirements, the
// verdicts and the evidence rules, but publishes no checks; the catalogue
// ([Catalogue]) is this package's reading of it: 27 scored checks and 8
// optional conventions, each with a stable snake_case id that every form of
// the report uses. The method has no public address; this documentation
// cites it as the agent-readiness scoring method and its numbered sections
// (Section 02 scoring, Section 03 requirements, Section 04 one address, Section 05 evidence, Section 06
// verdicts, Section 07 what changed in 1.2).
//
// A site is graded in six sections worth 100 points in all (the scoring
// method, Section 02):
// Discover 15, Understand 15, Read 20, Act 20, Connect 20 and Trust 10. Each
// section holds checks with weights that add up to its points; ten of them
// prove the requirements R1–R10 that decide whether a site is ready (Section 03).
// The whole catalogue is data: see [Catalogue], [Sections] and [Requirements].
//
// # Verdicts and scoring
//
// A check lands as [VerdictPass] (credit 1), [VerdictPartial] (0.5), [VerdictFail] (0),
// [VerdictOptional] (optional conventions only, weight 0), [VerdictNotApplicable] (the
// check leaves its section's denominator) or [VerdictUnverified] (the probe could
// not be answered: a refusal, a timeout, a redirect that never ends, an
// exhausted budget). Unverified is never a pass and never a fail: it keeps its
// weight, earns nothing and is listed apart (the scoring method, Section 06).
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
// Every scan runs every check of the catalogue: the six sections and the
// eight optional conventions, so every report lists every check with a
// verdict. An engine of one's own that feeds [Compose] must do the same; a
// check it does not run is reported as [VerdictUnverified], which never
// passes, keeps its weight and meets no requirement.
//
// # Page tools (Act)
//
// The Act checks read the forms and scripts of the routes the scan read,
// without running anything. A form is declared as a page tool by the WebMCP
// declarative attributes (toolname, tooldescription, toolautosubmit, and
// toolparamdescription on its controls); a script registers tools when its
// text calls registerTool (or the older provideContext) on
// document.modelContext or navigator.modelContext, in an inline script or a
// script file of any origin: every external script of the pages read is
// fetched through the scan's client and charged to its budget, at most
// [MaxScripts] of them, each within the scan's MaxBodyBytes and all within
// [MaxScriptBytes]. A script element whose type is not JavaScript (JSON-LD,
// a template) is a data block, which never runs, and is not a script. A
// form tool needs a tooldescription to count (browsers register none
// without one), and tools registered only on navigator.modelContext, which
// current browsers no longer expose, are partial. What the scan did not
// read (a script that did not answer or was past the bounds, the content a
// script builds in an app shell: a page of fewer than 200 characters with
// a script that runs) makes the Act checks unverified, never not
// applicable, and the receipt names it; a page whose every script and
// content was read, with no registration and no action form, is not
// applicable.
//
// With [Options].Renderer (package readiness/browser runs the system's
// Chromium), the pages are rendered too: the Act checks are then judged on
// the tools the browser registered, declarative and imperative (a tool
// registered by a computed name is found, as no text search can), and the
// forms of the rendered DOM, and the receipt says which browser rendered
// them and lists the tools. initial_html_content stays a judgement of the
// HTML before scripts. A plain site search (one
// search box, in a search landmark or named like one) is not an action. The
// Permissions-Policy header is read as an RFC 9651 dictionary: no tools
// member means the feature's default allowlist, 'self', applies, which
// passes (the scoring method, Section 07, "the default is a policy"); a header that does not
// parse is ignored, as browsers ignore it.
//
// # The MCP probe (Connect)
//
// The MCP endpoint is the one the capability card names, else the MCP server
// card's, else agentic.json's, else /mcp; an endpoint on another site is
// named, never probed. The probe is package mcpprobe's [mcpprobe.Probe],
// through the scan's client: it offers the latest protocol version it
// implements (2026-07-28's server/discover, then initialize offering
// 2025-11-25) and accepts the version the server negotiates down to, lists
// the tools without a token, at most five pages, declares no client
// capability, never signs in and never calls a tool. A 401 is not a failure
// of discovery: a Bearer challenge makes the endpoint MCP (a guessed /mcp
// too), and sign-in discovery follows the negotiated version's rules, or,
// when the 401 came before any version, the 2025-11-25 rules, which find
// the most (the challenge's resource_metadata, the path-inserted then the
// root RFC 9728 well-known URI, RFC 8414 then OpenID Connect discovery). A
// document whose issuer or resource does not match is not used. A
// transport failure is unverified, never a version problem. The evidence is
// an [MCPReceipt] on mcp_discovery, the scoring method's Section 05 receipt with every
// version offer, every discovery document and the raw handshake added.
// mcp_tested_execution is [VerdictUnverified] wherever something callable
// was found, so no site with a tool or API scores 20/20 in Connect (the
// scoring method, Section 07); where nothing callable was found
// (backend_interface_declared is not applicable or fails) it is
// [VerdictNotApplicable] and leaves the denominator, so a site that states it
// offers no tool or API is not held to what cannot apply.
//
// # Trust and the optional conventions
//
// A way to reach a person needs no crawl (the scoring method, Section 07): a mailto: link or a
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
// safefetch client charged to one budget, by default [DefaultAttempts] and
// the bounds beside it. The scanner never sends a credential and never calls
// a tool; it runs JavaScript only in the browser of an [Options].Renderer,
// never in the process.
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
// www/apex rule; robots.txt is read by RFC 9309 from at most 500 KiB
// (fetched with up to five redirects, Section 2.3.1.2, when the client's
// safefetch.Options.MaxRedirects allows five: the default follows three),
// with AI crawler groups
// matched by exact product token (Section 2.2.1); Accept headers
// are parsed with q-values; Markdown front matter is read by a small reader
// of the keys the method names; agents.json is read by package agentsjson,
// a tolerant reader of the formats in use (the method's card, the agents.txt
// draft's capabilities, wild-card-ai's sources and flows, the site_info
// draft's intents) that names a document of another kind as foreign.
//
// # Fix first
//
// [Report].Fixes leads every form of the report: every check that leaves
// points (partial, fail or unverified, with weight) and that a change of
// the site can make pass (mcp_tested_execution never can: no scan
// executes a tool), ordered by the section points passing it alone would
// add (with what passing brings: a live backend interface makes
// mcp_tested_execution count), then by requirement (R1 first), then in
// catalogue order, each with its fix and a link to its receipt. Points are
// the sections' points in every form: [Report].Earned of
// [Report].Applicable, the points of the sections that apply, and Score is
// 100 × Earned / Applicable, which every form states ("60.0 of the 80
// points that apply") when a section leaves the denominator.
//
// # Observations beyond the method
//
// After every check has its verdict, the scan makes the observations that
// other scanners report and the method's checks do not cover
// ([Report].Observations, [ObservationIDs]), each read and validated as its
// own text defines it, each found, invalid, absent or unverified with a
// receipt like a check's, within the scan's budget (a body is capped at
// 256 KiB). They change no verdict, section, requirement or score:
//
//   - agent_skills: the discovery index at /.well-known/agent-skills/index.json,
//     else the older /.well-known/skills/index.json ([Agent Skills
//     Discovery], a draft, 0.2.0): its $schema decides how it is read (the
//     0.2.0 URI; absent, read as 0.1.0 and said so; any other is named and
//     the index is not read, so the observation is unverified), then each
//     entry's name, type, description, url and digest; of at most three
//     skills the artifact is fetched (on this site only) and the SHA-256 of
//     its raw bytes checked against the index, an archive never unpacked;
//   - content_signals: Content-Signal lines ([Content Signals], an
//     Internet-Draft: search, ai-input, ai-train = yes or no) and IETF
//     aipref Content-Usage lines ([AI Preference Attachment], an
//     Internet-Draft: an optional path, then an RFC 9651 dictionary of y or
//     n), read per user-agent group of robots.txt, and the same two fields
//     as response headers of the pages the scan read (no request of its
//     own). Each signal says where it came from; where robots.txt's group
//     for every crawler and a header state one differently, the texts are
//     silent on which wins and the stricter ("no", "n") is read, in a note;
//   - notes, not verdicts, on tool conflicts: a robots.txt directive that
//     Lighthouse's SEO robots-txt audit (13.5.0) fails as unknown
//     (Agentmap, License, Content-Usage, ...) is named in the notes of
//     ai_crawler_access, with the header that says the same without it;
//   - web_bot_auth: /.well-known/http-message-signatures-directory as a JWK
//     Set of public keys, or a Signature Agent Card with jwks xor jwks_uri
//     and a client_id that is its URL ([Web Bot Auth], the working group's
//     Internet-Drafts), each key read by RFC 7517 and refused if it carries
//     a private member; the response's signatures (RFC 9421, tag
//     http-message-signatures-directory, covering the request's
//     @authority, keyid the key's RFC 7638 thumbprint, Ed25519 or
//     RSA-PSS-SHA512) verified with the directory's own keys. The reader
//     passes cloudflare/web-bot-auth's test vectors (signed requests,
//     Signature-Agent fields, cards and registries);
//   - auth_md: /auth.md, a Markdown document with an H1 ([auth.md], a
//     proposal);
//   - x402: any answer of the scan that was 402 Payment Required, with its
//     payment requirements in the body (version 1) or the PAYMENT-REQUIRED
//     header (version 2) ([x402], a proposal);
//   - ucp: /.well-known/ucp, whose "ucp" object names a version, services
//     and capabilities ([Universal Commerce Protocol], a proposal);
//   - acp: /.well-known/acp.json, a JSON object ([Agentic Commerce
//     Protocol], a proposal);
//   - ai_catalog: the AI catalog ([Agentic Resource Discovery] 1.0, a
//     draft), found as Lighthouse 13.5.0's ard gatherer finds it (a
//     robots.txt Agentmap line, which may name any URL, then a <link
//     rel="ai-catalog"> element, then a Link rel="ai-catalog" header field
//     of the page, then /.well-known/ai-catalog.json) and validated as its
//     ard-schema audit validates it: the specification's JSON Schema and
//     its conformance test's rules, each finding an error or a warning with
//     its JSON Pointer; errors make it invalid, warnings alone leave it
//     found. An advertised catalog that does not answer 200 is invalid;
//   - document_contracts: what the site's own documents say about each
//     other, each finding naming both documents and its fix, found when
//     there is any, absent when they agree: the endpoints that llms.txt,
//     the card and the API catalog name (at most 50) that robots.txt
//     disallows for the AI search or user-access crawlers (a disallow for
//     training crawlers only is none: opting out of training costs
//     nothing); the page fetched once more with an AI user-access agent's
//     User-Agent (ChatGPT-User; never from the scan's memo) answering
//     another status or a challenge page; MCP server cards whose protocol
//     versions or tool count differ from the live server's; the page's
//     Link header targets (at most five) and the llms.txt links the
//     llms_txt_links observation reads that answer neither 2xx nor 402;
//   - llms_txt_links: whether the first five same-site links of llms.txt
//     answer 200 (afdocs' llms-txt-links-resolve, a proposal);
//   - markdown_twin: Markdown at the page's URL with .md appended, or
//     index.md for a directory (the llms.txt proposal's convention); never
//     the canonical Markdown form.
//
// The MCP server card at SEP-2127's /.well-known/mcp/server-card, with its
// remotes, is read by the optional check mcp_server_card instead.
// [Options].NoObservations turns them off.
//
// # Where things live
//
// File names say what a file holds:
//   - catalogue.go: the checks as data, each row with its fix; engine.go runs [Scan].
//   - check_<id>.go: one check, registered by its id.
//   - read_<thing>.go: a read the checks and observations share, made once per scan.
//   - read.go and fetch.go: the memo of reads, and the memo and budget of fetches.
//   - observe_<id>.go: one observation; observe.go runs them.
//   - render*.go, sarif.go, junit.go, jobsummary.go, badge.go, prompt.go: the report writers.
//   - rendering.go: the [Renderer] seam to a browser.
//   - report.go, verdict.go and summary.go: the result types and the scoring.
//
// # Adding a check
//
// A check's contract is one row of the catalogue (catalogue.go): its id,
// section, weight, requirement and fix. Its code is one file,
// check_<id>.go. Its init function registers the id, the reads it needs and
// a function from those reads to a verdict, notes and the requests relied
// on. The engine fetches the reads ahead, concurrently, and turns the
// outcome into a scored receipt. A test fails when a catalogue check has no
// file.
//
// # Evidence
//
// Every check carries a [Receipt] (the scoring method, Section 05): the requests it relied on
// (method, URL and only the request headers that change the answer), what
// was expected, what was received (status, media type, the relevant response
// headers and a short summary of the body), and notes. Credentials are never
// sent and never recorded. Every finding names the routes it was read from,
// and the routes the scan read travel with the report (the scoring method,
// Section 07, "findings state their scope"). A check whose verdict leaves something
// to do may say what to publish or change ([CheckResult].Fix).
//
// # One result, three forms
//
// A [Report] is one value. [Report.JSON] is the canonical form, with
// snake_case field names as every result type of this module has;
// [Report.Markdown] and [Report.HTML] render the same numbers for people. The HTML page is self-contained (inline CSS and
// SVG only) and readable with scripts off and on paper.
//
// # For developers and CI
//
// Every entry of the fix-first list carries a prompt for a coding agent
// ([FixItem].Prompt): the site and check, what was requested and received
// (quoted as data), what passes, what to do and the published texts to
// follow. [Report.Prompt] joins them into one Markdown message.
// [Report.Summary] is the compact form of a report (about 1.5 KB) for
// histories over many runs and sites; [Compare] and [CompareSummaries] say
// what changed between two runs, each check both ways, pass, not applicable
// and an optional document's presence told apart. A report's Trend and
// Baseline, set by the caller from its history, are drawn by every form.
// [Report.Badge] is a shields.io-style SVG badge of the score, coloured by
// the HTML gauge's bands (green from 90, orange from 50, red below: the
// method defines none). For CI systems, [Report.SARIF] writes SARIF 2.1.0
// (a rule per catalogue check, a result per check that leaves points),
// [Report.JUnit] a test case per check, and [Report.JobSummary] a short
// Markdown page for a job's summary; each shows the Baseline's delta. To
// scan an http.Handler from a go test before it is deployed, see package
// readiness/readinesstest.
//
// [Agent Skills Discovery]: https://github.com/cloudflare/agent-skills-discovery-rfc
// [Agentic Resource Discovery]: https://github.com/ards-project/ard-spec
// [Content Signals]: https://datatracker.ietf.org/doc/draft-romm-aipref-contentsignals/
// [AI Preference Attachment]: https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/
// [Web Bot Auth]: https://datatracker.ietf.org/doc/draft-meunier-webbotauth-httpsig-directory/
// [auth.md]: https://workos.com/auth-md/docs/auth-md
// [x402]: https://github.com/coinbase/x402
// [Universal Commerce Protocol]: https://ucp.dev/
// [Agentic Commerce Protocol]: https://www.agenticcommerce.dev/
package readiness
