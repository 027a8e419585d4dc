// Package agentic implements [Agentic Site Profile 1.1]: the /agentic.json
// document a website publishes to describe its public documentation, APIs
// and advertised agent connections, and its generated /agentic.txt index.
//
// # What it implements
//
// Site Profile 1.1.0 (released 2026-09-07), its TXT 1.1 index and the TXT
// 1.2 publication form, as the reference tools, ruagentic 1.3.0, read and
// write them. Where the specification's text leaves a fact implicit (the
// schema's limits, the TXT byte layout, the conventional discovery paths,
// the README and LISTING a generator writes), this package follows what the
// reference tools do, and its tests compare it with the reference's own
// example files byte for byte.
//
// What it leaves out: Action Profile 1.0 is checked only as far as its
// Action TXT 1.0 index needs (a bare https origin and an actions array of
// id and description, see [ParseActionProfile]); its schema, its action
// executor, receipts and result verification are not implemented. The
// pre-1.0 draft action format is refused. Nothing here executes an action,
// invokes an advertised protocol or runs a script.
//
// # Documents
//
// [ParseSite] reads a profile: strict JSON, the schema pinned in this
// package (a publisher's "$schema" is never fetched), and every rule the
// schema cannot say: URL rules, a bare canonical origin, (kind, url)
// uniqueness, at least one retrieved resource, each API bound to a retrieved
// OpenAPI resource, operation path rules, (method, path) uniqueness and the
// 64 KiB size. Its error is a [*ValidationError] listing every [Problem]
// with a JSON Pointer and a stable rule name (the Rule constants); the
// Problem and ValidationError types are those of every spec package of this
// module, and the URL rules carry the names they have there ("url-https",
// "url-userinfo", ...). An Action Profile 1.0 is refused with
// [ErrActionProfile]; [ParseActionProfile] keeps one byte for byte and
// regenerates its index. [SpecLimits] returns the profile's limits and the
// generator's budget as one [Limits] value.
//
// # TXT
//
// [Site.Text] writes TXT 1.1 byte for byte as the reference generator does,
// and [Site.PublicationText] the TXT 1.2 publication form (the same index
// with two fixed project reference records). One comparator family checks a
// served file against both: [CheckText] gives the short answer, a
// [TextStatus]; [Site.CompareText] and [ActionProfile.CompareText] give the
// [TextCheck] whose Status is that answer, with the generation that matched
// or the first differing line.
//
// [ParseText] reads any index back into its records. It stops at the first
// line it cannot read and reports that line in a [*TextSyntaxError], unlike
// ParseSite, which lists every problem: a TXT index is generated, never
// written by hand, so one unreadable line already means the file is not the
// output of a generator and everything after it is unreliable; the fix is
// to regenerate the file from its JSON, not to correct it line by line.
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
// conventional paths (/agentic.json, /, /llms.txt, /openapi.json,
// /api/openapi.json, /docs, /.well-known/agent-card.json and
// /.well-known/agent-configuration) and the same-origin links they select as
// documentation or API descriptions. It reads HTML, text/Markdown, JSON
// metadata and OpenAPI 3 JSON; never runs scripts, signs in or invokes a
// protocol; records MCP, A2A, Agent Auth and cross-origin URLs as linked
// without fetching them; and keeps to the specification's limits through one
// safefetch budget (22 attempts, 5 concurrent, 1 MiB per response, 8 MiB in
// all, 40 s, 3 same-origin-or-www redirects). OpenAPI operation ids are
// copied verbatim or left out, never invented. An existing valid profile
// takes priority. Its agentic.txt is the TXT 1.2 publication form, as the
// reference tools' current generators write it ([DiscoverOptions].TextVersion
// "1.1" asks for TXT 1.1). The [DiscoveryReport] lists every request,
// failure and truncation, and [Discovery.WriteDir] writes agentic.json, agentic.txt,
// README.md, LISTING.md and discovery-report.json into a new directory; its
// README.md and LISTING.md are those the reference tools write for the same
// profile, project references included.
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
// # Network and results
//
// Every network entry point takes a context first and an options struct
// whose zero value is safe; a nil Client means safefetch.Default(), the
// module's one shared client, so that successive calls reuse its
// connections. Each request is recorded in a [RequestRecord], the retrieval
// record (safefetch.Provenance) every fetching package of the module keeps:
// URL, final URL, redirects, status, content type, ETag, Last-Modified and
// time. Result types (reports, checks, records) encode to JSON in
// snake_case, the module's one casing for results; a profile keeps the
// member names the specification fixes.
//
// The JSON stays authoritative. Resources are discovery information, not
// execution instructions: a linked resource establishes no ownership,
// conformance or authorization, and indexed operations are descriptions,
// never executable actions.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
package agentic
