// Package mcpprobe probes one MCP endpoint from outside, as an agent that
// holds no token would find it. It reports the transport, the protocol
// version, the tools listed without a token, and how sign-in is discovered.
//
// [Probe] speaks MCP Streamable HTTP with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk). Every request goes through a
// safefetch client, with its address policy, caps, time-outs and budget.
// A round-tripper between them records each exchange and caps each body at
// [MaxBodyBytes].
//
// # Versions
//
// It implements the protocol versions 2026-07-28, 2025-11-25, 2025-06-18
// and 2025-03-26 ([MCP 2026-07-28], [MCP 2025-11-25], [MCP 2025-06-18],
// [MCP 2025-03-26]). It offers the latest first, as the lifecycle asks
// ([MCP lifecycle 2025-11-25], "Version Negotiation"). That is 2026-07-28's
// stateless server/discover first. When the server declines it, initialize
// offers 2025-11-25. The probe accepts the version the server returns when
// it implements it. The [Receipt] records every offer, the version returned
// and the version negotiated, and the raw handshake.
//
// # Sign-in discovery
//
// When a request answers 401, discovery follows the authorization rules
// of the negotiated version ([MCP authorization 2025-11-25]):
//   - 2025-03-26: OAuth 2.0 Authorization Server Metadata ([RFC 8414]) at
//     the MCP server's origin, whose issuer must be that origin;
//   - 2025-06-18: OAuth 2.0 Protected Resource Metadata ([RFC 9728]) named
//     by the Bearer challenge's resource_metadata (Section 5.1), then the
//     first authorization server's RFC 8414 metadata;
//   - 2025-11-25 and 2026-07-28: also the path-inserted, then the root
//     well-known URI (RFC 9728 Section 3.1), and, after RFC 8414, OpenID
//     Connect discovery ([OpenID Connect Discovery 1.0]), path insertion
//     before appending.
//
// When the 401 comes before any version was negotiated, no version's rules
// were agreed. The receipt says so (Auth.BeforeVersion), and the 2025-11-25
// rules, which find the most, are applied. Every [Document] names the rule
// that asked for it and the earliest version whose rules include it.
//
// Some documents are read but not used. Protected resource metadata is not
// used when its resource does not match the endpoint (RFC 9728 Section 3.3).
// They match when identical in the RFC 3986 Section 6 normal form, so host
// case, a default port, percent-encoding case and one trailing slash do not
// count. Authorization server metadata is not used when its issuer is not
// the one its URL was built from (RFC 8414 Section 3.3). None of such a
// document's data (PKCE methods, registration endpoint) appears in the
// receipt, except in the Document's Problem. From 2025-06-18, when no
// protected resource metadata is found, the origin's RFC 8414 metadata is
// still read and marked Auth.OriginFallback.
//
// # What it leaves out
//
// It never signs in, registers a client, requests a token or calls a tool.
// So flows that need a token are never exercised: dynamic client
// registration, client ID metadata documents, the authorization and token
// requests, scope step-up. [Tools] says what that leaves unknown. It
// declares no client capability (no roots, sampling or elicitation),
// because it serves none. So a server lists the tools a client without
// capabilities sees.
//
// It does not open the standalone SSE stream and does not resume streams.
// It does not speak the 2024-11-05 HTTP+SSE transport. It accepts a server
// that negotiates 2024-11-05 over Streamable HTTP, whose authorization rules
// are then 2025-03-26's. 2026-07-28's authorization discovery is taken to be
// 2025-11-25's.
//
// A transport failure (a reset, a time-out, a cap) is never read as a
// version or protocol problem. It is [OutcomeUnanswered], with the URL and
// the reason. A session that fails because a pooled connection was closed
// is run once more, since the probe only reads; a discovery GET likewise.
//
// [MCP 2026-07-28]: https://modelcontextprotocol.io/specification/2026-07-28
// [MCP 2025-11-25]: https://modelcontextprotocol.io/specification/2025-11-25
// [MCP 2025-06-18]: https://modelcontextprotocol.io/specification/2025-06-18
// [MCP 2025-03-26]: https://modelcontextprotocol.io/specification/2025-03-26
// [MCP lifecycle 2025-11-25]: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
// [MCP authorization 2025-11-25]: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
// [RFC 8414]: https://www.rfc-editor.org/rfc/rfc8414
// [RFC 9728]: https://www.rfc-editor.org/rfc/rfc9728
// [OpenID Connect Discovery 1.0]: https://openid.net/specs/openid-connect-discovery-1_0.html
package mcpprobe
