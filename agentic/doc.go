// Package agentic implements [Agentic Site Profile 1.1]. A website publishes
// the /agentic.json document to describe its public documentation, APIs and
// advertised agent connections. The generated /agentic.txt indexes it.
//
// # What it implements
//
// Site Profile 1.1.0 (released 2026-09-07), its TXT 1.1 index and the TXT
// 1.2 publication form, as the reference tools (ruagentic 1.3.0) read and
// write them. The specification's text leaves some facts implicit: the
// schema's limits, the TXT byte layout, the conventional discovery paths,
// and the README and LISTING a generator writes. There this package follows
// the reference tools. Its tests compare it with the reference's own example
// files byte for byte.
//
// What it leaves out: Action Profile 1.0 is checked only as far as its
// Action TXT 1.0 index needs. That is a bare https origin and an actions
// array of id and description (see [ParseActionProfile]). Its schema, action
// executor, receipts and result verification are not implemented. The
// pre-1.0 draft action format is refused. Nothing here executes an action,
// invokes an advertised protocol or runs a script.
//
// # Documents
//
// [ParseSite] reads a profile with strict JSON and the schema pinned in this
// package; a publisher's "$schema" is never fetched. It also checks every
// rule the schema cannot say:
//   - the URL rules and a bare canonical origin;
//   - (kind, url) uniqueness and at least one retrieved resource;
//   - each API bound to a retrieved OpenAPI resource;
//   - the operation path rules and (method, path) uniqueness;
//   - the size limit, [Limits.ProfileBytes].
//
// Its error is a [*ValidationError] listing every [Problem], each with a
// JSON Pointer and a stable rule name (the Rule constants). Every spec
// package of this module shares the Problem and ValidationError types. The
// URL rules carry the names they have there ("url-https", "url-userinfo",
// ...). An Action Profile 1.0 is refused with [ErrActionProfile];
// [ParseActionProfile] keeps one byte for byte and regenerates its index.
// [SpecLimits] returns the profile's limits and the generator's budget as
// one [Limits] value.
//
// # TXT
//
// [Site.Text] writes TXT 1.1 byte for byte as the reference generator does.
// [Site.PublicationText] writes the TXT 1.2 publication form: the same index
// with two fixed project reference records. One comparator family checks a
// served file against both. [CheckText] gives the short answer, a
// [TextStatus]. [Site.CompareText] and [ActionProfile.CompareText] give the
// [TextCheck] whose Status is that answer. It adds the generation that
// matched, or the first differing line.
//
// [ParseText] reads any index back into its records. Unlike ParseSite, which
// lists every problem, it stops at the first line it cannot read. It reports
// that line in a [*TextSyntaxError]. A TXT index is generated, never written
// by hand. So one unreadable line already means the file is not a
// generator's output, and everything after it is unreliable. The fix is to
// regenerate the file from its JSON, not to correct it line by line.
//
// # Publishing
//
// [Handler] serves /agentic.json and /agentic.txt from one [Site], generated
// once, with ETag and conditional GET; [ActionHandler] does the same for a
// preserved action profile.
//
// # Generating
//
// [Discover] builds a profile by reading an origin's public documents. It
// reads the conventional paths: /agentic.json, /, /llms.txt, /openapi.json,
// /api/openapi.json, /docs, /.well-known/agent-card.json and
// /.well-known/agent-configuration. Then it reads the same-origin links they
// select as documentation or API descriptions. It reads HTML, text/Markdown,
// JSON metadata and OpenAPI 3 JSON. It never runs scripts, signs in or
// invokes a protocol. MCP, A2A, Agent Auth and cross-origin URLs are
// recorded as linked, not fetched. One safefetch budget keeps the scan to
// the specification's [Limits]. OpenAPI operation ids are copied verbatim or
// left out, never invented.
//
// An existing valid profile takes priority. The agentic.txt written is the
// TXT 1.2 publication form, as the reference tools' current generators
// write it ([DiscoverOptions].TextVersion "1.1" asks for TXT 1.1). The
// [DiscoveryReport] lists every request, failure and truncation.
// [Discovery.WriteDir] writes agentic.json, agentic.txt, README.md,
// LISTING.md and discovery-report.json into a new directory. Its README.md
// and LISTING.md are those the reference tools write for the same profile,
// project references included.
//
// # Auditing
//
// [Audit] reads a published profile and checks its structure, and that its
// origin is the origin serving it. It checks the TXT beside it. It reads up
// to [Limits.AuditDocuments] retrieved same-origin documents, OpenAPI
// indexes first; each indexed operation must exist in the live document.
// [AuditReport.Valid] excludes TXT consistency, which
// [AuditReport.TextIndex] reports. Linked resources are never fetched.
//
// # Network and results
//
// Every network entry point takes a context first and an options struct
// whose zero value is safe. A nil Client means safefetch.Default(), the
// module's one shared client, so that successive calls reuse its
// connections. Each request is recorded in a [RequestRecord]. It holds the
// retrieval record (safefetch.Provenance) every fetching package of the
// module keeps: URL, final URL, redirects, status, content type, ETag,
// Last-Modified and time. Result types (reports, checks, records) encode to
// JSON in snake_case, the module's one casing for results. A profile keeps
// the member names the specification fixes.
//
// The JSON stays authoritative. Resources are discovery information, not
// execution instructions: a linked resource establishes no ownership,
// conformance or authorization, and indexed operations are descriptions,
// never executable actions.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
package agentic
