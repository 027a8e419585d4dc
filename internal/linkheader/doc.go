// Package linkheader reads, checks and writes HTTP Link header fields as
// defined by [RFC 8288] (Web Linking).
//
// Two parsers, one for each side of the wire, because RFC 8288 itself has
// two. Section 3 gives the grammar a publisher must write. Appendix B gives
// the algorithm a client parses with. It reads far more than the grammar
// allows ("consume up to the first ';' or ','"), as browsers do.
//
//   - [Parse] is the reader: Appendix B step by step, for every package
//     that reads the Link fields a server sent. It never fails on what a
//     server sends (`</llms.txt>; rel=describedby; type=text/plain` is
//     read, though type's value is no token), it reads title* and every
//     other star parameter as an RFC 8187 ext-value, keeps the first rel,
//     anchor, type, media and title, and lower-cases parameter names and
//     relation types.
//   - [ParseStrict] is the judge: the section 3 grammar with the list rule
//     of RFC 9110 Section 5.6.1, for validating what a publisher sends. A
//     field that strays from it is a [*SyntaxError] naming the field value
//     and the byte offset: the target must hold only characters a
//     URI-reference may hold (RFC 3986 Section 2), and an unquoted
//     parameter value must be a token (RFC 9110 Section 5.6.2), so
//     "rel=x garbage" and "type=application/json" are errors where
//     "rel=\"x garbage\"" and "type=\"application/json\"" are not. The one
//     tolerance beyond the grammar is an empty parameter ("</a>;; rel=x").
//
// Both lift the attributes that RFC 8288 gives a meaning into the fields of
// [Link] ("rel", "anchor", "type", "media", "hreflang", "title" and
// "title*") and keep every other attribute in order in [Link.Params]. When a
// base URL is given, the target and the anchor are resolved against it (RFC
// 3986 Section 5). That is how a client resolves them against the URL of the
// response that carried the header (RFC 8288 Section 3.1 and 3.2). Both stop
// at [MaxLinks] links.
//
// [Format] writes links in section 3 syntax, which ParseStrict accepts and
// both parsers read back to the same values.
//
// [RFC 8288]: https://www.rfc-editor.org/rfc/rfc8288
package linkheader
