// Package webread holds the readers of the web formats that the readiness
// scanner and the publish kit must agree on. So what the scanner judges
// is what the kit writes, and a rule changes in one place:
//
//   - robots.txt as RFC 9309 (Robots Exclusion Protocol) defines it, with
//     the readings of Google's open-source parser where the RFC leaves room:
//     [ParseRobots] reads a file into a [Robots] value whose
//     [Robots.Allowed] answers for one crawler and one path and whose
//     [Robots.Sitemaps] lists the Sitemap lines; [RobotsForStatus] applies
//     the status rules of RFC 9309 Section 2.3.1 to a fetched file, and
//     [RobotsUnreachable] stands for a file that could not be fetched;
//     [Crawlers] is the one table of AI crawler product tokens by class;
//   - sitemaps (sitemaps.org 0.9, gzip-compressed or not);
//   - the front matter of a Markdown page;
//   - JSON-LD blocks;
//   - HTTP content negotiation (RFC 9110 Accept with qvalues);
//   - the Permissions-Policy "tools" feature of WebMCP (RFC 9651 structured
//     fields);
//   - BCP 47 language tags and dates.
//
// Every reader is bounded (bytes, tokens, entries, nesting) and reports a
// bound that is reached. None opens a connection: the caller fetches and
// hands over the status and body. For robots.txt the caller follows at
// least five redirects (RFC 9309 Section 2.3.1.2).
//
// Left out: robots.txt's Crawl-delay and every other line RFC 9309 Section
// 2.2.4 leaves to crawlers, except Sitemap. Sitemap extensions (image,
// video, news) and hreflang alternates are left out too. There is no full
// YAML parser: front matter is read as top-level "key: value" lines. There
// is no JSON-LD expansion: @context is not resolved, and schema.org type
// names are compared after their namespace prefix is removed.
//
// [RFC 9309]: https://www.rfc-editor.org/rfc/rfc9309
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
// [RFC 9651]: https://www.rfc-editor.org/rfc/rfc9651
package webread
