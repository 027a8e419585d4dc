// Package service is a self-hosted scanning site. It is an http.Handler that
// lets people and agents scan websites for agent readiness (package
// readiness). They follow a scan as it runs, read its report, and keep every
// site's history, with badges, in SQLite or PostgreSQL. Program
// examples/scanserver runs it.
//
// # The site
//
//   - GET / is a form with one field, url; it is declared as a page tool
//     (the WebMCP declarative attributes), so an agent in a browser can use
//     it too. Submitting it starts a scan and goes to /scans/{id}, which
//     shows the checks as they finish (server-sent events and a little
//     script; without scripts, a reload does the same), then the report:
//     the same page as readiness.Report.HTML, with its fix-first list and
//     fix prompts, and with Report.Trend set from the site's earlier scans
//     (the trend chart and what changed since the scan before), under a bar
//     that links to the site's history.
//   - GET /sites/{host}: every scan of the site with its score, the same
//     trend chart (inline SVG, drawn by the server) and the section deltas
//     and check changes between the last two finished scans
//     (readiness.CompareSummaries). {host} is the site URL's host, lower
//     case, with its port when not the default (shop.example,
//     127.0.0.1:8080).
//   - GET /badge/{host}.svg: the badge of the last finished scan
//     (readiness.Summary.Badge), with an ETag and a short Cache-Control;
//     404 for a site never scanned here.
//   - /mcp: Options.MCP (the MCP server of package readiness/mcpserver, or
//     any handler), behind the same limits as the API.
//
// # The API
//
// JSON in snake_case; every error is {"error": {"code", "message"}} with
// the status that fits; /openapi.json describes it all.
//
//   - POST /api/scans {"url", "browser"?}: 202 {"id", "status", "url", ...}
//     for a new scan; 200 with the finished scan and "cached": true when the
//     site was scanned within Options.CacheTTL (before any rate limit: a
//     cached answer costs the site nothing); 202 with the id of the scan in
//     flight when the site is being scanned (one scan of a site at a time).
//   - GET /api/scans/{id}: {"id", "site", "status", "report"?, "error"?}
//     with status queued, running, done or failed; report is the
//     readiness.Report.JSON object verbatim; an unknown id is 404.
//   - GET /api/scans/{id}/events: server-sent events ([HTML Living
//     Standard], "Server-sent events"): progress events as checks finish,
//     then one done or failed event carrying the scan object, then the
//     stream ends. A late subscriber first gets what it missed, and
//     Last-Event-ID skips what it had.
//   - GET /api/sites/{host}: the history as JSON.
//
// # Agent-ready itself
//
// The pages go through the publish kit (package readiness/publish). The
// service publishes llms.txt, a sitemap, robots.txt, a capability card and
// Markdown forms of its pages. It publishes its OpenAPI document at
// /openapi.json, and an API catalog at /.well-known/api-catalog ([RFC 9727])
// that points to it. It publishes its MCP endpoint when mounted. Scanned by
// readiness.Scan on a public origin, the service is ready.
//
// # Limits and abuse
//
// The service fetches any URL a stranger types, so scan creation and /mcp
// (not the pages and documents) are rate-limited. They are limited per
// caller: its address, an IPv6 address by its /64, read from
// Options.ClientIPHeader behind a trusted proxy. They are also limited per
// target: the site's registrable domain, or for an IP literal its address
// and port. The counters live in the store, in fixed windows, so that a
// limit holds across every instance sharing it. The queue is bounded
// (Options.QueueSize), and so are the workers (Options.Workers), the
// request bodies (413), the URL (414), the time a body may take to arrive
// (408) and every event stream. Every 429 carries Retry-After. A URL the
// scans' client would refuse (not https, userinfo, a loopback, private or
// metadata address, a bad host) is refused with 422 and the reason. The
// answer never holds the URL, which may carry a password. A site whose
// name resolves to such an address fails with that reason. Every field is
// escaped on every page.
//
// # Storage
//
// One database/sql store with two drivers, the same schema and queries:
// SQLite, embedded (OpenSQLite, modernc.org/sqlite: no cgo), and PostgreSQL
// for several instances (OpenPostgres, pgx). The schema's migrations are
// versioned and run on open. Accepted scans are jobs in the store. A worker
// claims the oldest queued one (FOR UPDATE SKIP LOCKED on PostgreSQL) with
// a lease that it renews while the scan runs. So a scan never runs twice at
// once. A scan whose process died is re-queued once: on open for SQLite, a
// whole lease after its lease ran out for PostgreSQL. It fails with the
// reason if it is interrupted a second time. Running it again counts
// against its target's limit, so a site never receives more scans than the
// limit, interrupted ones included. Close stops claiming, lets running
// scans finish for a grace period and puts the rest back in the queue.
//
// [HTML Living Standard]: https://html.spec.whatwg.org/multipage/server-sent-events.html
// [RFC 9727]: https://www.rfc-editor.org/rfc/rfc9727
package service
