// Package agentic implements Agentic Site Profile 1.1: the /agentic.json
// document a website publishes to describe its public documentation, APIs
// and advertised agent connections, and its generated /agentic.txt index.
//
// The specification is agentic-site-profile-1.1.md (version 1.1.0, released
// 2026-09-07); the facts it leaves implicit (schema limits, the TXT byte
// layout, the conventional discovery paths) come from its reference tools,
// ruagentic 1.3.0.
//
// # Documents
//
// [ParseSite] reads a profile: strict JSON, the schema pinned in this
// package (a publisher's "$schema" is never fetched), and every rule the
// schema cannot say: URL rules, a bare canonical origin, (kind, url)
// uniqueness, at least one retrieved resource, each API bound to a retrieved
// OpenAPI resource, operation path rules, (method, path) uniqueness and the
// 64 KiB size. Its error is a [*ValidationError] listing every [Problem]
// with a JSON Pointer and a stable rule name. An Action Profile 1.0 is
// refused with [ErrActionProfile]; [ParseActionProfile] keeps one byte for
// byte and regenerates its Action TXT 1.0.
//
// # TXT
//
// [Site.Text] writes TXT 1.1 byte for byte as the reference generator does,
// [Site.PublicationText] the TXT 1.2 publication form, and [CheckText] (or
// [CheckTextDetail], with the first differing line) compares a served file
// with both. [ParseText] reads any index back into its records.
//
// # Publishing
//
// [Handler] serves /agentic.json and /agentic.txt from one [Site], generated
// once, with ETag and conditional GET.
//
// The JSON stays authoritative. Resources are discovery information, not
// execution instructions: a linked resource establishes no ownership,
// conformance or authorization, and indexed operations are descriptions,
// never executable actions.
package agentic
