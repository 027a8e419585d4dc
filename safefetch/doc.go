// Package safefetch is the only code in agentweb that opens a network
// connection. Every document the module reads is named by a third party (a
// site, a link set, a peer). So a client that follows those names is a request
// forwarder. The knowledge-linkset draft Section 9.2 calls the rules of
// Section 7.1 "normative and not advisory". This package enforces them, and the
// bounds of Section 7.2 and of the Agentic site profile's "Discovery and
// auditing" section, for every request, redirect hop included.
//
// # The security model
//
// A [Client] call goes through these steps, each of which fails closed with
// an error that wraps one of the package's sentinels (test with errors.Is):
//
//  1. URL. [CheckURL]: an absolute https URL; http only to loopback and only
//     in development mode ([Options.AllowLoopback], set by the program,
//     never from input); no userinfo, no odd hosts or ports
//     ([ErrForbiddenURL], *[URLError]). What is requested is the
//     [NormalizeURL] form (IDNA host, default port and fragment dropped).
//  2. Resolution. Exactly one DNS lookup per attempt through
//     [Options.Resolver], bounded by [Options.DNSTimeout]. Every answer is
//     unmapped and classified with [CheckAddr]; the host is refused if any
//     answer is refused (draft Section 7.1: "A host that resolves to several
//     addresses MUST be refused if any one of them is refused"). NXDOMAIN,
//     SERVFAIL, an empty answer and a time-out are [ErrDNS]. An IP-literal
//     host is classified without DNS. Loopback is allowed only in
//     development mode ([ErrForbiddenAddress], *[AddrError]).
//  3. Pinned dial. The connection goes to one of the classified addresses,
//     by IP literal, through [Options.Dial] (by default a net.Dialer whose
//     Control hook classifies the socket address once more); the host is
//     never resolved again. The established connection's remote address must
//     equal the classified address, or the connection is closed and the
//     attempt refused (draft Section 7.1, the guard against DNS rebinding). The
//     transport has no proxy: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY
//     are ignored. TLS verifies the host name against [Options.RootCAs] or
//     the system roots.
//  4. Redirects. Followed in the Client's own loop, at most
//     [Options.MaxRedirects] (3), each hop re-checked from step 1: exactly one
//     non-empty Location, resolved against the current URL; never https to
//     http outside development mode; then [Options.Redirect]
//     ([SameOriginOrWWW] is the Agentic site profile's rule). A redirect's
//     body is read only when it ends within 4 KiB (charged to the Budget),
//     so that its connection serves the next hop; a longer one is left
//     unread and its connection closed. Credentials (Authorization, Cookie,
//     Proxy-Authorization) are dropped when a hop changes host.
//     [Response.URL] stays the declared URL (draft Section 7.1: "The final URL of a
//     redirected fetch is not substituted for the URL that was declared");
//     [Response.FinalURL], [Response.Redirects] and [Response.Hops] record
//     the path ([ErrRedirectRefused], [ErrTooManyRedirects]).
//  5. Bounds. "identity" is the only encoding asked for, and a response with
//     any other Content-Encoding is refused: a compressed body can expand past
//     every cap ([ErrContentEncoding]). Bodies are capped at
//     [Options.MaxBodyBytes] ([DefaultMaxBodyBytes], the bound draft
//     Section 7.1 names). A larger declared Content-Length is refused unread.
//     Otherwise at most cap+1 bytes are read, so a larger, lying or endless
//     body is [ErrTooLarge] without being buffered. Bodies of unknown length
//     are read in pooled chunks, so a refused one leaves no allocation behind.
//     Response headers are capped at [Options.MaxHeaderBytes]
//     ([DefaultMaxHeaderBytes]), all of them together ([ErrTooLarge]). That
//     includes informational (1xx) responses, over HTTP/1.1 and HTTP/2 alike.
//     A body delimited only by the end of the connection (neither
//     Content-Length nor chunked) may have been cut anywhere. So it is refused
//     when the connection ended with a TCP FIN but no TLS close_notify. The
//     error wraps io.ErrUnexpectedEOF, as for a body shorter than its
//     Content-Length. One deadline, [Options.Timeout] ([DefaultTimeout], the
//     draft's suggested default), covers DNS, connect, TLS, headers and body
//     of the whole redirect chain. So a slow server cannot hold a call open
//     ([ErrTimeout]).
//  6. Connections. A call that breaks a cap (body, headers, 1xx
//     responses), is refused for its content coding, or whose stream ends
//     in an error closes the connection it ran on, over HTTP/2 too, where
//     closing the body would only reset the stream while the server went
//     on sending: a host that breaks a cap loses its connection, and no
//     byte goes on being read for a call that has ended. A body of
//     [Client.HTTPClient] closed before its end over HTTP/2 closes its
//     connection too when no other response is open on it. HTTP/2 flow
//     control allows a server 48 KiB in flight per stream, so a call reads
//     at most its cap plus that (and the framing) from the socket. The
//     other calls on a closed connection fail too; those that had no answer
//     yet and are safe to repeat (GET or HEAD without a body) are sent once
//     more on a new connection, as is such a request whose reused
//     connection the server closed under it; the repeat is charged to the
//     Budget as an attempt. The pool is sized by the rule of
//     [Options.MaxConnsPerHost], so that a shared Client never fails a
//     call because of its own pool.
//  7. Budget. A [Budget] shared by the fetches of one scan or walk bounds
//     attempts (every request, redirects included, draft Section 7.2), body bytes
//     (charged as they are read, a failed read's buffered bytes included),
//     concurrency, and a
//     deadline that a DNS lookup in flight may overrun by at most
//     [BudgetLimits.DNSGrace] (Agentic site profile: "twenty-two HTTP
//     attempts, five concurrent documents, one MiB per response, eight MiB of
//     response-body allowance, ... a forty-second scan deadline, with a
//     bounded DNS lookup finishing at most five seconds later")
//     ([ErrBudgetExhausted], *[BudgetError]).
//
// # Evidence
//
// A [Response] records what was asked: method, declared URL, the caller's
// headers with credentials redacted. It records where the answer came from:
// final URL, remote address, every hop with its status, Location and
// address. And it records when: start and elapsed time. A non-2xx status is
// not an error. On [ErrTooLarge] the Response is returned with the error,
// without a body, so that a report can still say what the server declared.
// Every failure is an *[Error] naming the call and the hops made before it,
// whose cause is reached with errors.Is and errors.As.
//
// # Libraries that want an *http.Client
//
// [Client.HTTPClient] returns an *http.Client with the same pinned
// transport, the same redirect rules, the same deadline, the Budget, and a
// body reader that fails with [ErrTooLarge] past the cap. Its errors are
// those of [Client.Do]: the deadline is applied inside its transport, so a
// time-out in any phase, a streamed body's included, is [ErrTimeout].
//
// # Tests
//
// Package [github.com/agentweb/agentweb/safefetch/fetchtest] is a fake
// internet of real TLS servers on loopback whose host names resolve to
// public-looking addresses, so that every check above runs unchanged in
// tests and demos.
package safefetch
