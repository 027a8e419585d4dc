// Package publish makes a Go site agent-ready from one value. A [Site]
// describes the site: its origin, name, language, contact, pages, which
// crawlers it admits, its MCP endpoint and OpenAPI document.
// [Site.Handler] wraps the site's own page handler so that it serves
// everything the agent-readiness scoring method looks for:
//
//   - /llms.txt, built from the site and its pages by the llms.txt
//     proposal (an H1, a summary blockquote, sections of links with notes,
//     the interfaces and the contact);
//   - /sitemap.xml, a sitemaps.org 0.9 urlset with lastmod, or a sitemap
//     index past 50,000 URLs or 50 MB, gzip-encoded on request;
//   - /robots.txt, with a group per class of AI crawler (training,
//     search and citation, user-initiated) from the one crawler table the
//     scanner judges by, the Sitemap line and an optional Content-Signal;
//   - Markdown negotiation over every HTML page: a request whose Accept
//     header prefers text/markdown (RFC 9110 q-values, the scanner's own
//     parser) gets 200 "text/markdown; charset=utf-8" with front matter
//     (title, description, canonical, updated, language) and the page's own
//     Markdown or its HTML converted; every response carries Vary: Accept
//     and the Link header fields of the method's Section 04 (llms.txt as
//     describedby, the card and the Markdown form as alternates);
//   - the same links in the HTML head, with canonical, html lang, a meta
//     description and schema.org JSON-LD for the organisation (with its
//     contactPoint) and the page (WebPage with dateModified), each added
//     only where the page lacks it ([Site.NoInject] turns this off);
//   - the capability card (package readiness/agentsjson) at both of its
//     addresses from one value, built from the site's facts or given;
//   - the MCP endpoint with its RFC 9728 protected-resource metadata and
//     the WWW-Authenticate challenge on 401, and the OpenAPI document;
//   - the site's Agent Skills ([Site.Skills]), each SKILL.md under
//     /.well-known/agent-skills/ and the discovery index of Agent Skills
//     Discovery 0.2.0 ($schema, and each SKILL.md's URL and SHA-256
//     digest), which the scanner's agent_skills observation reads
//     back and checks;
//   - the site's AI catalog ([Site.Catalog]) at /.well-known/ai-catalog.json
//     (Agentic Resource Discovery 1.0), advertised on every page with a
//     Link header field, rel="ai-catalog", never with a robots.txt
//     Agentmap line, which Lighthouse's SEO robots-txt audit fails.
//
// The kit runs on a development origin too: http://127.0.0.1:8080, or any
// http, loopback or non-default-port origin. It then builds no Agentic
// Site Profile from the site's facts. That profile can only be valid on a
// public https origin on the default port. It serves everything else as
// it would in production.
//
// Every document is built and validated when the handler is built: a bad
// value is a [*SiteError] at start-up, never a broken file in production.
// The kit writes with the same code the scanner (package readiness) reads
// with, so a site built with it cannot fail the scanner by accident.
//
// What the kit cannot do is invent facts: the organisation's logo or
// other profiles (Site.Logo, Site.SameAs), when each page last changed
// (Page.Updated), which tools need a token (MCP.PublicTools and
// TokenTools). Where a fact is missing the kit leaves the element out
// rather than guess, and the scanner's report says what is missing.
//
// [llms.txt proposal]: https://llmstxt.org/
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
// [RFC 9309]: https://www.rfc-editor.org/rfc/rfc9309
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
// [RFC 9728]: https://www.rfc-editor.org/rfc/rfc9728
// [schema.org]: https://schema.org/
package publish
