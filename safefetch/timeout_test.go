package safefetch_test

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// Through HTTPClient, a call that runs out of Options.Timeout fails with
// ErrTimeout in every phase, as Get does: waiting for headers, reading a
// trickled body, reading a server-sent event stream that stalls, and across
// a redirect chain whose hops are each within the deadline but not
// together. Never net/http's own time-out error.
func TestHTTPClientTimeoutIsErrTimeout(t *testing.T) {
	n := newNetwork(t)
	base := runtime.NumGoroutine()
	n.Site("slow-headers.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	n.Site("trickle.example", trickle())
	n.Site("sse.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("event: message\ndata: {}\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // then stall
	}))
	n.Site("slow-chain.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(120 * time.Millisecond)
		if r.URL.Path == "/" {
			http.Redirect(w, r, "/1", http.StatusFound)
			return
		}
		if r.URL.Path == "/1" {
			http.Redirect(w, r, "/2", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("too late"))
	}))
	opts := n.Options()
	opts.Timeout = 300 * time.Millisecond
	c := safefetch.New(opts)
	hc := c.HTTPClient()

	cases := []struct {
		name string
		run  func() error
	}{
		{"headers", func() error {
			resp, err := hc.Get("https://slow-headers.example/")
			if err == nil {
				resp.Body.Close()
			}
			return err
		}},
		{"body", func() error {
			resp, err := hc.Get("https://trickle.example/")
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			_, err = io.ReadAll(resp.Body)
			return err
		}},
		{"sse", func() error {
			resp, err := hc.Get("https://sse.example/")
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			line, err := br.ReadString('\n')
			if err != nil {
				return err
			}
			if line != "event: message\n" {
				return errors.New("unexpected first line " + line)
			}
			for {
				if _, err := br.ReadString('\n'); err != nil {
					return err
				}
			}
		}},
		{"redirect chain", func() error {
			resp, err := hc.Get("https://slow-chain.example/")
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			_, err = io.ReadAll(resp.Body)
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for range 2 { // the phase's race, if any, gets a second try
				start := time.Now()
				err := tc.run()
				elapsed := time.Since(start)
				require.ErrorIs(t, err, safefetch.ErrTimeout)
				assert.NotErrorIs(t, err, safefetch.ErrTooLarge)
				var fe *safefetch.Error
				assert.ErrorAs(t, err, &fe)
				assert.GreaterOrEqual(t, elapsed, 250*time.Millisecond)
				assert.Less(t, elapsed, 5*time.Second, "far sooner than the servers end")
			}
		})
	}
	// The same servers through Get give the same sentinel.
	for _, host := range []string{"slow-headers.example", "trickle.example", "sse.example", "slow-chain.example"} {
		_, err := c.Get(t.Context(), "https://"+host+"/", nil)
		require.ErrorIs(t, err, safefetch.ErrTimeout, host)
	}
	c.CloseIdleConnections()
	n.Close()
	settleGoroutines(t, base)
}
