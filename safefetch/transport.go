package safefetch

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// pinKey is the context key under which an attempt passes its classified
// addresses to the dialer.
type pinKey struct{}

// pin is what one attempt resolved and classified: the dialer connects to
// these addresses and to nothing else (knowledge-linkset draft Section 7.1: "MUST
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

// newTransport builds the one http.Transport of a Client. It has no
// proxy: the environment's HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and
// NO_PROXY are never read. It has no transparent decompression, capped
// response headers, verified TLS, and a dialer that only reaches
// classified addresses.
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
		// The pool never closes a connection in use. A total cap on idle
		// connections would evict the oldest, and net/http counts an HTTP/2
		// connection as idle while its streams are open. A per-host cap
		// below the connections a host may have open would close the
		// connection a finished response was read from. So there is no
		// total cap, and each host keeps at most MaxConnsPerHost
		// connections, all of which may stay idle until IdleConnTimeout.
		MaxIdleConns:          0,
		MaxConnsPerHost:       o.MaxConnsPerHost,
		MaxIdleConnsPerHost:   o.MaxConnsPerHost,
		IdleConnTimeout:       o.IdleConnTimeout,
		ExpectContinueTimeout: time.Second,
		HTTP2: &http.HTTP2Config{
			// A server may have at most this much in flight beyond what
			// the calls have read: what bounds the bytes read from the
			// socket past a call's cap before its connection is closed.
			MaxReceiveBufferPerStream:     h2StreamWindow,
			MaxReceiveBufferPerConnection: h2ConnWindow,
		},
	}
}

// HTTP/2 flow-control windows: per stream, and per connection (every
// stream together).
const (
	h2StreamWindow = 48 << 10
	h2ConnWindow   = 1 << 20
)

// trackedConn is every connection the transport dials. A call that breaks a
// cap, or whose stream ends in an error, kills the connection it ran on, as
// closing the body does over HTTP/1. So over HTTP/2 a server cannot go on
// sending to a reset stream: data the transport would read and discard,
// charged to no call.
type trackedConn struct {
	net.Conn
	killed atomic.Bool  // closed by kill
	live   atomic.Int32 // responses whose body is open on the connection
	eof    atomic.Bool  // the peer closed the TCP stream (a FIN was read)
}

func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err == io.EOF {
		c.eof.Store(true)
	}
	return n, err
}

// kill closes the connection for every call that shares it.
func (c *trackedConn) kill() {
	c.killed.Store(true)
	_ = c.Conn.Close()
}

// liveBody counts an open response body on its connection (see
// [trackedConn.live]) until it ends or is closed.
type liveBody struct {
	io.ReadCloser
	tc   *trackedConn
	once sync.Once
}

func (b *liveBody) done() { b.once.Do(func() { b.tc.live.Add(-1) }) }

func (b *liveBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.done()
	}
	return n, err
}

func (b *liveBody) Close() error {
	err := b.ReadCloser.Close()
	b.done()
	return err
}

// trackedOf finds the trackedConn under a connection of the transport (a
// *tls.Conn over https).
func trackedOf(c net.Conn) *trackedConn {
	for range 4 {
		switch t := c.(type) {
		case *trackedConn:
			return t
		case interface{ NetConn() net.Conn }:
			c = t.NetConn()
		default:
			return nil
		}
	}
	return nil
}

// connKey is the context key under which an attempt keeps the handle of the
// connection it was given.
type connKey struct{}

// connHandle is the connection an attempt ran on, as httptrace's GotConn
// reported it.
type connHandle struct {
	mu     sync.Mutex
	conn   *trackedConn
	reused bool
	tls    bool
	capErr error // a cap broken inside the transport's read loop
}

func (h *connHandle) gotConn(info httptrace.GotConnInfo) {
	tc := trackedOf(info.Conn)
	_, isTLS := info.Conn.(*tls.Conn)
	h.mu.Lock()
	h.conn, h.reused, h.tls = tc, info.Reused, isTLS
	h.mu.Unlock()
}

func (h *connHandle) get() *trackedConn {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.conn
}

// kill closes the attempt's connection, if it got one.
func (h *connHandle) kill() {
	if c := h.get(); c != nil {
		c.kill()
	}
}

// handleOf returns the connection handle of the attempt that produced resp.
func handleOf(resp *http.Response) *connHandle {
	if resp == nil || resp.Request == nil {
		return nil
	}
	h, _ := resp.Request.Context().Value(connKey{}).(*connHandle)
	return h
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
		return &trackedConn{Conn: conn}, nil
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

// verifyRemote re-checks the established connection: its remote address
// must be the classified one, and classify. The knowledge-linkset draft
// Section 7.1 says: "MUST re-verify the remote address of the
// established connection against the same rules, closing the connection
// on a mismatch".
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
