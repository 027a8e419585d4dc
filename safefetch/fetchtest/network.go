package fetchtest

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/agentweb/agentweb/safefetch"
)

// FirstAddr is the address given to the first site of a Network; the next
// sites get the addresses that follow it (93.184.215.2, 93.184.215.3, ...).
// It is a globally reachable unicast address that [safefetch.CheckAddr]
// accepts, unlike the documentation blocks (192.0.2.0/24, 198.51.100.0/24,
// 203.0.113.0/24), which the IANA registry marks as not globally reachable.
// Nothing is ever sent to it: the Network's Dial maps it to a loopback
// listener.
var FirstAddr = netip.MustParseAddr("93.184.215.1")

// Network is a fake internet: host names that resolve, through its own
// resolver, to public-looking addresses, each served by a real TLS server on
// loopback. A Network is safe for concurrent use and has no global state;
// several can coexist. Call Close when done.
type Network struct {
	ca *authority

	mu       sync.Mutex
	closed   bool
	next     netip.Addr
	dns      map[string][]netip.Addr // host -> answers; present but empty means NXDOMAIN
	byHost   map[string]*site
	byAddr   map[netip.Addr]*site
	latency  map[string]time.Duration
	requests map[string]int
	lookups  map[string]int
	dials    map[netip.Addr]int
}

type site struct {
	host    string
	addr    netip.Addr
	srv     *httptest.Server
	handler http.Handler // guarded by Network.mu
}

// New starts an empty Network with its own certificate authority.
func New() *Network {
	ca, err := newAuthority()
	if err != nil {
		panic(fmt.Sprintf("fetchtest: certificate authority: %v", err))
	}
	return &Network{
		ca:       ca,
		next:     FirstAddr,
		dns:      map[string][]netip.Addr{},
		byHost:   map[string]*site{},
		byAddr:   map[netip.Addr]*site{},
		latency:  map[string]time.Duration{},
		requests: map[string]int{},
		lookups:  map[string]int{},
		dials:    map[netip.Addr]int{},
	}
}

// normalize lower-cases a host name and drops one trailing dot.
func normalize(host string) string {
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// Close shuts every server of the Network down. Clients made from it can no
// longer connect.
func (n *Network) Close() {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	n.closed = true
	sites := make([]*site, 0, len(n.byHost))
	for _, s := range n.byHost {
		sites = append(sites, s)
	}
	n.mu.Unlock()
	for _, s := range sites {
		s.srv.CloseClientConnections()
		s.srv.Close()
	}
}

// Site serves https://host/ with h, over TLS with a certificate for host
// issued by the Network's authority, at the next free public-looking
// address (see [FirstAddr]); host resolves to that address. URLs carry no
// port. host is a DNS name (no port, no IP literal); Site panics otherwise.
// Calling Site again for the same host replaces its handler (the address
// and certificate stay).
//
// h runs behind a loopback listener, but requests carry the site's own Host
// header (host, not localhost). A handler with a DNS-rebinding guard keyed
// on a loopback local address refuses them. So the guard must be disabled
// in tests: for the MCP go-sdk, mcp.StreamableHTTPOptions with
// DisableLocalhostProtection: true. See the package documentation.
func (n *Network) Site(host string, h http.Handler) {
	n.site(host, h, n.hostCertificate(host), false)
}

// SiteHTTP2 is [Network.Site] with a server that offers HTTP/2 by ALPN
// (RFC 7540, Section 3.3) as well as HTTP/1.1, as most public servers do.
// A [safefetch.Client] then speaks HTTP/2 to it, many calls sharing one
// connection. Calling it again for the same host replaces its handler; the
// protocols stay those of the first call.
//
// [RFC 7540, Section 3.3]: https://www.rfc-editor.org/rfc/rfc7540#section-3.3
func (n *Network) SiteHTTP2(host string, h http.Handler) {
	n.site(host, h, n.hostCertificate(host), true)
}

func (n *Network) hostCertificate(host string) tls.Certificate {
	host = normalize(host)
	cert, err := n.ca.issue(time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour), host)
	if err != nil {
		panic(fmt.Sprintf("fetchtest: certificate for %s: %v", host, err))
	}
	return cert
}

// SiteWithCertificate is [Network.Site] with the certificate the server
// presents, for tests of certificate failures: see [Network.Certificate].
// Replacing the handler of an existing site keeps its first certificate.
func (n *Network) SiteWithCertificate(host string, h http.Handler, cert tls.Certificate) {
	n.site(host, h, cert, false)
}

func (n *Network) site(host string, h http.Handler, cert tls.Certificate, h2 bool) {
	host = normalize(host)
	if _, err := netip.ParseAddr(host); err == nil || host == "" || strings.ContainsAny(host, ":/[]@% ") {
		panic(fmt.Sprintf("fetchtest: Site needs a host name without port or brackets, not %q", host))
	}
	if n.replaceHandler(host, h) {
		return
	}
	// Start the server before the site is visible, so that a host that
	// resolves always has a listener behind it.
	s := &site{host: host, handler: h}
	srv := httptest.NewUnstartedServer(n.serve(s))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	if h2 {
		srv.TLS.NextProtos = []string{"h2", "http/1.1"}
		srv.EnableHTTP2 = true
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	n.mu.Lock()
	if n.closed || n.byHost[host] != nil {
		n.mu.Unlock()
		srv.Close()
		if !n.replaceHandler(host, h) {
			panic("fetchtest: Site on a closed Network")
		}
		return
	}
	s.addr, s.srv = n.next, srv
	n.next = n.next.Next()
	n.byHost[host] = s
	n.byAddr[s.addr] = s
	n.dns[host] = []netip.Addr{s.addr}
	n.mu.Unlock()
}

// replaceHandler gives an existing site a new handler; it panics on a
// closed Network and reports whether host had a site.
func (n *Network) replaceHandler(host string, h http.Handler) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		panic("fetchtest: Site on a closed Network")
	}
	if s, ok := n.byHost[host]; ok {
		s.handler = h
		return true
	}
	return false
}

// Certificate issues a certificate from the Network's authority for names
// (DNS names or IP literals), valid from notBefore to notAfter. With
// [Network.SiteWithCertificate] it makes a site whose certificate names the
// wrong host, or has expired.
func (n *Network) Certificate(notBefore, notAfter time.Time, names ...string) tls.Certificate {
	cert, err := n.ca.issue(notBefore, notAfter, names...)
	if err != nil {
		panic(fmt.Sprintf("fetchtest: certificate for %v: %v", names, err))
	}
	return cert
}

// serve counts the request, waits the host's latency (or until the client
// goes away), then runs the site's handler.
func (n *Network) serve(s *site) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.mu.Lock()
		n.requests[s.host]++
		d := n.latency[s.host]
		h := s.handler
		n.mu.Unlock()
		if d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// Host sets a DNS record only: host resolves to addrs (IP literals, IPv4 or
// IPv6, returned in order). With no addrs the host does not exist
// (NXDOMAIN). It replaces any earlier record, a site's included, which is
// how a test gives a site's host a second, private address:
// n.Host("shop.example", n.Addr("shop.example").String(), "10.0.0.1").
// An address that is not a site's accepts no connection. Host panics on an
// address that does not parse.
func (n *Network) Host(host string, addrs ...string) {
	host = normalize(host)
	parsed := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		p, err := netip.ParseAddr(a)
		if err != nil {
			panic(fmt.Sprintf("fetchtest: Host(%q): %v", host, err))
		}
		parsed = append(parsed, p)
	}
	n.mu.Lock()
	n.dns[host] = parsed
	n.mu.Unlock()
}

// Addr returns the address of host's site, or the zero Addr if host has no
// site.
func (n *Network) Addr(host string) netip.Addr {
	n.mu.Lock()
	defer n.mu.Unlock()
	if s, ok := n.byHost[normalize(host)]; ok {
		return s.addr
	}
	return netip.Addr{}
}

// Options returns fresh [safefetch.Options] whose Resolver, Dial and RootCAs
// are wired to this Network; every other field is zero (the safe defaults).
func (n *Network) Options() *safefetch.Options {
	return &safefetch.Options{Resolver: resolver{n}, Dial: n.dial, RootCAs: n.ca.pool}
}

// Client returns safefetch.New(n.Options()).
func (n *Network) Client() *safefetch.Client { return safefetch.New(n.Options()) }

// SetLatency adds d before every response of host (0 removes it). The wait
// ends early if the client goes away.
func (n *Network) SetLatency(host string, d time.Duration) {
	n.mu.Lock()
	n.latency[normalize(host)] = d
	n.mu.Unlock()
}

// Requests returns how many requests host's site has received.
func (n *Network) Requests(host string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.requests[normalize(host)]
}

// Lookups returns how many times the Network's resolver was asked for host.
func (n *Network) Lookups(host string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.lookups[normalize(host)]
}

// Dials returns how many connections were attempted to addr through the
// Network's Dial, whether or not anything listens there.
func (n *Network) Dials(addr netip.Addr) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.dials[addr.Unmap()]
}

// ResetRequests sets every count of Requests, Lookups and Dials to zero.
func (n *Network) ResetRequests() {
	n.mu.Lock()
	clear(n.requests)
	clear(n.lookups)
	clear(n.dials)
	n.mu.Unlock()
}

// resolver is the Network's DNS.
type resolver struct{ n *Network }

// LookupNetIP answers from the Network's records: a site's address, a
// Host record, or NXDOMAIN (a *net.DNSError with IsNotFound).
func (r resolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if err := ctx.Err(); err != nil {
		return nil, &net.DNSError{Err: err.Error(), Name: host, IsTimeout: errors.Is(err, context.DeadlineExceeded)}
	}
	name := normalize(host)
	r.n.mu.Lock()
	r.n.lookups[name]++
	answers := r.n.dns[name]
	r.n.mu.Unlock()
	var out []netip.Addr
	for _, a := range answers {
		switch {
		case network == "ip4" && !a.Unmap().Is4(),
			network == "ip6" && !a.Is6():
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

// dial connects to the listener of the site at addr (port 443), and returns
// a connection whose RemoteAddr is addr, as if the site were there.
func (n *Network) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("fetchtest: %q is not an address and port", addr)}
	}
	a := ap.Addr().Unmap()
	n.mu.Lock()
	n.dials[a]++
	s := n.byAddr[a]
	var target string
	if s != nil && !n.closed {
		target = s.srv.Listener.Addr().String()
	}
	n.mu.Unlock()
	if target == "" || ap.Port() != 443 {
		return nil, &net.OpError{Op: "dial", Net: network, Addr: net.TCPAddrFromAddrPort(ap), Err: errors.New("connection refused (fetchtest: nothing listens there)")}
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", target)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c, remote: net.TCPAddrFromAddrPort(netip.AddrPortFrom(ap.Addr(), 443))}, nil
}

// conn reports the public-looking address as its remote address.
type conn struct {
	net.Conn
	remote net.Addr
}

func (c *conn) RemoteAddr() net.Addr { return c.remote }
