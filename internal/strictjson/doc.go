// Package strictjson decodes JSON texts under the strict rules that every
// agentweb document format shares.
//
// The grammar is RFC 8259 (The JavaScript Object Notation (JSON) Data
// Interchange Format) and the profile is RFC 7493 (The I-JSON Message Format).
// A document is refused when any of the following holds. The refusal is an
// [*Error] that names a stable rule, the JSON Pointer (RFC 6901) of the value
// where the problem was found, and its byte offset:
//
//   - "json-syntax": the text is not an RFC 8259 JSON text (section 2).
//   - "json-bom": the text starts with a byte order mark (RFC 8259 Section 8.1
//     says implementations MUST NOT add one; we refuse to read one).
//   - "json-utf8": the text is not well-formed UTF-8 (RFC 8259 Section 8.1,
//     RFC 7493 Section 2.1), in a string or anywhere else.
//   - "json-surrogate": a \u escape names a surrogate code point that is not
//     part of a valid pair (RFC 7493 Section 2.1, RFC 8259 Section 8.2).
//   - "json-duplicate-member": an object has two members with the same name
//     after unescaping (RFC 7493 Section 2.3).
//   - "json-depth": containers are nested more than [MaxDepth] levels deep
//     (RFC 8259 Section 9 allows a parser to limit nesting).
//   - "json-trailing-data": anything but JSON whitespace follows the value.
//   - "json-number-range": a number is outside the range of an IEEE 754
//     binary64 value (RFC 7493 Section 2.2): it overflows to an infinity, or
//     it is not zero but so small that it rounds to zero (such as 1e-400).
//     Zero with any exponent, and -0, are accepted. Besides I-JSON, this
//     bounds the cost of exact arithmetic on the number (a JSON Schema
//     validator turns numbers into big rationals, and 1e-400000 alone costs
//     milliseconds).
//
// [Decode] builds the generic tree that JSON Schema validators expect:
// map[string]any, []any, string, json.Number, bool and nil, exactly what
// encoding/json produces with UseNumber. [Valid] applies the same checks
// without building the tree. Once Decode has succeeded, json.Unmarshal into a
// typed value is safe, because every ambiguity that encoding/json would
// silently resolve (duplicate names, replaced invalid UTF-8) has been refused.
//
// [DecodeOrdered] applies the same rules and returns an ordered tree of
// [Value]s instead. Object members keep the order the text has them, and
// each value keeps the byte offsets of its source text. It serves formats
// whose member order matters (a link set's relation order) or whose values
// are copied as written. Its errors are Decode's, rule, pointer and offset
// alike.
//
// [AppendString] writes the other way: a string quoted as JavaScript's
// JSON.stringify and RFC 8785 (JSON Canonicalization Scheme) quote it, and
// [AppendStringFunc] adds the extra \u escapes that a format asks for.
//
// Decode and DecodeOrdered are each a single pass over the input that
// allocates only for the values it returns. Strings without escapes share the
// memory of one copy of the input, so the returned tree keeps that copy alive
// while any of its strings is referenced.
package strictjson
