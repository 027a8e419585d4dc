package safefetch_test

import (
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/http2"

	"github.com/agentweb/agentweb/safefetch"
)

// hostileSlack is what a call may read from the socket beyond its caps
// before its connection is closed: the HTTP/2 stream window in flight, TLS
// and framing overhead, the handshake.
const hostileSlack = 64 << 10

// A server floods stream 1 (with DATA, or with endless 103 responses) while
// two other calls wait on the same HTTP/2 connection. The first call fails
// at its cap, and the connection is closed at once: the transport would
// otherwise read and discard everything the server sends to the reset
// stream, charged to no call, until the last waiting call's deadline. The
// waiting calls, whose requests were never answered, are retried once on a
// new connection.
func TestHTTP2FloodClosesConnection(t *testing.T) {
	for _, kind := range []string{"data", "1xx"} {
		t.Run(kind, func(t *testing.T) { testHTTP2Flood(t, kind) })
	}
}

func testHTTP2Flood(t *testing.T, kind string) {
	n := newNetwork(t)
	base := runtime.NumGoroutine()
	const maxBody = 256 << 10
	firstSeen := make(chan struct{})
	var once sync.Once
	var floodSent atomic.Int64 // DATA bytes sent on the flooded stream
	site := newRawSite(t, n, "flood.example", []string{"h2"}, func(c net.Conn, index int) {
		h, err := newH2conn(c)
		if err != nil {
			return
		}
		if index > 0 {
			for id := range h.requests {
				if h.headers(id, false, ":status", "200", "content-length", "2") != nil || h.data(id, []byte("ok"), true) != nil {
					return
				}
			}
			return
		}
		var ids []uint32
		for id := range h.requests {
			once.Do(func() { close(firstSeen) })
			if ids = append(ids, id); len(ids) == 3 {
				break
			}
		}
		if len(ids) < 3 {
			return
		}
		go func() {
			for range h.requests {
			}
		}()
		switch kind {
		case "data":
			if h.headers(ids[0], false, ":status", "200") != nil {
				return
			}
			chunk := make([]byte, 16<<10)
			for h.data(ids[0], chunk, false) == nil {
				floodSent.Add(int64(len(chunk)))
			}
		case "1xx":
			pad := strings.Repeat("p", 512)
			for i := 0; !h.closed(); i++ {
				if h.headers(ids[0], false, ":status", "103", "link", fmt.Sprintf("</a/%d.js>; rel=preload; x=%s", i, pad)) != nil {
					return
				}
			}
		}
	})
	opts := site.options()
	opts.MaxBodyBytes = maxBody
	opts.Timeout = 3 * time.Second
	c := safefetch.New(opts)
	budget := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 8 << 20})
	bc := c.WithBudget(budget)

	var wg sync.WaitGroup
	var errA error
	var aDone time.Time
	start := time.Now()
	wg.Go(func() {
		_, errA = bc.Get(t.Context(), "https://flood.example/flood", nil)
		aDone = time.Now()
	})
	select {
	case <-firstSeen:
	case <-time.After(3 * time.Second):
		t.Fatal("the first request never reached the server")
	}
	results := make([]error, 2)
	bodies := make([]string, 2)
	for i := range results {
		wg.Go(func() {
			resp, err := bc.Get(t.Context(), fmt.Sprintf("https://flood.example/wait%d", i), nil)
			results[i] = err
			if err == nil {
				bodies[i] = string(resp.Body)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)

	if kind == "data" {
		require.ErrorIs(t, errA, safefetch.ErrTooLarge)
	} else {
		require.ErrorIs(t, errA, safefetch.ErrTooLarge, "a 1xx flood breaks the header cap")
	}
	assert.Less(t, aDone.Sub(start), opts.Timeout)
	for i, err := range results {
		require.NoError(t, err, "waiting call %d is retried on a new connection", i)
		assert.Equal(t, "ok", bodies[i])
	}
	cap := int64(maxBody)
	if kind == "1xx" {
		cap = safefetch.DefaultMaxHeaderBytes
	}
	read := site.socketBytes(0)
	assert.LessOrEqual(t, read, cap+hostileSlack, "bytes read from the flooding connection")
	// The server notices the close when its next read or write fails:
	// wait for that, within the bound asserted below.
	var ended time.Time
	for wait := time.Now().Add(time.Second); ended.IsZero() && time.Now().Before(wait); time.Sleep(5 * time.Millisecond) {
		ended = site.firstEnded()
	}
	require.False(t, ended.IsZero(), "the flooding connection is closed")
	assert.Less(t, ended.Sub(aDone), time.Second, "closed when the first call failed")
	if kind == "data" {
		// Every body byte the client received is charged: the cap, the
		// byte past it, and what the transport had buffered for the
		// stream beyond (within its window), never more than was sent.
		used := budget.Usage().Bytes
		assert.Greater(t, used, cap, "the bytes past the cap are charged")
		assert.LessOrEqual(t, used, cap+1+safefetch.MaxBufferedForTest)
		assert.LessOrEqual(t, used-int64(len("okok")), floodSent.Load(), "the waiting calls' two bodies aside")
		t.Logf("hostile h2 data flood: %d bytes charged for a %d-byte cap, %d sent", used, cap, floodSent.Load())
	}
	t.Logf("hostile h2 %s flood: held, %v, %d socket bytes on the flooding connection, %d in all", kind, elapsed.Round(time.Millisecond), read, site.totalSocketBytes())

	c.CloseIdleConnections()
	site.close()
	settleGoroutines(t, base)
}

// Header floods over HTTP/2, sent by hand past what the client advertised
// (a Go server would refuse to send them): one field over the cap, many
// small fields over the cap, and a stream reset mid-body. Each fails with
// the right error, and the connection is closed.
func TestHTTP2HostileHeadersAndResets(t *testing.T) {
	cases := []struct {
		name  string
		serve func(h *h2conn, id uint32)
		want  error // nil: any error
	}{
		{"one huge field", func(h *h2conn, id uint32) {
			_ = h.headers(id, true, ":status", "200", "x-big", strings.Repeat("h", 70<<10))
		}, safefetch.ErrTooLarge},
		{"many small fields", func(h *h2conn, id uint32) {
			kv := []string{":status", "200"}
			for i := range 3000 {
				kv = append(kv, fmt.Sprintf("x-f-%d", i), "vvvvvvvvvvvvvvvvvvvv")
			}
			_ = h.headers(id, true, kv...)
		}, safefetch.ErrTooLarge},
		{"reset mid-body", func(h *h2conn, id uint32) {
			if h.headers(id, false, ":status", "200") != nil || h.data(id, make([]byte, 1000), false) != nil {
				return
			}
			h.wmu.Lock()
			_ = h.fr.WriteRSTStream(id, http2.ErrCodeInternal)
			h.wmu.Unlock()
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := newNetwork(t)
			base := runtime.NumGoroutine()
			site := newRawSite(t, n, "h2.example", []string{"h2"}, func(c net.Conn, _ int) {
				h, err := newH2conn(c)
				if err != nil {
					return
				}
				for id := range h.requests {
					tc.serve(h, id)
				}
			})
			opts := site.options()
			opts.Timeout = 3 * time.Second
			c := safefetch.New(opts)
			for _, via := range []string{"Get", "HTTPClient"} {
				start := time.Now()
				var err error
				if via == "Get" {
					_, err = c.Get(t.Context(), "https://h2.example/", nil)
				} else {
					err = httpGet(c, "https://h2.example/")
				}
				elapsed := time.Since(start)
				require.Error(t, err, via)
				if tc.want != nil {
					require.ErrorIs(t, err, tc.want, via)
				}
				assert.Less(t, elapsed, opts.Timeout, via)
				t.Logf("hostile h2 %s via %s: held, %v, %d socket bytes: %v", tc.name, via, elapsed.Round(time.Millisecond), site.totalSocketBytes(), err)
			}
			deadline := time.Now().Add(time.Second)
			for site.firstEnded().IsZero() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			assert.False(t, site.firstEnded().IsZero(), "the connection is closed")
			assert.LessOrEqual(t, site.totalSocketBytes(), int64(2*(safefetch.DefaultMaxHeaderBytes+hostileSlack)))
			c.CloseIdleConnections()
			site.close()
			settleGoroutines(t, base)
		})
	}
}

// A redirect's body over HTTP/2: a short one is read to its end, and the
// connection serves the next hop; an endless one closes the connection
// instead of leaving the server sending to a reset stream.
func TestHTTP2RedirectBody(t *testing.T) {
	for _, endless := range []bool{false, true} {
		t.Run(fmt.Sprintf("endless=%v", endless), func(t *testing.T) {
			n := newNetwork(t)
			base := runtime.NumGoroutine()
			var requests atomic.Int32
			site := newRawSite(t, n, "redir.example", []string{"h2"}, func(c net.Conn, _ int) {
				h, err := newH2conn(c)
				if err != nil {
					return
				}
				for id := range h.requests {
					if requests.Add(1) > 1 {
						if h.headers(id, false, ":status", "200", "content-length", "5") != nil || h.data(id, []byte("final"), true) != nil {
							return
						}
						continue
					}
					if h.headers(id, false, ":status", "302", "location", "/final") != nil {
						return
					}
					if !endless {
						if h.data(id, []byte("<a href=\"/final\">Found</a>.\n"), true) != nil {
							return
						}
						continue
					}
					go func() {
						chunk := make([]byte, 16<<10)
						for h.data(id, chunk, false) == nil {
						}
					}()
				}
			})
			c := safefetch.New(site.options())
			resp, err := c.Get(t.Context(), "https://redir.example/", nil)
			require.NoError(t, err)
			assert.Equal(t, "final", string(resp.Body))
			if endless {
				assert.False(t, site.firstEnded().IsZero(), "the redirect's connection is closed")
				assert.Positive(t, site.socketBytes(1), "the next hop dials anew")
				assert.LessOrEqual(t, site.socketBytes(0), int64(hostileSlack))
			} else {
				assert.Zero(t, site.socketBytes(1), "one connection serves both hops")
			}
			c.CloseIdleConnections()
			site.close()
			settleGoroutines(t, base)
		})
	}
}

// A body of HTTPClient closed before its end over HTTP/2, on a connection
// no other response uses: the connection is closed, as over HTTP/1, rather
// than the stream only reset while the server goes on sending to it.
func TestHTTP2EarlyCloseClosesConnection(t *testing.T) {
	n := newNetwork(t)
	base := runtime.NumGoroutine()
	site := newRawSite(t, n, "stream.example", []string{"h2"}, func(c net.Conn, _ int) {
		h, err := newH2conn(c)
		if err != nil {
			return
		}
		for id := range h.requests {
			if h.headers(id, false, ":status", "200", "content-type", "text/event-stream") != nil {
				return
			}
			go func() {
				chunk := []byte(strings.Repeat("data: x\n\n", 1000))
				for h.data(id, chunk, false) == nil {
				}
			}()
		}
	})
	c := safefetch.New(site.options())
	resp, err := c.HTTPClient().Get("https://stream.example/events")
	require.NoError(t, err)
	buf := make([]byte, 100)
	_, err = io.ReadFull(resp.Body, buf)
	require.NoError(t, err)
	closed := time.Now()
	require.NoError(t, resp.Body.Close())
	deadline := time.Now().Add(2 * time.Second)
	for site.firstEnded().IsZero() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.False(t, site.firstEnded().IsZero(), "the connection is closed")
	assert.Less(t, site.firstEnded().Sub(closed), time.Second)
	assert.LessOrEqual(t, site.socketBytes(0), int64(hostileSlack))
	t.Logf("hostile h2 stream closed early: held, %d socket bytes", site.socketBytes(0))
	c.CloseIdleConnections()
	site.close()
	settleGoroutines(t, base)
}
