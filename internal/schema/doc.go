// Package schema compiles the JSON Schemas that agentweb embeds and reports
// every way a document departs from one.
//
// Schemas are JSON Schema draft 2020-12 (JSON Schema Core and Validation,
// https://json-schema.org/draft/2020-12) unless they name another draft with
// $schema. The "format" keyword is asserted, as the format-assertion
// vocabulary of the Validation specification Section 7.2 allows. So a "uri"
// or "date-time" that is not one is an error rather than an annotation.
//
// No URL is ever loaded. Every $ref, $schema or $id may need a document other
// than the one given to [Compile], or a draft meta-schema that is built in.
// Such a reference fails compilation with [ErrRemoteLoad], whatever its
// scheme: https, http and file alike. Schemas therefore come from files
// embedded in the binary, compiled once:
//
//	//go:embed site-1.1.json
//	var siteSchemaJSON []byte
//	var siteSchema = sync.OnceValue(func() *schema.Schema {
//		return schema.MustCompile("https://schemas.agentweb.invalid/agentic/site-1.1.json", siteSchemaJSON)
//	})
//
// [Schema.Validate] returns one [Violation] per leaf problem, never only the
// first. Each has the JSON Pointer (RFC 6901) of the offending instance
// value, the keyword that failed and a message a person understands. For
// "required" the pointer names the missing member, and for
// "additionalProperties" there is one violation per extra member at that
// member's own pointer.
//
// The package is a thin layer over github.com/santhosh-tekuri/jsonschema/v5;
// none of its types appear in this package's API.
package schema
