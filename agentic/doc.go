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
// once, with ETag and conditional GET; [ActionHandler] does the same for a
// preserved action profile.
//
// # Generating
//
// [Discover] builds a profile by reading an origin's public documents: the
// conventional paths ([conventionalPathList]) and the same-origin links they
// select as documentation or API descriptions. It reads HTML, text/Markdown,
// JSON metadata and OpenAPI 3 JSON; never runs scripts, signs in or invokes
// a protocol; records MCP, A2A, Agent Auth and cross-origin URLs as linked
// without fetching them; and keeps to the specification's limits through one
// safefetch budget (22 attempts, 5 concurrent, 1 MiB per response, 8 MiB in
// all, 40 s, 3 same-origin-or-www redirects). OpenAPI operation ids are
// copied verbatim or left out, never invented. An existing valid profile
// takes priority. The [DiscoveryReport] lists every request, failure and
// truncation, and [Discovery.WriteDir] writes agentic.json, agentic.txt,
// README.md, LISTING.md and the report into a new directory.
//
// # Auditing
//
// [Audit] reads a published profile and checks its structure, that its
// origin is the origin serving it, the TXT beside it, and up to five
// retrieved same-origin documents, OpenAPI indexes first (each indexed
// operation must exist in the live document). [AuditReport.Valid] excludes
// TXT consistency, which [AuditReport.TextIndex] reports; linked resources
// are never fetched.
//
// Every network entry point takes a context first and an options struct
// whose zero value is safe; a nil Client means safefetch.New(nil). Responses
// are recorded with their URL, final URL, status, size, ETag, Last-Modified
// and time.
//
// The JSON stays authoritative. Resources are discovery information, not
// execution instructions: a linked resource establishes no ownership,
// conformance or authorization, and indexed operations are descriptions,
// never executable actions.
package agentic
