package safefetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

const mib = 1 << 20

// sized serves size bytes, with a Content-Length unless chunked.
func sized(size int, chunked bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !chunked {
			w.Header().Set("Content-Length", strconv.Itoa(size))
		}
		chunk := bytes.Repeat([]byte("a"), 16<<10)
		for left := size; left > 0; {
			k := min(left, len(chunk))
			if _, err := w.Write(chunk[:k]); err != nil {
				return
			}
			if chunked {
				w.(http.Flusher).Flush()
			}
			left -= k
		}
	})
}

// raw hijacks the connection and writes response verbatim, then body
// bytes of the given size, then closes.
func raw(head string, bodySize int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString(head)
		_, _ = buf.Write(bytes.Repeat([]byte("b"), bodySize))
		_ = buf.Flush()
	})
}

func TestBodyBounds(t *testing.T) {
	n := newNetwork(t)
	var endlessWritten int64
	n.Site("exact.example", sized(mib, false))
	n.Site("over.example", sized(mib+1, false))
	n.Site("exact-chunked.example", sized(mib, true))
	n.Site("over-chunked.example", sized(mib+1, true))
	n.Site("empty.example", sized(0, false))
	n.Site("endless.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("e"), 32<<10)
		for {
			k, err := w.Write(chunk)
			endlessWritten += int64(k)
			if err != nil {
				return
			}
		}
	}))
	n.Site("declares-too-much.example", raw("HTTP/1.1 200 OK\r\nContent-Length: 2097152\r\n\r\n", 10))
	n.Site("says-less.example", raw("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n", 40))
	n.Site("says-more.example", raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", 50))
	n.Site("chunked-cut.example", raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc", 0))

	cases := []struct {
		host     string
		size     int   // body length on success
		err      error // nil: success
		evidence bool  // a Response comes with the error
	}{
		{"exact.example", mib, nil, false},
		{"over.example", 0, safefetch.ErrTooLarge, true},
		{"exact-chunked.example", mib, nil, false},
		{"over-chunked.example", 0, safefetch.ErrTooLarge, true},
		{"empty.example", 0, nil, false},
		{"endless.example", 0, safefetch.ErrTooLarge, true},
		{"declares-too-much.example", 0, safefetch.ErrTooLarge, true},
		{"says-less.example", 10, nil, false},
		{"says-more.example", 0, io.ErrUnexpectedEOF, false},
		{"chunked-cut.example", 0, io.ErrUnexpectedEOF, false},
	}
	c := n.Client()
	for _, tc := range cases {
		t.Run(tc.host, func(t *testing.T) {
			resp, err := c.Get(t.Context(), "https://"+tc.host+"/", nil)
			if tc.err == nil {
				require.NoError(t, err)
				assert.Len(t, resp.Body, tc.size)
				return
			}
			require.ErrorIs(t, err, tc.err)
			if !tc.evidence {
				assert.Nil(t, resp)
				return
			}
			require.NotNil(t, resp, "ErrTooLarge comes with the evidence")
			assert.Nil(t, resp.Body)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "https://"+tc.host+"/", resp.FinalURL)
			assert.Len(t, resp.Hops, 1)
		})
	}
}

func TestContentEncodingRefused(t *testing.T) {
	n := newNetwork(t)
	var bomb bytes.Buffer
	zw, err := gzip.NewWriterLevel(&bomb, gzip.BestSpeed)
	require.NoError(t, err)
	_, _ = zw.Write(make([]byte, 16*mib)) // 16 MiB of zeros, a few KiB on the wire
	require.NoError(t, zw.Close())
	var asked string
	n.Site("bomb.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.Header.Get("Accept-Encoding")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb.Bytes())
	}))
	n.Site("br.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "identity, br")
		_, _ = w.Write([]byte("xx"))
	}))
	n.Site("identity.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "Identity")
		_, _ = w.Write([]byte("plain"))
	}))
	c := n.Client()
	_, err = c.Get(t.Context(), "https://bomb.example/", http.Header{"Accept-Encoding": {"gzip"}})
	require.ErrorIs(t, err, safefetch.ErrContentEncoding)
	assert.Equal(t, "identity", asked, "identity is always what is asked for")
	_, err = c.Get(t.Context(), "https://br.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrContentEncoding)
	resp, err := c.Get(t.Context(), "https://identity.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "plain", string(resp.Body))

	hr, err := c.HTTPClient().Get("https://bomb.example/")
	if hr != nil {
		hr.Body.Close()
	}
	require.ErrorIs(t, err, safefetch.ErrContentEncoding)
}

func TestDeadline(t *testing.T) {
	n := newNetwork(t)
	n.Site("slow-headers.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(30 * time.Second):
		case <-r.Context().Done():
		}
	}))
	n.Site("slow-body.example", trickle())
	n.Site("latency.example", text("late"))
	n.SetLatency("latency.example", 30*time.Second)
	n.Site("slow-hijacked.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		// A slowloris header trickle: one header line every 20 ms, forever.
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\n")
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(buf, "X-%d: y\r\n", i); err != nil {
				return
			}
			if buf.Flush() != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}))
	opts := n.Options()
	opts.Timeout = 300 * time.Millisecond
	c := safefetch.New(opts)
	for _, host := range []string{"slow-headers.example", "slow-body.example", "latency.example", "slow-hijacked.example"} {
		t.Run(host, func(t *testing.T) {
			start := time.Now()
			_, err := c.Get(t.Context(), "https://"+host+"/", nil)
			require.ErrorIs(t, err, safefetch.ErrTimeout)
			elapsed := time.Since(start)
			assert.GreaterOrEqual(t, elapsed, 250*time.Millisecond)
			assert.Less(t, elapsed, 10*time.Second, "far below the servers' 30 s")
		})
	}
}

func TestOversizedHeaders(t *testing.T) {
	n := newNetwork(t)
	n.Site("big-headers.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("h", 70<<10))
		_, _ = w.Write([]byte("x"))
	}))
	n.Site("ok-headers.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("h", 60<<10))
		_, _ = w.Write([]byte("x"))
	}))
	n.Site("many-1xx.example", raw(strings.Repeat("HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n", 2000)+"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 0))
	c := n.Client()
	resp, err := c.Get(t.Context(), "https://big-headers.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrTooLarge)
	assert.Nil(t, resp)
	_, err = c.Get(t.Context(), "https://ok-headers.example/", nil)
	require.NoError(t, err)
	_, err = c.Get(t.Context(), "https://many-1xx.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrTooLarge, "a flood of 1xx responses counts against the header cap")
}

func TestCertificates(t *testing.T) {
	n := newNetwork(t)
	now := time.Now()
	n.SiteWithCertificate("wrong-name.example", text("x"), n.Certificate(now.Add(-time.Hour), now.Add(time.Hour), "other.example"))
	n.SiteWithCertificate("expired.example", text("x"), n.Certificate(now.Add(-48*time.Hour), now.Add(-24*time.Hour), "expired.example"))
	n.SiteWithCertificate("ip-only.example", text("x"), n.Certificate(now.Add(-time.Hour), now.Add(time.Hour), n.Addr("wrong-name.example").String()))
	n.Site("good.example", text("good"))
	c := n.Client()

	_, err := c.Get(t.Context(), "https://wrong-name.example/", nil)
	var hostErr x509.HostnameError
	require.ErrorAs(t, err, &hostErr)

	_, err = c.Get(t.Context(), "https://expired.example/", nil)
	var invalid x509.CertificateInvalidError
	require.ErrorAs(t, err, &invalid)
	assert.Equal(t, x509.Expired, invalid.Reason)

	_, err = c.Get(t.Context(), "https://ip-only.example/", nil)
	require.ErrorAs(t, err, &hostErr)

	opts := n.Options()
	opts.RootCAs = nil // the system roots do not know the Network's authority
	_, err = safefetch.New(opts).Get(t.Context(), "https://good.example/", nil)
	var unknown x509.UnknownAuthorityError
	require.ErrorAs(t, err, &unknown)

	for _, h := range []string{"wrong-name.example", "expired.example", "good.example"} {
		assert.Zero(t, n.Requests(h), "no request reaches %s", h)
	}
}

func TestTLSStalledAndLiteral(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", text("ok"))

	t.Run("stalled handshake", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				t.Cleanup(func() { c.Close() }) // accept, then say nothing
			}
		}()
		opts := n.Options()
		opts.Timeout = 300 * time.Millisecond
		opts.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(ctx, network, ln.Addr().String())
			if err != nil {
				return nil, err
			}
			return &lyingConn{Conn: c, remote: net.TCPAddrFromAddrPort(netip.MustParseAddrPort(addr)), closed: new(atomic.Bool)}, nil
		}
		start := time.Now()
		_, err = safefetch.New(opts).Get(t.Context(), "https://shop.example/", nil)
		require.ErrorIs(t, err, safefetch.ErrTimeout)
		assert.Less(t, time.Since(start), 10*time.Second)
	})
	t.Run("TLS to an IP literal needs an IP certificate", func(t *testing.T) {
		_, err := n.Client().Get(t.Context(), "https://"+n.Addr("shop.example").String()+"/", nil)
		var hostErr x509.HostnameError
		require.ErrorAs(t, err, &hostErr)
		assert.Zero(t, n.Requests("shop.example"))
	})
}
