// Package mcpserver serves this SDK as MCP tools ([Model Context Protocol]).
// So any agent can validate, discover, scan and probe what a website
// publishes for agents without a line of Go. A coding agent writing a site's
// agentic.json validates it as it writes, scans the dev server and reads the
// fix-first list.
//
// A [Server] speaks Streamable HTTP ([Server.Handler], mounted on any path,
// for example /mcp) and stdio ([Server.ServeStdio], newline-delimited
// JSON-RPC, for a client that starts it as a process), on the MCP go-sdk's
// server ([MCP transports]). Its tools, each with snake_case names and JSON
// members, an input schema that describes every property, an output
// schema, and the annotations readOnlyHint and idempotentHint (openWorldHint
// exactly on the four that fetch):
//
//   - validate_document {kind, content | url}: kind is agentic_site,
//     openagent, knowledge_linkset (checked in publisher mode), agent_signup
//     or agents_json; the result is {kind, valid, problems, provenance},
//     every problem as its package reports it (pointer, rule, message,
//     section, severity). An invalid document is a successful call with
//     valid false.
//   - discover_site {url}: the five documents, llms.txt, the sitemap,
//     robots.txt and the MCP endpoints they declare, each found, absent,
//     invalid or unverified, with its problems and provenance.
//   - scan_site {url, browser}: readiness.Scan with its defaults; the
//     structured content is the report's JSON, the text the score, the
//     requirements and the fix-first list; progress notifications when the
//     call has a progress token; a cancelled call stops the scan.
//   - probe_mcp {url}: the receipt of readiness/mcpprobe.
//   - explain_check {id}: a catalogue check's section, requirement, points,
//     what passes and how to fix it.
//
// Beside them, the resource agentweb://readiness/catalogue lists every
// check, and the prompt fix_site {url} scans a site and returns one message
// a coding agent can act on.
//
// A tool's failure is a result with isError set, never a JSON-RPC error. It
// may be wrong arguments, a fetch that failed, or a server that is busy. It
// may be a URL the client refuses, with safefetch's reason, found by
// [safefetch.Client.CheckURL] before any request is sent. Every limit on
// calls is in [Options], and the zero value is safe for a server strangers
// reach. (What one call may fetch is the tool's own budget: the scan's for
// scan_site, a fixed one for discover_site.) Options
// bounds the calls at once, with a bounded queue; past it the call says
// "busy" and when to retry. It sets a deadline per call, and caps request
// bodies and stdio lines. Over HTTP it adds a token bucket per caller (429
// with Retry-After before any JSON-RPC) and a limit per target site. One
// registrable domain gets at most Options.TargetPerMinute calls that fetch
// from it in any minute, however many callers ask. So the server cannot be
// used to flood a site.
//
// The program github.com/agentweb/agentweb/examples/mcp runs a Server over
// stdio or HTTP.
//
// [Model Context Protocol]: https://modelcontextprotocol.io/specification/2025-11-25
// [MCP transports]: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
package mcpserver
