package safefetch

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// pinKey is the context key under which an attempt passes its classified
// addresses to the dialer.
type pinKey struct{}

// pin is what one attempt resolved and classified: the dialer connects to
// these addresses and to nothing else (knowledge-linkset draft §7.1: "MUST
// NOT re-resolve the host between classification and connection").
type pin struct {
	host  string
	addrs []netip.Addr
}

// pinnedDialer connects only to pinned addresses and re-verifies the
// established connection's remote address.
type pinnedDialer struct {
	dial          func(ctx context.Context, network, addr string) (net.Conn, error)
	allowLoopback bool
}

// newTransport builds the one http.Transport of a Client: no proxy (the
// environment's HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY are never
// read), no transparent decompression, capped response headers, verified
// TLS, and a dialer that only reaches classified addresses.
func newTransport(o *Options) *http.Transport {
	d := &pinnedDialer{dial: o.Dial, allowLoopback: o.AllowLoopback}
	if d.dial == nil {
		nd := &net.Dialer{
			KeepAlive: 30 * time.Second,
			Control: func(network, address string, _ syscall.RawConn) error {
				ap, err := netip.ParseAddrPort(address)
				if err != nil {
					return fmt.Errorf("%w: dialing %q, which is not an address literal", ErrForbiddenAddress, address)
				}
				return classifyAddr("", ap.Addr(), o.AllowLoopback)
			},
		}
		d.dial = nd.DialContext
	}
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    o.Timeout,
		DisableCompression:     true,
		MaxResponseHeaderBytes: o.MaxHeaderBytes,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
	}
}

// DialContext dials the addresses pinned in ctx for the host of addr, in
// order, and returns the first connection whose remote address is exactly
// the one dialed. It never resolves a name.
func (d *pinnedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	p, _ := ctx.Value(pinKey{}).(*pin)
	if p == nil {
		return nil, fmt.Errorf("%w: refusing to dial %s without a classified address", ErrForbiddenAddress, addr)
	}
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: dial %q: %w", ErrForbiddenAddress, addr, err)
	}
	if !strings.EqualFold(host, p.host) {
		return nil, fmt.Errorf("%w: dial %s, but the addresses classified are those of %s", ErrForbiddenAddress, addr, p.host)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil || port == 0 {
		return nil, fmt.Errorf("%w: dial %q: bad port", ErrForbiddenAddress, addr)
	}
	var firstErr error
	for i, a := range p.addrs {
		want := netip.AddrPortFrom(a, uint16(port))
		conn, err := d.dialOne(ctx, want, len(p.addrs)-i)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			if ctx.Err() != nil {
				break
			}
			continue
		}
		if err := d.verifyRemote(conn, p.host, want); err != nil {
			conn.Close()
			return nil, err
		}
		return conn, nil
	}
	return nil, firstErr
}

// dialOne dials one address. When left addresses (this one included)
// remain to be tried, it gets an equal share of the time left, so that one
// unreachable address cannot use the whole deadline.
func (d *pinnedDialer) dialOne(ctx context.Context, to netip.AddrPort, left int) (net.Conn, error) {
	if dl, ok := ctx.Deadline(); ok && left > 1 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Until(dl)/time.Duration(left))
		defer cancel()
	}
	return d.dial(ctx, "tcp", to.String())
}

// verifyRemote re-checks the established connection (knowledge-linkset
// draft §7.1: "MUST re-verify the remote address of the established
// connection against the same rules, closing the connection on a
// mismatch"): its remote address must be the classified one, and classify.
func (d *pinnedDialer) verifyRemote(conn net.Conn, host string, want netip.AddrPort) error {
	got, ok := addrPortOf(conn.RemoteAddr())
	if !ok {
		return &AddrError{Host: host, Reason: fmt.Sprintf("the connection's remote address %v is not an IP address (wanted %s)", conn.RemoteAddr(), want)}
	}
	if got != want {
		return &AddrError{Host: host, Addr: got.Addr(), Reason: fmt.Sprintf("the connection's remote address %s is not the classified address %s", got, want)}
	}
	return classifyAddr(host, got.Addr(), d.allowLoopback)
}

// addrPortOf returns a net.Addr as an unmapped netip.AddrPort.
func addrPortOf(a net.Addr) (netip.AddrPort, bool) {
	if a == nil {
		return netip.AddrPort{}, false
	}
	var ap netip.AddrPort
	switch t := a.(type) {
	case *net.TCPAddr:
		ap = t.AddrPort()
	default:
		var err error
		if ap, err = netip.ParseAddrPort(a.String()); err != nil {
			return netip.AddrPort{}, false
		}
	}
	if !ap.Addr().IsValid() {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}
