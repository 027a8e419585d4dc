// Package webread holds the web-format readers that the scanner and the
// publisher must agree on: a file a site publishes is read here one way, so
// that what the readiness scanner judges is what the publish kit writes.
//
// It implements robots.txt as RFC 9309 (Robots Exclusion Protocol) defines
// it, with the readings of Google's open-source parser where the RFC leaves
// room (see [Parse]): [Parse] reads a file into a [Robots] value whose
// [Robots.Allowed] answers for one crawler and one path, and whose
// [Robots.Sitemaps] lists the Sitemap lines; [ForStatus] applies the status
// rules of RFC 9309 Section 2.3.1 to a fetched file, and [Unreachable]
// stands for a file that could not be fetched at all.
//
// It leaves out the Crawl-delay line and every other line RFC 9309 Section
// 2.2.4 leaves to crawlers, except Sitemap. It opens no connection: the
// caller fetches robots.txt (following at least five redirects, RFC 9309
// Section 2.3.1.2) and hands over the status and body.
//
// [RFC 9309]: https://www.rfc-editor.org/rfc/rfc9309
package webread
