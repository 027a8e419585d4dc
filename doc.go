// Package agentweb is an embeddable Go SDK for the agent-facing web: the small
// documents a website publishes so that AI agents can find, understand and
// safely use it, and the clients that read, verify and score them.
//
// The module implements five published specifications over one shared,
// SSRF-safe fetcher:
//
//   - [github.com/agentweb/agentweb/safefetch]: the only code in the module that
//     opens a connection. It classifies every address against the IANA
//     special-purpose registries before and after connecting, pins DNS answers,
//     follows redirects in its own loop, and caps bytes, headers, attempts and time.
//   - [github.com/agentweb/agentweb/safefetch/fetchtest]: a fake internet of real
//     TLS servers on loopback, for tests and demos.
//   - [github.com/agentweb/agentweb/agentic]: Agentic Site Profile 1.1
//     (/agentic.json and its /agentic.txt index): model, validation, TXT,
//     the website generator and the auditor.
//   - [github.com/agentweb/agentweb/openagent]: OpenAgent 0.1 profiles
//     (/.well-known/openagent.json): validation, discovery, reading and publishing.
//   - [github.com/agentweb/agentweb/linkset]: the knowledge-linkset well-known URI
//     (an RFC 9264 link set with a profile): validation, digests, canonical
//     building, serving, fetching and the bounded peer walk.
//   - [github.com/agentweb/agentweb/agentsignup]: agent-identity-v1 discovery
//     documents (/.well-known/agent-signup.json): validation, the terms hash and
//     relying-party attestation verification.
//   - [github.com/agentweb/agentweb/readiness]: the agent-readiness scanner, which
//     scores a whole site out of 100 points with a receipt for every verdict.
//
// Every network entry point takes a [context.Context] first and an options
// struct whose zero value is safe; a nil *safefetch.Client means
// safefetch.New(nil), never http.DefaultClient.
package agentweb
