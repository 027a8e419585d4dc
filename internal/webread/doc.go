// Package webread holds the readers of the web formats that the readiness
// scanner and the publish kit must agree on, so that a rule changes in one
// place: sitemaps (sitemaps.org 0.9, gzip-compressed or not), the front
// matter of a Markdown page, JSON-LD blocks, HTTP content negotiation
// (RFC 9110 Accept with qvalues), the Permissions-Policy "tools" feature of
// WebMCP (RFC 9651 structured fields), BCP 47 language tags and dates.
//
// Every reader is bounded (bytes, tokens, entries, nesting) and reports a
// bound that is reached; none fetches anything.
//
// Left out: sitemap extensions (image, video, news), hreflang alternates, a
// full YAML parser (front matter is read as top-level "key: value" lines),
// JSON-LD expansion (@context is not resolved; schema.org type names are
// compared after their namespace prefix is removed).
//
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
// [RFC 9651]: https://www.rfc-editor.org/rfc/rfc9651
package webread
