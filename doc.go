// Package agentweb is an embeddable Go SDK for the agent-facing web. It covers
// the small documents a website publishes so that AI agents can find,
// understand and safely use it. It also holds the clients that read, verify
// and score them. It lets a Go service publish each document correctly. It
// lets a client fetch, validate and verify them from untrusted sites without
// being turned against its own network. And it scores how ready a whole site
// is for agents, with evidence for every verdict. This package holds no code;
// it is the map.
//
// # Run it
//
// With Go 1.26 and nothing else (no network beyond the Go module proxy), from
// a clone of the repository:
//
//	go run ./examples/demo    # the main job: an agent-ready shop on a fake internet, every client run against it
//	go test ./...             # the tests (.ci/run adds gofmt, go vet and -race)
//
// The demo starts Example Shop (package
// github.com/agentweb/agentweb/examples/demo/demosite) on a fake internet of
// real TLS servers on loopback. It runs, in order, agentic.Discover and
// agentic.Audit, openagent.Discover and openagent.Fetch, linkset.Fetch with
// every artefact's digest verified and the peer linkset.Walk,
// agentsignup.Fetch with the rp_attestation verified against the demo
// broker's key, and readiness.Scan. It prints one summary. It writes the
// readiness report as HTML, Markdown and JSON, and the generated agentic
// directory, into a new temporary folder (-out to choose). The flag -broken
// runs the same against the shop with deliberate defects and shows the
// difference; -site URL runs the clients against a real site.
//
// # Packages
//
//   - [github.com/agentweb/agentweb/safefetch]: the only code in the module that
//     opens a connection (see "The fetcher's security model" below).
//   - [github.com/agentweb/agentweb/safefetch/fetchtest]: a fake internet of real
//     TLS servers on loopback, for tests and demos.
//   - [github.com/agentweb/agentweb/agentic]: Agentic Site Profile 1.1
//     (/agentic.json and its byte-exact /agentic.txt index): validation, the
//     generator (Discover), the auditor and the publisher handler.
//   - [github.com/agentweb/agentweb/openagent]: OpenAgent 0.1 profiles
//     (/.well-known/openagent.json): validation, discovery, reading with
//     provenance and revalidation, a directory and the publisher handler.
//   - [github.com/agentweb/agentweb/linkset]: the knowledge-linkset well-known URI
//     (an RFC 9264 link set with a profile): validation, digests, canonical
//     building (RFC 8785), serving, fetching and the bounded peer walk.
//   - [github.com/agentweb/agentweb/agentsignup]: agent-identity-v1 discovery
//     documents (/.well-known/agent-signup.json): validation, the terms hash,
//     rp_attestation verification against a broker's keys, fetching and
//     publishing.
//   - [github.com/agentweb/agentweb/readiness]: the agent-readiness scanner,
//     which scores a whole site out of 100 points in six sections and the ten
//     requirements R1–R10, with a receipt for every verdict, and renders one
//     report as JSON, Markdown and HTML. Its sub-package
//     [github.com/agentweb/agentweb/readiness/service] is a self-hosted
//     scanning site with history and badges, on SQLite or PostgreSQL.
//
// Every network entry point takes a [context.Context] first and an options
// struct whose zero value (and nil) is safe; a nil *safefetch.Client means
// safefetch.Default(), one shared client whose connections are reused,
// never http.DefaultClient. Every Parse lists all the
// problems of a document, each with a JSON Pointer and a stable rule name.
// Each package's documentation has a runnable example; in short:
//
//	c := safefetch.New(nil)
//	resp, err := c.Get(ctx, "https://example.com/robots.txt", nil) // refusals wrap ErrForbiddenAddress, ErrTooLarge, ...
//
//	rep, err := agentic.Audit(ctx, "https://shop.example/agentic.json", nil)
//	// rep.Valid, rep.TextIndex.Status == agentic.TextStatusMatched
//
//	d, err := openagent.Discover(ctx, "https://shop.example/", nil)
//	rec, err := openagent.Fetch(ctx, d.URLs()[0], nil) // rec.Profile, rec.ETag
//
//	f, err := linkset.Fetch(ctx, "https://shop.example/.well-known/knowledge-linkset", nil) // the zero Mode reads as a client
//	states := f.Verify(ctx, nil)                             // verified | mismatch | unverified, per artefact
//	walk, err := linkset.Walk(ctx, "https://shop.example/", nil) // walk.Complete, walk.Nodes
//
//	keys, err := agentsignup.NewJWKSKeySet("https://broker.example", "https://broker.example/.well-known/jwks.json", nil)
//	sf, err := agentsignup.Fetch(ctx, "https://shop.example", &agentsignup.FetchOptions{Verifier: agentsignup.NewVerifier(keys, nil)})
//	// sf.Document.Terms, sf.Attestation.Status == agentsignup.StatusVerified
//
//	r, err := readiness.Scan(ctx, "https://shop.example/", nil)
//	// r.Score, r.Ready, r.Sections, r.Requirements; r.JSON(), r.Markdown(), r.HTML()
//
// # One answer per situation
//
// The four spec packages answer the same situation the same way, so that
// one client that discovers and verifies everything a site publishes
// handles them with one function:
//
//   - The URL argument. A function that starts from the site takes any URL
//     of it and says so: openagent.Discover and linkset.Discover any page
//     URL; agentic.Discover and agentsignup.Fetch the origin (a bare host
//     too, no path), because their specification fixes one path. A function
//     that reads one document takes exactly that document's URL:
//     agentic.Audit, openagent.Fetch, linkset.Fetch. Every one normalizes
//     the URL (scheme and host case, IDNA A-labels, default port, trailing
//     dot) before it compares origins.
//   - Nothing published. The error is a *safefetch.StatusError carrying the
//     status and the URL, and errors.Is(err, safefetch.ErrNotFound) holds
//     for a 404 or a 410 in every package; where a package has a sentinel of
//     its own for "not found" (openagent.ErrNoDescriptor,
//     linkset.ErrNotDiscovered) the error wraps both.
//   - An invalid document. The error is the package's *ValidationError
//     (one type across the four, errors.Is(err, pkg.ErrInvalid)), listing
//     every problem, and it comes with the result, which holds what was
//     read: agentic.Audit's report, openagent.Record, linkset.Fetched with
//     its report, agentsignup.Fetched.
//   - Provenance. Every result of a fetch embeds safefetch.Provenance
//     (declared and final URL, redirects, status, media type, validators,
//     retrieval time): agentic.AuditReport, openagent.Record,
//     linkset.Fetched, agentsignup.Fetched.
//   - Discovery tries every place the specification names: openagent's
//     well-known URL and the page's links, linkset's describedby links and
//     its well-known URI, advertised or not.
//   - A zero value reads as a client must: linkset.FetchOptions{} evaluates
//     in linkset.ModeReader; a publisher asks for ModePublisher by name.
//   - A refused URL wraps safefetch.ErrForbiddenURL, and also
//     safefetch.ErrForbiddenAddress when it names a refused address (an IP
//     literal, localhost), as a name that resolves to one does.
//
// # The fetcher's security model
//
//   - URL first: only absolute https URLs without userinfo or odd hosts and
//     ports; http only to loopback and only in development mode, which the
//     program sets, never the input.
//   - Every address classified: one bounded DNS lookup per attempt, every
//     answer checked against the IANA special-purpose registries, and the host
//     refused if any answer is not globally reachable.
//   - Pinned dial: the connection goes to the classified address, never
//     re-resolved, its remote address checked again (no DNS rebinding), no
//     proxy from the environment, TLS host name verified.
//   - Redirects in its own loop: at most three, each hop checked again from
//     the URL step, never https to http, credentials dropped across hosts; the
//     declared URL is never replaced by the final one.
//   - Everything bounded: body, headers, one deadline over the whole request,
//     no content coding it cannot bound, and a shared budget of attempts,
//     bytes, concurrency and time per scan or walk; a reached bound is an
//     error, and every response keeps its evidence.
//
// # The specifications
//
// The texts implemented here are kept in the project's shared specification
// folder, not in this repository. Each package's documentation names its text
// and cites the section behind each rule. The texts are Agentic Site Profile
// 1.1.0 (agentic), OpenAgent 0.1 (openagent), the 'knowledge-linkset'
// Well-Known URI, draft-besleaga-agentic-knowledge-wellknown-00 (linkset), and
// the agent-identity-v1 discovery fields (agentsignup). The readiness package
// implements the agent readiness scoring method 1.2 with this project's check
// catalogue.
//
// # Examples
//
// The programs under examples/ use the exported API only: demo (the main job),
// fetch, agentic, openagent, linkset, agentsignup, readiness, scanserver (the
// scanning site) and validate. The program validate checks any of the five
// documents from a file, its kind detected. Every validator prints one JSON
// shape.
package agentweb
