// Package linkheader parses and formats HTTP Link header fields as defined by
// RFC 8288 (Web Linking), section 3.
//
// [Parse] reads every Link field value of a response (resp.Header.Values("Link")):
// each is a comma-separated list of link-values, and each link-value is a
// target URI-reference in angle brackets followed by semicolon-separated
// target attributes (section 3.1 and 3.4). Commas and semicolons inside
// quoted strings are data, quoted-pair escapes are honoured (RFC 9110
// section 5.6.4), parameter names are case-insensitive, and whitespace and
// empty list elements are tolerated as the list rule of RFC 9110 section
// 5.6.1 asks.
//
// The attributes that RFC 8288 gives a meaning are lifted into fields: "rel"
// (section 3.3, several space-separated relation types, registered names
// lower-cased, later occurrences ignored), "anchor" (section 3.2), "type",
// "media", "hreflang" (repeatable) and "title", with "title*" (section
// 3.4.1, an RFC 8187 ext-value such as UTF-8'de'n%c3%a4chstes) preferred
// over "title" when both are present. Every other attribute is kept in
// order in [Link.Params].
//
// When a base URL is given, the target and the anchor are resolved against
// it (RFC 3986 section 5), as a client resolves them against the URL of the
// response that carried the header (RFC 8288 section 3.1 and 3.2).
//
// A field that does not follow the grammar is an error naming the field and
// the byte offset, never silently skipped: the target must hold only
// characters a URI-reference may hold (RFC 3986 section 2), and an unquoted
// parameter value must be a token (RFC 8288 section 3, RFC 9110 section
// 5.6.2), so "rel=x garbage" and "type=application/json" are errors where
// "rel=\"x garbage\"" and "type=\"application/json\"" are not. The one
// tolerance beyond the grammar is an empty parameter ("</a>;; rel=x", "</a>;").
// A field list holding more than [MaxLinks] links is refused.
//
// [Format] writes links back in RFC 8288 syntax that Parse reads to the same
// values.
package linkheader
