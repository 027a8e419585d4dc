// Package fetchtest is a fake internet for tests and demos, in the spirit of
// net/http/httptest: real servers, fake world.
//
// A [Network] gives each host name registered with [Network.Site] a real
// TLS server on loopback. It gives it a certificate for that name issued
// by the Network's own certificate authority (ECDSA P-256, made fresh by
// [New]). And it gives it a public-looking address, from [FirstAddr] on.
// Its resolver answers with those addresses, its Dial maps them (port 443)
// to the loopback listeners, and the connections it returns report the
// public-looking address as their remote address. So a [safefetch.Client]
// built from [Network.Options] runs every check of production unchanged
// against URLs such as https://shop.example/, with no port and no network.
// Those checks are URL, DNS classification, pinned dial and remote-address
// re-verification, and TLS host name verification.
//
// [Network.Host] adds DNS records only (a private address, several
// answers, or none for NXDOMAIN) for tests of refusals. [Network.SetLatency]
// delays a host's responses (benchmarks of scans, deadlines), and
// [Network.Requests], [Network.Lookups] and [Network.Dials] count what
// reached the fake world (tests of budgets, walks and refusals).
// [Network.Certificate] and [Network.SiteWithCertificate] make sites with a
// certificate for the wrong name, or an expired one. A site speaks HTTP/1.1
// only; one registered with [Network.SiteHTTP2] offers HTTP/2 as well
// (tests of connection sharing, and of a shared client under load).
//
// # Servers that guard against DNS rebinding
//
// Every site is really served from a loopback listener (127.0.0.1), and its
// requests carry the site's own Host header (shop.example, not localhost).
// On the server side, http.LocalAddrContextKey is therefore a loopback
// address while Host is a public name: exactly the pattern that
// DNS-rebinding guards keyed on loopback refuse. Such a guard must be turned
// off for the handler given to [Network.Site] in tests. For example the MCP
// go-sdk's mcp.NewStreamableHTTPHandler answers every request with 403
// Forbidden ("invalid Host header") unless it is built with
// &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}. Production
// servers, reached on a public address, keep the guard.
//
// A Network is safe for concurrent use and keeps no global state. It is for
// tests and demos only: its authority's key lives in memory and its servers
// accept anything.
//
// Typical use:
//
//	n := fetchtest.New()
//	t.Cleanup(n.Close)
//	n.Site("shop.example", mux)
//	n.Host("intranet.example", "10.0.0.7")
//	client := n.Client()
package fetchtest
