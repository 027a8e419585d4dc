package safefetch

import (
	"context"
	"crypto/x509"
	"net"
	"net/netip"
	"time"
)

// Defaults applied when the corresponding [Options] field is zero. They are the
// bounds of knowledge-linkset draft Section 7.1 and Section 7.2: "ten seconds
// per request, three redirects per fetch", one mebibyte per document. They are
// also the Agentic site profile's "Discovery and auditing" limits: a DNS lookup
// may finish at most five seconds after the scan deadline.
const (
	DefaultMaxRedirects         = 3
	DefaultMaxBodyBytes   int64 = 1 << 20
	DefaultMaxHeaderBytes int64 = 64 << 10
	DefaultTimeout              = 10 * time.Second
	DefaultDNSTimeout           = 5 * time.Second
	DefaultDNSGrace             = 5 * time.Second
	DefaultUserAgent            = "agentweb/0 (+https://github.com/agentweb/agentweb)"

	// DefaultMaxConnsPerHost is room for six scans of one host at the
	// Agentic site profile's concurrency (five documents at once each),
	// plus headroom: a crawler sharing one Client seldom runs more.
	DefaultMaxConnsPerHost = 32
	// DefaultIdleConnTimeout is how long an unused connection is kept.
	DefaultIdleConnTimeout = 30 * time.Second
)

// Options configures a [Client]. The zero value (and a nil *Options given to
// [New]) is the safe production configuration: the system resolver and
// roots, https only, and public addresses only. Its bounds are the defaults
// above: [DefaultMaxRedirects], [DefaultMaxBodyBytes],
// [DefaultMaxHeaderBytes] and [DefaultTimeout] per call.
//
// Options is read once by [New]; changing it afterwards has no effect on the
// Client.
type Options struct {
	// Resolver answers the single DNS lookup made for each attempt. Nil means
	// net.DefaultResolver. Every answer is unmapped and classified with
	// [CheckAddr]; the host is refused if any answer is refused.
	Resolver Resolver

	// Dial opens the TCP connection to an address that was already
	// classified, given as an IP literal and port ("203.0.113.7:443" style,
	// never a host name). Nil means a net.Dialer whose Control hook
	// classifies the socket address once more. Whatever Dial returns, the
	// connection's RemoteAddr must equal the address it was asked to reach,
	// or the connection is closed and the attempt refused with
	// [ErrForbiddenAddress].
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)

	// RootCAs verifies server certificates. Nil means the system roots. The
	// host name is always verified.
	RootCAs *x509.CertPool

	// AllowLoopback is development mode (knowledge-linkset draft Section 7.1):
	// http and https to loopback addresses are allowed, and only to them.
	// It must be set by the program, never from input (a URL, a document, a
	// flag an untrusted party controls).
	AllowLoopback bool

	// MaxRedirects bounds the redirects followed per call. 0 means
	// [DefaultMaxRedirects]; a negative value follows none, and a 3xx is
	// returned as the response.
	MaxRedirects int

	// MaxBodyBytes bounds every response body of the Client and of every
	// Client derived from it ([Request.MaxBodyBytes] can only lower it). 0
	// means [DefaultMaxBodyBytes]. A larger body is refused with
	// [ErrTooLarge] after reading at most MaxBodyBytes+1 bytes.
	MaxBodyBytes int64

	// MaxHeaderBytes bounds the response header block. 0 means
	// [DefaultMaxHeaderBytes].
	MaxHeaderBytes int64

	// Timeout is the one deadline of a call: DNS, connect, TLS, headers and
	// body of every hop of the redirect chain together. 0 means
	// [DefaultTimeout]. When it elapses the call fails with [ErrTimeout].
	// Through [Client.HTTPClient] it bounds each request from its first
	// hop to the end of its body, a streamed one included.
	Timeout time.Duration

	// DNSTimeout bounds each DNS lookup. 0 means [DefaultDNSTimeout]. A
	// lookup that times out fails closed with [ErrDNS].
	DNSTimeout time.Duration

	// Redirect is consulted for every hop after the hop passed [CheckURL]
	// and the https->http rule. A non-nil error refuses the hop with
	// [ErrRedirectRefused]. Nil allows any hop that passes those checks;
	// [SameOriginOrWWW] is the Agentic site profile's rule.
	Redirect RedirectPolicy

	// UserAgent is sent unless the caller sets User-Agent on a request. ""
	// means [DefaultUserAgent].
	UserAgent string

	// MaxConnsPerHost bounds the connections open to one host (dialing,
	// in use and idle together). 0 means [DefaultMaxConnsPerHost]. A call
	// that finds them all busy waits for one, within its deadline.
	//
	// The pool is sized by one rule, so that a Client shared by many
	// concurrent scans (a crawler) never fails a call because of its own
	// pool. Every one of a host's MaxConnsPerHost connections may stay idle.
	// The idle connections of all hosts together are not capped. A total cap
	// would evict the oldest idle connection, and an HTTP/2 connection
	// counts as idle while its streams are open. Idle connections are closed
	// after IdleConnTimeout. The descriptors a Client holds are thus bounded
	// by the calls in flight plus the hosts used in the last
	// IdleConnTimeout, times MaxConnsPerHost.
	MaxConnsPerHost int

	// IdleConnTimeout is how long an idle connection is kept for reuse. 0
	// means [DefaultIdleConnTimeout].
	IdleConnTimeout time.Duration

	// Budget, when not nil, is charged for every request of the Client and
	// of every Client derived from it (see [Budget]). A Budget given to
	// [Client.WithBudget] is nested inside it, never in its place. Nil
	// means only the per-call bounds apply.
	Budget *Budget

	// NAT64Prefixes names the network-specific NAT64 prefixes of the local
	// network (RFC 6052 Section 2.2; the well-known 64:ff9b::/96 is always
	// decoded). An address in one of them that [CheckAddr] accepts is
	// judged once more by the IPv4 address it embeds. That address is
	// decoded by the layout of the prefix's length (32, 40, 48, 56, 64 or
	// 96 bits, the u octet skipped). So a translated private address is
	// refused. An address in a prefix of another length, or with a
	// non-zero u octet, is refused. The field only ever refuses more: an
	// address must pass [CheckAddr] as an IPv6 address first. Entries that
	// are not IPv6 prefixes are ignored.
	NAT64Prefixes []netip.Prefix
}

// normalized returns a copy of o with every zero value replaced by its default.
func (o *Options) normalized() Options {
	var n Options
	if o != nil {
		n = *o
	}
	if n.MaxRedirects == 0 {
		n.MaxRedirects = DefaultMaxRedirects
	}
	if n.MaxBodyBytes <= 0 {
		n.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if n.MaxHeaderBytes <= 0 {
		n.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if n.Timeout <= 0 {
		n.Timeout = DefaultTimeout
	}
	if n.DNSTimeout <= 0 {
		n.DNSTimeout = DefaultDNSTimeout
	}
	if n.MaxConnsPerHost <= 0 {
		n.MaxConnsPerHost = DefaultMaxConnsPerHost
	}
	if n.IdleConnTimeout <= 0 {
		n.IdleConnTimeout = DefaultIdleConnTimeout
	}
	if n.UserAgent == "" {
		n.UserAgent = DefaultUserAgent
	}
	var nat64 []netip.Prefix
	for _, p := range n.NAT64Prefixes {
		if p.IsValid() && p.Addr().Is6() && !p.Addr().Is4In6() {
			nat64 = append(nat64, p.Masked())
		}
	}
	n.NAT64Prefixes = nat64
	return n
}
