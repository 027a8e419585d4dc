package safefetch_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// sentinels lists the package sentinels err wraps.
func sentinels(err error) []error {
	var out []error
	for _, s := range []error{safefetch.ErrForbiddenURL, safefetch.ErrForbiddenAddress, safefetch.ErrDNS,
		safefetch.ErrTooLarge, safefetch.ErrTooManyRedirects, safefetch.ErrRedirectRefused,
		safefetch.ErrBudgetExhausted, safefetch.ErrTimeout, safefetch.ErrContentEncoding} {
		if errors.Is(err, s) {
			out = append(out, s)
		}
	}
	return out
}

// writeAll writes s, then every chunk returned by more until it returns
// "" or a write fails (the client went away).
func writeAll(c net.Conn, s string, more func(i int) string) {
	if _, err := io.WriteString(c, s); err != nil || more == nil {
		return
	}
	for i := 0; ; i++ {
		m := more(i)
		if m == "" {
			return
		}
		if _, err := io.WriteString(c, m); err != nil {
			return
		}
	}
}

// readRequest reads one HTTP/1.1 request head from br.
func readRequest(br *bufio.Reader) bool {
	req, err := http.ReadRequest(br)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, req.Body)
	return true
}

// The hostile servers of the campaign, HTTP/1.1 over TLS (and a stalled
// handshake before TLS), written by hand. Each case asserts the sentinel
// (exactly one, or none for a failure of the network itself, which then
// names its cause), that the call returns within its deadline, that the
// bytes read from the socket stay within the caps plus hostileSlack, and
// that no goroutine is left. Each runs through Get and through HTTPClient.
func TestHostileHTTP1(t *testing.T) {
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestSpeed)
	_, _ = zw.Write(make([]byte, 64<<20)) // 64 MiB of zeros, 64 KiB on the wire
	_ = zw.Close()
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
	body := strings.Repeat("b", 1000)
	trickle := func(s string, every time.Duration) func(int) string {
		return func(int) string { time.Sleep(every); return s }
	}
	endless := func(s string) func(int) string { return func(int) string { return s } }
	cases := []struct {
		name    string
		noTLS   bool
		write   func(c net.Conn)
		want    error // a sentinel, or the cause of a network failure; nil: success
		cap     int64 // the cap the socket bytes are held to; 0: the body cap
		timeout bool  // the case ends at the deadline
		size    int   // body size on success
	}{
		{name: "stalled TLS handshake", noTLS: true, write: func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }, want: safefetch.ErrTimeout, timeout: true},
		{name: "slowloris headers", write: func(c net.Conn) {
			writeAll(c, "HTTP/1.1 200 OK\r\n", func(i int) string { time.Sleep(20 * time.Millisecond); return fmt.Sprintf("X-%d: y\r\n", i) })
		}, want: safefetch.ErrTimeout, timeout: true},
		{name: "trickled body", write: func(c net.Conn) {
			writeAll(c, head+"Content-Length: 100000\r\n\r\n", trickle("x", 20*time.Millisecond))
		}, want: safefetch.ErrTimeout, timeout: true},
		{name: "endless body", write: func(c net.Conn) {
			writeAll(c, head+"\r\n", endless(strings.Repeat("e", 16<<10)))
		}, want: safefetch.ErrTooLarge},
		{name: "endless chunked body", write: func(c net.Conn) {
			writeAll(c, head+"Transfer-Encoding: chunked\r\n\r\n", endless("4000\r\n"+strings.Repeat("e", 0x4000)+"\r\n"))
		}, want: safefetch.ErrTooLarge},
		{name: "endless headers", write: func(c net.Conn) {
			writeAll(c, "HTTP/1.1 200 OK\r\n", func(i int) string { return fmt.Sprintf("X-Flood-%d: %s\r\n", i, strings.Repeat("h", 200)) })
		}, want: safefetch.ErrTooLarge, cap: safefetch.DefaultMaxHeaderBytes},
		{name: "one huge header", write: func(c net.Conn) {
			writeAll(c, "HTTP/1.1 200 OK\r\nX-Big: ", endless(strings.Repeat("h", 4096)))
		}, want: safefetch.ErrTooLarge, cap: safefetch.DefaultMaxHeaderBytes},
		{name: "endless 103 responses", write: func(c net.Conn) {
			writeAll(c, "", endless("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"))
		}, want: safefetch.ErrTooLarge, cap: safefetch.DefaultMaxHeaderBytes},
		{name: "endless empty 1xx responses", write: func(c net.Conn) {
			writeAll(c, "", endless("HTTP/1.1 102 Processing\r\n\r\n"))
		}, want: safefetch.ErrTooLarge, cap: safefetch.DefaultMaxHeaderBytes},
		{name: "gzip bomb", write: func(c net.Conn) {
			writeAll(c, head+"Content-Encoding: gzip\r\n"+fmt.Sprintf("Content-Length: %d\r\n\r\n", bomb.Len())+bomb.String(), nil)
		}, want: safefetch.ErrContentEncoding, cap: safefetch.DefaultMaxHeaderBytes},
		{name: "unasked content coding", write: func(c net.Conn) {
			writeAll(c, head+"Content-Encoding: br\r\nContent-Length: 4\r\n\r\nxxxx", nil)
		}, want: safefetch.ErrContentEncoding, cap: safefetch.DefaultMaxHeaderBytes},
		{name: "Content-Length says more", write: func(c net.Conn) {
			writeAll(c, head+"Content-Length: 2000\r\n\r\n"+body, nil)
			c.(*tls.Conn).Close()
		}, want: io.ErrUnexpectedEOF},
		{name: "Content-Length says less", write: func(c net.Conn) {
			writeAll(c, head+"Content-Length: 10\r\nConnection: close\r\n\r\n"+body, nil)
			c.(*tls.Conn).Close()
		}, size: 10},
		{name: "Content-Length over the cap", write: func(c net.Conn) {
			writeAll(c, head+"Content-Length: 2097152\r\n\r\n", endless(body))
		}, want: safefetch.ErrTooLarge},
		{name: "two Content-Lengths", write: func(c net.Conn) {
			writeAll(c, head+"Content-Length: 10\r\nContent-Length: 20\r\n\r\n"+body, nil)
		}, want: nil, size: -1},
		{name: "chunk size overflow", write: func(c net.Conn) {
			writeAll(c, head+"Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", endless(body))
		}, size: -1},
		{name: "chunk extension flood", write: func(c net.Conn) {
			writeAll(c, head+"Transfer-Encoding: chunked\r\n\r\n1;", endless(strings.Repeat("x", 4096)))
		}, size: -1},
		{name: "chunked body cut", write: func(c net.Conn) {
			writeAll(c, head+"Transfer-Encoding: chunked\r\n\r\n100\r\nabc", nil)
			c.(*tls.Conn).Close()
		}, want: io.ErrUnexpectedEOF},
		{name: "reset mid-body", write: func(c net.Conn) {
			writeAll(c, head+"Content-Length: 100000\r\n\r\n"+body, nil)
			time.Sleep(50 * time.Millisecond)
			tcp := c.(*tls.Conn).NetConn().(*net.TCPConn)
			_ = tcp.SetLinger(0)
			_ = tcp.Close()
		}, size: -1},
		{name: "close-delimited body cut without close_notify", write: func(c net.Conn) {
			writeAll(c, head+"\r\n"+body, nil)
			time.Sleep(20 * time.Millisecond)
			_ = c.(*tls.Conn).NetConn().Close() // a FIN, and no close_notify
		}, want: io.ErrUnexpectedEOF},
		{name: "huge SSE line", write: func(c net.Conn) {
			writeAll(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n6\r\ndata: \r\n", endless("4000\r\n"+strings.Repeat("d", 0x4000)+"\r\n"))
		}, want: safefetch.ErrTooLarge},
		{name: "close-delimited body with close_notify", write: func(c net.Conn) {
			writeAll(c, head+"\r\n"+body, nil)
			_ = c.(*tls.Conn).Close()
		}, size: len(body)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := newNetwork(t)
			base := runtime.NumGoroutine()
			protos := []string{"http/1.1"}
			if tc.noTLS {
				protos = nil
			}
			site := newRawSite(t, n, "hostile.example", protos, func(c net.Conn, _ int) {
				br := bufio.NewReader(c)
				if !tc.noTLS && !readRequest(br) {
					return
				}
				tc.write(c)
			})
			opts := site.options()
			opts.Timeout = 3 * time.Second
			if tc.timeout {
				opts.Timeout = 300 * time.Millisecond
			}
			c := safefetch.New(opts)
			for _, via := range []string{"Get", "HTTPClient"} {
				before := site.totalSocketBytes()
				start := time.Now()
				var err error
				var got int
				if via == "Get" {
					var resp *safefetch.Response
					resp, err = c.Get(t.Context(), "https://hostile.example/", nil)
					if err == nil {
						got = len(resp.Body)
					}
				} else {
					var hr *http.Response
					hr, err = c.HTTPClient().Get("https://hostile.example/")
					if err == nil {
						var b []byte
						b, err = io.ReadAll(hr.Body)
						hr.Body.Close()
						got = len(b)
					}
				}
				elapsed := time.Since(start)
				read := site.totalSocketBytes() - before
				switch {
				case tc.size > 0:
					require.NoError(t, err, via)
					assert.Equal(t, tc.size, got, via)
				case tc.size < 0: // refused, by net/http's own parser: a failure without a sentinel
					require.Error(t, err, via)
					assert.Empty(t, sentinels(err), via)
				default:
					require.ErrorIs(t, err, tc.want, via)
					if s := sentinels(err); len(s) > 0 {
						assert.Equal(t, []error{tc.want}, s, "exactly one sentinel (%s): %v", via, err)
					}
				}
				assert.Less(t, elapsed, opts.Timeout+time.Second, via)
				cap := tc.cap
				if cap == 0 {
					cap = safefetch.DefaultMaxBodyBytes
				}
				assert.LessOrEqual(t, read, cap+hostileSlack, "socket bytes (%s)", via)
				t.Logf("hostile h1 %s via %s: %v in %v, %d socket bytes", tc.name, via, err, elapsed.Round(time.Millisecond), read)
			}
			c.CloseIdleConnections()
			site.close()
			settleGoroutines(t, base)
		})
	}
}

// A server that closes a kept-alive connection just as the client reuses
// it (it reads the second request, then closes without answering): a GET,
// safe to repeat, is sent again on a new connection, once; a POST is not.
// Over HTTP/1 and HTTP/2.
func TestRetryOnConnectionClosedByServer(t *testing.T) {
	for _, proto := range []string{"http/1.1", "h2"} {
		t.Run(proto, func(t *testing.T) {
			n := newNetwork(t)
			base := runtime.NumGoroutine()
			var served, received atomic.Int32
			site := newRawSite(t, n, "idle.example", []string{proto}, func(c net.Conn, index int) {
				if proto == "h2" {
					h, err := newH2conn(c)
					if err != nil {
						return
					}
					k := 0
					for id := range h.requests {
						received.Add(1)
						if k++; index%2 == 0 && k == 2 {
							return // close as the client reuses the connection
						}
						served.Add(1)
						if h.headers(id, false, ":status", "200", "content-length", "2") != nil || h.data(id, []byte("ok"), true) != nil {
							return
						}
					}
					return
				}
				br := bufio.NewReader(c)
				for k := 1; readRequest(br); k++ {
					received.Add(1)
					if index%2 == 0 && k == 2 {
						return
					}
					served.Add(1)
					if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"); err != nil {
						return
					}
				}
			})
			c := safefetch.New(site.options())
			budget := safefetch.NewBudget(safefetch.BudgetLimits{})
			bc := c.WithBudget(budget)
			for i := range 2 {
				resp, err := bc.Get(t.Context(), "https://idle.example/", nil)
				require.NoError(t, err, "GET %d", i)
				assert.Equal(t, "ok", string(resp.Body))
			}
			assert.EqualValues(t, 2, served.Load())
			if proto == "h2" {
				// net/http does not repeat a request over HTTP/2 on its
				// own; the retry is safefetch's, charged as an attempt.
				assert.Equal(t, 3, budget.Usage().Attempts)
			}
			// A new connection (the third, which closes on its second
			// request): its second request is a POST, never repeated.
			c.CloseIdleConnections()
			before := received.Load()
			post := &safefetch.Request{Method: http.MethodPost, URL: "https://idle.example/", Body: []byte("{}")}
			_, err := bc.Do(t.Context(), post)
			require.NoError(t, err, "the POST is the first request of its connection")
			_, err = bc.Do(t.Context(), post)
			// The server received each POST once, whichever connection
			// carried it: a POST is never sent again. When the second one
			// met the closing connection (the usual case), it fails.
			assert.EqualValues(t, 2, received.Load()-before, "a POST is not repeated")
			if err != nil {
				assert.EqualValues(t, 3, served.Load())
			} else {
				assert.EqualValues(t, 4, served.Load(), "the second POST went out on a connection that answers")
			}
			c.CloseIdleConnections()
			site.close()
			settleGoroutines(t, base)
		})
	}
}

// Every refusal wraps exactly the one sentinel the package documentation
// promises; a redirect refused by CheckURL keeps its *URLError reachable.
func TestOneSentinelPerError(t *testing.T) {
	n := newNetwork(t)
	base := runtime.NumGoroutine()
	mux := http.NewServeMux()
	for path, loc := range map[string]string{
		"/to-http": "http://shop.example/", "/to-userinfo": "https://u:p@shop.example/",
		"/to-private": "https://intranet.example/", "/to-port": "https://shop.example:8443/",
		"/to-metadata": "https://169.254.169.254/", "/loop": "/loop", "/to-mixed": "https://mixed.example/",
	} {
		mux.Handle(path, redirectTo(http.StatusFound, loc))
	}
	mux.Handle("/big", sized(2*mib, false))
	n.Site("shop.example", mux)
	n.Host("intranet.example", "10.1.2.3")
	n.Host("mixed.example", "93.184.216.40", "192.168.1.1")
	n.Host("gone.example")
	c := n.Client()
	policy := c.WithRedirectPolicy(safefetch.SameOriginOrWWW)
	cases := []struct {
		name   string
		client *safefetch.Client
		url    string
		want   error
		urlErr string // the rule of the *URLError reached with errors.As, if any
	}{
		{"http URL", c, "http://shop.example/", safefetch.ErrForbiddenURL, safefetch.RuleScheme},
		{"redirect to http", c, "https://shop.example/to-http", safefetch.ErrRedirectRefused, ""},
		{"redirect with userinfo", c, "https://shop.example/to-userinfo", safefetch.ErrRedirectRefused, safefetch.RuleUserinfo},
		{"redirect to a metadata literal", c, "https://shop.example/to-metadata", safefetch.ErrRedirectRefused, safefetch.RuleAddress},
		{"redirect to a private host", c, "https://shop.example/to-private", safefetch.ErrForbiddenAddress, ""},
		{"redirect to mixed DNS answers", c, "https://shop.example/to-mixed", safefetch.ErrForbiddenAddress, ""},
		{"mixed DNS answers", c, "https://mixed.example/", safefetch.ErrForbiddenAddress, ""},
		{"redirect to another port", policy, "https://shop.example/to-port", safefetch.ErrRedirectRefused, ""},
		{"redirect loop", c, "https://shop.example/loop", safefetch.ErrTooManyRedirects, ""},
		{"body over the cap", c, "https://shop.example/big", safefetch.ErrTooLarge, ""},
		{"NXDOMAIN", c, "https://gone.example/", safefetch.ErrDNS, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := tc.client.Get(t.Context(), tc.url, nil)
			assert.Equal(t, []error{tc.want}, sentinels(err), "%v", err)
			assert.Less(t, time.Since(start), 2*time.Second)
			hr, herr := tc.client.HTTPClient().Get(tc.url)
			if herr == nil {
				_, herr = io.ReadAll(hr.Body)
				hr.Body.Close()
			}
			assert.Equal(t, []error{tc.want}, sentinels(herr), "HTTPClient: %v", herr)
			var ue *safefetch.URLError
			if tc.urlErr != "" {
				require.ErrorAs(t, err, &ue)
				assert.Equal(t, tc.urlErr, ue.Rule)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		opts := n.Options()
		opts.Timeout = 200 * time.Millisecond
		opts.Resolver = resolverFunc(func(ctx context.Context, network, host string) ([]netip.Addr, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		_, err := safefetch.New(opts).Get(t.Context(), "https://shop.example/", nil)
		assert.Equal(t, []error{safefetch.ErrTimeout}, sentinels(err), "a lookup ended by the call deadline: %v", err)
	})
	c.CloseIdleConnections()
	n.Close()
	settleGoroutines(t, base)
}
