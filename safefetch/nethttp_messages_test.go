package safefetch_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// Every net/http error text the Client decides by is provoked here from a
// real server, and must still be in the error the Client returns: a Go
// release that rewords one fails this test instead of silently turning a
// refused cap into some other error.
func TestNetHTTPMessagesProvoked(t *testing.T) {
	h2 := func(serve func(h *h2conn, id uint32)) func(c net.Conn, _ int) {
		return func(c net.Conn, _ int) {
			h, err := newH2conn(c)
			if err != nil {
				return
			}
			for id := range h.requests {
				serve(h, id)
			}
		}
	}
	cases := []struct {
		name  string
		proto string
		serve func(c net.Conn, index int)
		exact bool // the message is the whole error text of the transport
	}{
		{name: "h1 headers exceeded", proto: "http/1.1", serve: func(c net.Conn, _ int) {
			br := bufio.NewReader(c)
			if !readRequest(br) {
				return
			}
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\n")
			for i := 0; ; i++ {
				if _, err := fmt.Fprintf(c, "X-Flood-%d: %s\r\n", i, strings.Repeat("v", 100)); err != nil {
					return
				}
			}
		}},
		{name: "h2 header list larger", proto: "h2", serve: h2(func(h *h2conn, id uint32) {
			// One HEADERS frame, small on the wire: the same 1000-byte
			// field a hundred times, through the HPACK table.
			kv := []string{":status", "200"}
			for range 100 {
				kv = append(kv, "x-same", strings.Repeat("s", 1000))
			}
			_ = h.headers(id, true, kv...)
		})},
		{name: "h2 compression", proto: "h2", serve: h2(func(h *h2conn, id uint32) {
			_ = h.headers(id, true, ":status", "200", "x-big", strings.Repeat("h", 70<<10))
		})},
		{name: "h2 bare protocol error", proto: "h2", exact: true, serve: h2(func(h *h2conn, id uint32) {
			kv := []string{":status", "200"}
			for i := range 3000 {
				kv = append(kv, fmt.Sprintf("x-f-%d", i), "vvvvvvvvvvvvvvvvvvvv")
			}
			_ = h.headers(id, true, kv...)
		})},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		msg, ok := safefetch.NetHTTPMessages[tc.name]
		require.True(t, ok, "%s: no such message", tc.name)
		covered[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			n := newNetwork(t)
			site := newRawSite(t, n, "msg.example", []string{tc.proto}, tc.serve)
			opts := site.options()
			opts.Timeout = 5 * time.Second
			_, err := safefetch.New(opts).Get(t.Context(), "https://msg.example/", nil)
			require.ErrorIs(t, err, safefetch.ErrTooLarge)
			assert.Contains(t, err.Error(), msg, "net/http's text is still the one matched")
			if tc.exact {
				// The transport's error, the innermost of the chain, is
				// exactly the text matched.
				inner := err
				for u := errors.Unwrap(inner); u != nil; u = errors.Unwrap(inner) {
					inner = u
				}
				for {
					m, ok := inner.(interface{ Unwrap() []error })
					if !ok {
						break
					}
					inner = m.Unwrap()[len(m.Unwrap())-1]
				}
				assert.Equal(t, msg, inner.Error())
			}
		})
	}
	for name := range safefetch.NetHTTPMessages {
		assert.True(t, covered[name], "%s is matched but never provoked", name)
	}
}
