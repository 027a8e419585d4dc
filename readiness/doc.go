// Package readiness scores how ready a website is for AI agents. It follows
// version 1.2 of the agent-readiness scoring method and this package's own
// check catalogue. It renders the result with evidence for every verdict.
//
// # Method
//
// The method fixes the sections, their points, the ten requirements, the
// verdicts and the evidence rules. It publishes no checks. The catalogue
// ([Catalogue]) is this package's reading of it: 27 scored checks and 8
// optional conventions. Each has a stable snake_case id that every form of
// the report uses. The method has no public address. This documentation
// cites it as the agent-readiness scoring method and its numbered sections.
// They are Section 02 scoring, Section 03 requirements, Section 04 one
// address, Section 05 evidence, Section 06 verdicts and Section 07 what
// changed in 1.2.
//
// A site is graded in six sections worth 100 points in all (the scoring
// method, Section 02). They are Discover 15, Understand 15, Read 20, Act 20,
// Connect 20 and Trust 10. Each section holds checks whose weights add up to its
// points. Ten of them prove the requirements R1–R10, which decide whether a
// site is ready (Section 03). The whole catalogue is data: see [Catalogue],
// [Sections] and [Requirements].
//
// # Verdicts and scoring
//
// A check lands as one of six verdicts:
//   - [VerdictPass], credit 1;
//   - [VerdictPartial], credit 0.5;
//   - [VerdictFail], credit 0;
//   - [VerdictOptional], for optional conventions only, weight 0;
//   - [VerdictNotApplicable]: the check leaves its section's denominator;
//   - [VerdictUnverified]: the probe got no answer (a refusal, a timeout, a
//     redirect that never ends, an exhausted budget).
//
// Unverified is never a pass and never a fail. It keeps its weight, earns
// nothing and is listed apart (the scoring method, Section 06).
//
// A section's score is its points × Σ(credit × weight) / Σ(weight of its
// applicable checks). A section with no applicable check leaves the total's
// denominator. The total is 100 × Σ section scores / Σ points of the
// sections scored. The site is ready when all ten requirements are met. A
// requirement is met by a pass or a not-applicable verdict of its checks;
// R10 needs both of its checks. [Compose] applies these rules to any set of
// check results.
//
// # What this scanner runs
//
// Every scan runs every check of the catalogue, the eight optional
// conventions included. So every report lists every check with a verdict.
// An engine of one's own that feeds [Compose] must do the same. A check it
// does not run is reported as [VerdictUnverified]: it never passes, keeps
// its weight and meets no requirement.
//
// # Page tools (Act)
//
// The Act checks read the forms and scripts of the routes the scan read,
// without running anything. A form is declared as a page tool by the WebMCP
// declarative attributes: toolname, tooldescription, toolautosubmit, and
// toolparamdescription on its controls. A script registers tools when its
// text calls registerTool (or the older provideContext) on
// document.modelContext or navigator.modelContext. It may be an inline
// script or a script file of any origin. Every external script of the pages
// read is fetched through the scan's client and charged to its budget. At
// most [MaxScripts] are read, each within the scan's MaxBodyBytes and all
// within [MaxScriptBytes]. A script element whose type is not JavaScript
// (JSON-LD, a template) is a data block, which never runs. A form tool needs
// a tooldescription to count: browsers register none without one. Tools
// registered only on navigator.modelContext are partial, since current
// browsers no longer expose it.
//
// What the scan did not read makes the Act checks unverified, never not
// applicable, and the receipt names it. That is a script that did not
// answer or was past the bounds, or the content a script builds in an app
// shell. An app shell is a page of fewer than 200 characters with a script
// that runs. A page whose every script and content was read, with no
// registration and no action form, is not applicable.
//
// With [Options].Renderer, the pages are rendered too; package
// readiness/browser runs the system's Chromium. The Act checks are then
// judged on the tools the browser registered, declarative and imperative,
// and on the forms of the rendered DOM. A tool registered by a computed name
// is found, as no text search can. The receipt says which browser rendered
// the pages and lists the tools. initial_html_content stays a judgement of
// the HTML before scripts.
//
// A plain site search is not an action: one search box, in a search
// landmark or named like one. The Permissions-Policy header is read as an
// RFC 9651 dictionary. No tools member means the feature's default
// allowlist, 'self', applies, which passes (the scoring method, Section 07,
// "the default is a policy"). A header that does not parse is ignored, as
// browsers ignore it.
//
// # The MCP probe (Connect)
//
// The MCP endpoint is the one the capability card names. Failing that, it is
// the MCP server card's, then agentic.json's, then /mcp. An endpoint on
// another site is named, never probed. The probe is package mcpprobe's
// [mcpprobe.Probe], through the scan's client. It offers the latest protocol
// version it implements: 2026-07-28's server/discover, then initialize
// offering 2025-11-25. It accepts the version the server negotiates down
// to. It lists the tools without a token, at most five pages. It declares
// no client capability, never signs in and never calls a tool.
//
// A 401 is not a failure of discovery: a Bearer challenge makes the endpoint
// MCP, a guessed /mcp too. Sign-in discovery follows the negotiated
// version's rules. When the 401 came before any version, it follows the
// 2025-11-25 rules, which find the most. Those try the challenge's
// resource_metadata, the path-inserted then the root RFC 9728 well-known
// URI, then RFC 8414 and OpenID Connect discovery. A document whose issuer
// or resource does not match is not used. A transport failure is
// unverified, never a version problem. The evidence is an [MCPReceipt] on
// mcp_discovery: the Section 05 receipt of the scoring method, with every
// version offer, every discovery document and the raw handshake added.
//
// mcp_tested_execution is [VerdictUnverified] wherever something callable
// was found. So no site with a tool or API scores 20/20 in Connect (the
// scoring method, Section 07). Where nothing callable was found, it is
// [VerdictNotApplicable] and leaves the denominator: backend_interface_declared
// is not applicable or fails. A site that states it offers no tool or API is
// not held to what cannot apply.
//
// # Trust and the optional conventions
//
// A way to reach a person needs no crawl (the scoring method, Section 07).
// It is a mailto: link or a link to a contact page on a route read, JSON-LD
// contact data, or a contact in llms.txt or the card. A position on who may
// do what is the card's sign-in section or an auth statement for each of its
// interfaces. Its policies, an agent-auth resource in agentic.json or a
// terms-of-service link also state one. Sign-in that exists with no such
// statement is partial. Sign-in discovery is OAuth metadata,
// /.well-known/agent-signup.json validated with package agentsignup, or an
// Agent Auth configuration at /.well-known/agent-configuration.
//
// The eight optional conventions weigh nothing. They land as
// [VerdictOptional], found or absent, or [VerdictUnverified] when the
// request went unanswered. The ones this module implements are validated
// with their own packages: agentic.ParseSite and agentic.CheckText for
// /agentic.json and /agentic.txt, linkset.Parse and Document.Check for the
// knowledge linkset, openagent.Parse and agentsignup.Parse. A document found
// but invalid is reported as found, with its problems in the receipt's
// notes.
//
// # Scanning
//
// [Scan] reads the given page and the site's well-known files: robots.txt,
// the sitemap, llms.txt and both agents.json copies. It reads at most
// [Options].MaxPages further same-origin routes, chosen from the sitemap and
// then from the page's links. Every resource is fetched once per scan,
// through a memo keyed by method, URL and Accept header. Every check that
// reads it shares it. Independent fetches run concurrently, the ones on the
// critical path first (robots.txt, /sitemap.xml, the page). Everything goes
// through a safefetch client charged to one budget, by default
// [DefaultAttempts] and the bounds beside it.
// The scanner never sends a credential and never calls a tool. It runs
// JavaScript only in the browser of an [Options].Renderer, never in the
// process.
//
// Some probes get no answer: a fetch-policy refusal, 401, 403 or 429, a
// server failure (5xx), a timeout, a redirect that never ends, an exhausted
// budget. Each makes the checks that relied on it [VerdictUnverified]. The
// report says which request went unanswered and why.
//
// The readers of remote data are bounded, and strict where the format is:
//   - the sitemap: a strict XML decoder (sitemaps.org 0.9 namespace, UTF-8,
//     at most 50,000 locs). A gzip-compressed sitemap is inflated within the
//     per-response cap. Of a sitemap index, the first three child sitemaps
//     on the site are read. Locs are compared by host with the exact
//     www/apex rule.
//   - robots.txt: RFC 9309, from at most 500 KiB. It is fetched with up to
//     five redirects (Section 2.3.1.2) when the client's
//     safefetch.Options.MaxRedirects allows five; the default follows three.
//     AI crawler groups are matched by exact product token (Section 2.2.1).
//   - Accept headers: parsed with q-values.
//   - Markdown front matter: a small reader of the keys the method names.
//   - agents.json: package agentsjson, a tolerant reader of the formats in
//     use. These are the method's card, the agents.txt draft's capabilities,
//     wild-card-ai's sources and flows and the site_info draft's intents. A
//     document of another kind is named as foreign.
//
// # Fix first
//
// [Report].Fixes leads every form of the report. It lists every check that
// leaves points (partial, fail or unverified, with weight) and that a change
// of the site can make pass. mcp_tested_execution never can: no scan
// executes a tool. The list is ordered by the section points passing the
// check alone would add. That counts what passing brings: a live backend
// interface makes mcp_tested_execution count. Ties go by requirement (R1
// first), then by catalogue order. Each entry has its fix and a link to its
// receipt.
//
// Points are the sections' points in every form. [Report].Earned is out of
// [Report].Applicable, the points of the sections that apply. Score is 100 ×
// Earned / Applicable. When a section leaves the denominator, every form says
// so: "60.0 of the 80 points that apply".
//
// # Observations beyond the method
//
// After every check has its verdict, the scan makes the observations
// ([Report].Observations, [ObservationIDs]). They are facts that other
// scanners report and the method's checks do not cover. Each is read and
// validated as its own text defines it, within the scan's budget, a body
// capped at 256 KiB. Each is found, invalid, absent or unverified, with a
// receipt like a check's. They change no verdict, section, requirement or
// score:
//
//   - agent_skills: the discovery index at /.well-known/agent-skills/index.json,
//     else the older /.well-known/skills/index.json ([Agent Skills
//     Discovery], a draft, 0.2.0). Its $schema decides how it is read. The
//     0.2.0 URI is read as such. An absent one is read as 0.1.0, and the
//     receipt says so. Any other is named and the index is not read, so the
//     observation is unverified. Then each entry's name, type, description,
//     url and digest are read. Of at most three skills, the artifact is
//     fetched, on this site only. The SHA-256 of its raw bytes is checked
//     against the index; an archive is never unpacked.
//   - content_signals: Content-Signal lines ([Content Signals], an
//     Internet-Draft: search, ai-input, ai-train = yes or no). And IETF
//     aipref Content-Usage lines ([AI Preference Attachment], an
//     Internet-Draft: an optional path, then an RFC 9651 dictionary of y or
//     n). They are read per user-agent group of robots.txt. The same two
//     fields are read as response headers of the pages the scan read, with
//     no request of its own. Each signal says where it came from. Where
//     robots.txt's group for every crawler and a header state one
//     differently, the texts are silent on which wins. The stricter ("no",
//     "n") is then read, in a note.
//   - notes, not verdicts, on tool conflicts. Lighthouse's SEO robots-txt
//     audit (13.5.0) fails some robots.txt directives as unknown: Agentmap,
//     License, Content-Usage, ... Each is named in the notes of
//     ai_crawler_access, with the header that says the same without it.
//   - web_bot_auth: /.well-known/http-message-signatures-directory ([Web Bot
//     Auth], the working group's Internet-Drafts). It is a JWK Set of public
//     keys, or a Signature Agent Card with jwks xor jwks_uri and a client_id
//     that is its URL. Each key is read by RFC 7517 and refused if it
//     carries a private member. The response's signatures are verified with
//     the directory's own keys by RFC 9421. Their tag is
//     http-message-signatures-directory, covering the request's @authority.
//     Their keyid is the key's RFC 7638 thumbprint, and the algorithm
//     Ed25519 or RSA-PSS-SHA512. The reader passes cloudflare/web-bot-auth's
//     test vectors: signed requests, Signature-Agent fields, cards and
//     registries.
//   - auth_md: /auth.md, a Markdown document with an H1 ([auth.md], a
//     proposal).
//   - x402: any answer of the scan that was 402 Payment Required ([x402], a
//     proposal). Its payment requirements are in the body (version 1) or the
//     PAYMENT-REQUIRED header (version 2).
//   - ucp: /.well-known/ucp, whose "ucp" object names a version, services
//     and capabilities ([Universal Commerce Protocol], a proposal).
//   - acp: /.well-known/acp.json, a JSON object ([Agentic Commerce
//     Protocol], a proposal).
//   - ai_catalog: the AI catalog ([Agentic Resource Discovery] 1.0, a
//     draft). It is found as Lighthouse 13.5.0's ard gatherer finds it.
//     First comes a robots.txt Agentmap line, which may name any URL. Then a
//     <link rel="ai-catalog"> element, then a Link rel="ai-catalog" header
//     field of the page, then /.well-known/ai-catalog.json. It is validated
//     as the ard-schema audit validates it: the specification's JSON Schema
//     and its conformance test's rules. Each finding is an error or a
//     warning with its JSON Pointer. Errors make it invalid; warnings alone
//     leave it found. An advertised catalog that does not answer 200 is
//     invalid.
//   - document_contracts: what the site's own documents say about each
//     other. Each finding names both documents and its fix. It is found
//     when there is any finding, absent when they agree. It names the
//     endpoints that llms.txt, the card and the API catalog name (at most
//     50) that robots.txt disallows for the AI search or user-access
//     crawlers. A disallow for training crawlers only is none: opting out
//     of training costs nothing. It fetches the page once more with an AI
//     user-access agent's User-Agent (ChatGPT-User), never from the scan's
//     memo. It names another status or a challenge page in that answer. It
//     names MCP server cards whose protocol versions or tool count differ
//     from the live server's. It names the page's Link header targets (at
//     most five) and the llms.txt links the llms_txt_links observation reads
//     that answer neither 2xx nor 402.
//   - llms_txt_links: whether the first five same-site links of llms.txt
//     answer 200 (afdocs' llms-txt-links-resolve, a proposal).
//   - markdown_twin: Markdown at the page's URL with .md appended, or
//     index.md for a directory (the llms.txt proposal's convention). It is
//     never the canonical Markdown form.
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
//   - render.go and render_*.go: the report writers, JSON to SARIF and the badge.
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
// Every check carries a [Receipt] (the scoring method, Section 05). It lists
// the requests the check relied on: method, URL and only the request headers
// that change the answer. It says what was expected and what was received:
// status, media type, the relevant response headers and a short summary of
// the body. It adds notes. Credentials are never sent and never recorded.
// Every finding names the routes it was read from. The routes the scan read
// travel with the report (the scoring method, Section 07, "findings state
// their scope"). A check whose verdict leaves something to do may say what
// to publish or change ([CheckResult].Fix).
//
// # One result, three forms
//
// A [Report] is one value. [Report.JSON] is the canonical form, with
// snake_case field names like every result type of this module.
// [Report.Markdown] and [Report.HTML] render the same numbers for people.
// The HTML page is self-contained (inline CSS and SVG only). It reads with
// scripts off, and on paper.
//
// # For developers and CI
//
// Every entry of the fix-first list carries a prompt for a coding agent
// ([FixItem].Prompt). It names the site and check, what was requested and
// received (quoted as data), what passes, what to do and the published texts
// to follow. [Report.Prompt] joins them into one Markdown message.
//
// [Report.Summary] is the compact form of a report, for histories over many
// runs and sites. [Compare] and [CompareSummaries] say what changed between
// two runs, each check both ways. They tell pass, not applicable and an
// optional document's presence apart. A report's Trend and Baseline, set by
// the caller from its history, are drawn by every form. [Report.Badge] is a
// shields.io-style SVG badge of the score. Its colours are the HTML gauge's
// bands: green from 90, orange from 50, red below (the method defines none).
//
// For CI systems, [Report.SARIF] writes SARIF 2.1.0: a rule per catalogue
// check, a result per check that leaves points. [Report.JUnit] writes a test
// case per check. [Report.JobSummary] writes a short Markdown page for a
// job's summary. Each shows the Baseline's delta. To scan an http.Handler
// from a go test before it is deployed, see package readiness/readinesstest.
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
