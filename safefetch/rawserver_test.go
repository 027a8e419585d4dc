package safefetch_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// rawSite is a hostile server that fetchtest cannot play: a TLS listener on
// loopback whose connections are handed, after the handshake, to serve
// (HTTP/1.1 or HTTP/2 written by hand). Clients reach it as host, through a
// Dial that meters every byte the client reads from each connection.
type rawSite struct {
	t     testing.TB
	n     *fetchtest.Network
	host  string
	ln    net.Listener
	cfg   *tls.Config
	serve func(c net.Conn, index int)

	mu      sync.Mutex
	meters  []*meteredConn // one per client connection, in dial order
	ended   []time.Time    // when serve returned, per server connection
	serving sync.WaitGroup
}

// newRawSite serves host (resolving to a public-looking address) with
// serve, offering the ALPN protocols protos; serve gets the *tls.Conn after
// the handshake. With nil protos, serve gets the TCP connection before any
// TLS.
func newRawSite(t testing.TB, n *fetchtest.Network, host string, protos []string, serve func(c net.Conn, index int)) *rawSite {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	n.Host(host, "93.184.216.34")
	cert := n.Certificate(time.Now().Add(-time.Hour), time.Now().Add(time.Hour), host)
	s := &rawSite{t: t, n: n, host: host, ln: ln, serve: serve,
		cfg: &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: protos}}
	go s.accept()
	t.Cleanup(s.close)
	return s
}

// close stops the listener and waits for every connection's serve to end.
func (s *rawSite) close() {
	s.ln.Close()
	s.serving.Wait()
}

func (s *rawSite) accept() {
	for i := 0; ; i++ {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.serving.Add(1)
		go func() {
			defer s.serving.Done()
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(10 * time.Second)) // a bound for the test's own server
			if s.cfg.NextProtos == nil {
				s.serve(c, i)
			} else {
				tc := tls.Server(c, s.cfg)
				if err := tc.Handshake(); err != nil {
					return
				}
				s.serve(tc, i)
			}
			s.mu.Lock()
			s.ended = append(s.ended, time.Now())
			s.mu.Unlock()
		}()
	}
}

// options are the Network's options with a Dial that reaches the raw site.
func (s *rawSite) options() *safefetch.Options {
	o := s.n.Options()
	o.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, s.ln.Addr().String())
		if err != nil {
			return nil, err
		}
		m := &meteredConn{Conn: c, remote: net.TCPAddrFromAddrPort(netip.MustParseAddrPort(addr))}
		s.mu.Lock()
		s.meters = append(s.meters, m)
		s.mu.Unlock()
		return m, nil
	}
	return o
}

// socketBytes returns the bytes the client read from its i-th connection.
func (s *rawSite) socketBytes(i int) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.meters) {
		return 0
	}
	return s.meters[i].read.Load()
}

// totalSocketBytes returns the bytes the client read from all connections.
func (s *rawSite) totalSocketBytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for _, m := range s.meters {
		n += m.read.Load()
	}
	return n
}

// firstEnded returns when the first server connection ended, or the zero
// time when none has.
func (s *rawSite) firstEnded() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.ended) == 0 {
		return time.Time{}
	}
	return s.ended[0]
}

// meteredConn counts what the client reads from the socket, and reports
// the address the client meant to reach.
type meteredConn struct {
	net.Conn
	remote net.Addr
	read   atomic.Int64
}

func (c *meteredConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *meteredConn) RemoteAddr() net.Addr { return c.remote }

// h2conn is the server end of an HTTP/2 connection framed by hand with
// x/net/http2's Framer. It tracks the client's flow-control windows so that
// a flood respects them while the stream lives (as an attacker must, or the
// client ends the connection), and ignores them once the client reset the
// stream.
type h2conn struct {
	c  net.Conn
	fr *http2.Framer

	wmu  sync.Mutex
	hbuf bytes.Buffer
	enc  *hpack.Encoder

	mu       sync.Mutex
	cond     *sync.Cond
	connWin  int64
	initWin  int64
	windows  map[uint32]int64
	reset    map[uint32]bool
	readErr  error
	requests chan uint32 // stream IDs of the requests, in order
}

// newH2conn reads the client preface and starts reading frames.
func newH2conn(c net.Conn) (*h2conn, error) {
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(c, preface); err != nil {
		return nil, err
	}
	h := &h2conn{c: c, fr: http2.NewFramer(c, c), connWin: 65535, initWin: 65535,
		windows: map[uint32]int64{}, reset: map[uint32]bool{}, requests: make(chan uint32, 64)}
	h.cond = sync.NewCond(&h.mu)
	h.enc = hpack.NewEncoder(&h.hbuf)
	if err := h.fr.WriteSettings(); err != nil {
		return nil, err
	}
	go h.readLoop()
	return h, nil
}

func (h *h2conn) readLoop() {
	defer close(h.requests)
	for {
		f, err := h.fr.ReadFrame()
		if err != nil {
			h.mu.Lock()
			h.readErr = err
			h.cond.Broadcast()
			h.mu.Unlock()
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if f.IsAck() {
				continue
			}
			if v, ok := f.Value(http2.SettingInitialWindowSize); ok {
				h.mu.Lock()
				h.initWin = int64(v)
				h.mu.Unlock()
			}
			h.wmu.Lock()
			_ = h.fr.WriteSettingsAck()
			h.wmu.Unlock()
		case *http2.WindowUpdateFrame:
			h.mu.Lock()
			if f.StreamID == 0 {
				h.connWin += int64(f.Increment)
			} else {
				h.windows[f.StreamID] += int64(f.Increment)
			}
			h.cond.Broadcast()
			h.mu.Unlock()
		case *http2.RSTStreamFrame:
			h.mu.Lock()
			h.reset[f.StreamID] = true
			h.cond.Broadcast()
			h.mu.Unlock()
		case *http2.PingFrame:
			if !f.IsAck() {
				h.wmu.Lock()
				_ = h.fr.WritePing(true, f.Data)
				h.wmu.Unlock()
			}
		case *http2.HeadersFrame:
			h.mu.Lock()
			h.windows[f.StreamID] += h.initWin
			h.mu.Unlock()
			h.requests <- f.StreamID
		}
	}
}

// closed reports whether the client has closed the connection.
func (h *h2conn) closed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.readErr != nil
}

// headers sends a header block (pairs of name and value) on stream id,
// split into CONTINUATION frames past 16 KiB.
func (h *h2conn) headers(id uint32, endStream bool, kv ...string) error {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.hbuf.Reset()
	for i := 0; i+1 < len(kv); i += 2 {
		if err := h.enc.WriteField(hpack.HeaderField{Name: kv[i], Value: kv[i+1]}); err != nil {
			return err
		}
	}
	block := h.hbuf.Bytes()
	const frag = 16 << 10
	first := block
	if len(first) > frag {
		first = block[:frag]
	}
	if err := h.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: first, EndStream: endStream, EndHeaders: len(block) <= frag}); err != nil {
		return err
	}
	for rest := block[len(first):]; len(rest) > 0; {
		k := min(len(rest), frag)
		if err := h.fr.WriteContinuation(id, k == len(rest), rest[:k]); err != nil {
			return err
		}
		rest = rest[k:]
	}
	return nil
}

// data sends p on stream id, waiting for the client's windows while the
// stream is open; once the client reset the stream, it sends regardless.
func (h *h2conn) data(id uint32, p []byte, end bool) error {
	h.mu.Lock()
	for !h.reset[id] && h.readErr == nil && (h.windows[id] < int64(len(p)) || h.connWin < int64(len(p))) {
		h.cond.Wait()
	}
	if h.readErr != nil {
		h.mu.Unlock()
		return h.readErr
	}
	h.windows[id] -= int64(len(p))
	h.connWin -= int64(len(p))
	h.mu.Unlock()
	h.wmu.Lock()
	defer h.wmu.Unlock()
	return h.fr.WriteData(id, end, p)
}

// httpGet fetches u through c.HTTPClient() and reads the body to its end.
func httpGet(c *safefetch.Client, u string) error {
	resp, err := c.HTTPClient().Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	return err
}

// settleGoroutines waits until the goroutines started since base have
// ended (a hand-written leak check: the package takes no dependency for it).
func settleGoroutines(t testing.TB, base int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= base {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("%d goroutines left after the test (%d before):\n%s", n, base, buf)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
