package safefetch_test

import (
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

func TestRedirects(t *testing.T) {
	n := newNetwork(t)
	var endlessWritten atomic.Int64
	var wwwAuth atomic.Value
	mux := http.NewServeMux()
	for from, to := range map[string]string{
		"/to-private":     "https://intranet.example/",
		"/to-http":        "http://shop.example/final",
		"/to-file":        "file:///etc/passwd",
		"/to-other":       "https://other.example/",
		"/to-www":         "https://www.shop.example/final",
		"/to-www-www":     "https://www.www.shop.example/final",
		"/to-deeper":      "https://a.shop.example/final",
		"/to-port":        "https://shop.example:8443/final",
		"/loop":           "/loop",
		"/chain3":         "/chain2",
		"/chain2":         "/chain1",
		"/chain1":         "/final",
		"/chain4":         "/chain3",
		"/relative":       "final?x=1",
		"/metadata":       "//169.254.169.254/latest/meta-data/",
		"/userinfo":       "https://user:pw@shop.example/final",
		"/to-literal":     "https://127.1/",
		"/to-nxdomain":    "https://gone.example/",
		"/to-same-origin": "https://shop.example:443/final",
	} {
		mux.Handle(from, redirectTo(http.StatusFound, to))
	}
	mux.Handle("/301", redirectTo(http.StatusMovedPermanently, "/final"))
	mux.Handle("/308", redirectTo(http.StatusPermanentRedirect, "/final"))
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{""}
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/dup", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{"/final", "https://other.example/"}
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "/final")
		w.WriteHeader(http.StatusFound)
		chunk := make([]byte, 32<<10)
		for {
			k, err := w.Write(chunk)
			endlessWritten.Add(int64(k))
			if err != nil || r.Context().Err() != nil {
				return
			}
		}
	})
	mux.Handle("/final", text("final"))
	n.Site("shop.example", mux)
	n.Site("www.shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wwwAuth.Store(r.Header.Get("Authorization") + "|" + r.Header.Get("Cookie"))
		_, _ = w.Write([]byte("www"))
	}))
	n.Site("other.example", text("other"))
	n.Host("intranet.example", "10.1.2.3")
	n.Host("gone.example")

	cases := []struct {
		path      string
		policy    safefetch.RedirectPolicy
		final     string // "" when refused
		errs      []error
		requests  int // requests shop.example serves
		redirects int
	}{
		{path: "/to-private", errs: []error{safefetch.ErrForbiddenAddress}, requests: 1},
		{path: "/to-http", errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-file", errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-other", policy: safefetch.SameOriginOrWWW, errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-other", final: "https://other.example/", requests: 1, redirects: 1},
		{path: "/to-www", policy: safefetch.SameOriginOrWWW, final: "https://www.shop.example/final", requests: 1, redirects: 1},
		{path: "/to-www-www", policy: safefetch.SameOriginOrWWW, errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-deeper", policy: safefetch.SameOriginOrWWW, errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-port", policy: safefetch.SameOriginOrWWW, errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-same-origin", policy: safefetch.SameOriginOrWWW, final: "https://shop.example/final", requests: 2, redirects: 1},
		{path: "/loop", errs: []error{safefetch.ErrTooManyRedirects}, requests: 4},
		{path: "/chain3", final: "https://shop.example/final", requests: 4, redirects: 3},
		{path: "/chain4", errs: []error{safefetch.ErrTooManyRedirects}, requests: 4},
		{path: "/relative", final: "https://shop.example/final?x=1", requests: 2, redirects: 1},
		{path: "/metadata", errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/userinfo", errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-literal", errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/to-nxdomain", errs: []error{safefetch.ErrDNS}, requests: 1},
		{path: "/empty", errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/dup", errs: []error{safefetch.ErrRedirectRefused}, requests: 1},
		{path: "/301", final: "https://shop.example/final", requests: 2, redirects: 1},
		{path: "/308", final: "https://shop.example/final", requests: 2, redirects: 1},
		{path: "/endless", final: "https://shop.example/final", requests: 2, redirects: 1},
	}
	for _, tc := range cases {
		name := tc.path
		if tc.policy != nil {
			name += " with SameOriginOrWWW"
		}
		t.Run(name, func(t *testing.T) {
			n.ResetRequests()
			c := n.Client()
			if tc.policy != nil {
				c = c.WithRedirectPolicy(tc.policy)
			}
			declared := "https://shop.example" + tc.path
			resp, err := c.Get(t.Context(), declared, nil)
			assert.Equal(t, tc.requests, n.Requests("shop.example"), "requests served by shop.example")
			if tc.final == "" {
				require.Error(t, err)
				assert.Nil(t, resp)
				for _, want := range tc.errs {
					assert.ErrorIs(t, err, want)
				}
				assert.Zero(t, n.Requests("intranet.example"))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, declared, resp.URL, "the declared URL is never replaced")
			assert.Equal(t, tc.final, resp.FinalURL)
			assert.Len(t, resp.Redirects, tc.redirects)
			require.Len(t, resp.Hops, tc.redirects+1)
			for i, hop := range resp.Hops[:tc.redirects] {
				assert.Equal(t, resp.Redirects[i], hop.Location)
				assert.Equal(t, resp.Hops[i+1].URL, hop.Location)
				assert.True(t, hop.StatusCode >= 300 && hop.StatusCode < 400)
				assert.True(t, hop.RemoteAddr.IsValid())
			}
			last := resp.Hops[len(resp.Hops)-1]
			assert.Equal(t, tc.final, last.URL)
			assert.Empty(t, last.Location)
			assert.Equal(t, resp.RemoteAddr, last.RemoteAddr)
		})
	}

	t.Run("redirect bodies are closed unread", func(t *testing.T) {
		endlessWritten.Store(0)
		c := n.Client()
		start := time.Now()
		_, err := c.Get(t.Context(), "https://shop.example/endless", nil)
		require.NoError(t, err)
		assert.Less(t, time.Since(start), 10*time.Second)
		// The server stops when the client drops the connection; what it
		// managed to write sits in socket buffers, never in the client.
		assert.Less(t, endlessWritten.Load(), int64(64<<20))
	})
	t.Run("MaxRedirects negative follows none", func(t *testing.T) {
		opts := n.Options()
		opts.MaxRedirects = -1
		resp, err := safefetch.New(opts).Get(t.Context(), "https://shop.example/to-private", nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusFound, resp.StatusCode)
		assert.Equal(t, "https://intranet.example/", resp.Header.Get("Location"))
		assert.Empty(t, resp.Redirects)
	})
	t.Run("Request.MaxRedirects never raises the Client's default", func(t *testing.T) {
		c := n.Client() // the default: three redirects
		_, err := c.Get(t.Context(), "https://shop.example/chain4", nil)
		require.ErrorIs(t, err, safefetch.ErrTooManyRedirects, "four redirects with the Client's three")
		_, err = c.Do(t.Context(), &safefetch.Request{URL: "https://shop.example/chain4", MaxRedirects: 5})
		require.ErrorIs(t, err, safefetch.ErrTooManyRedirects, "the default three bound a request that asks for five")
		opts := n.Options()
		opts.MaxRedirects = 5
		resp, err := safefetch.New(opts).Do(t.Context(), &safefetch.Request{URL: "https://shop.example/chain4", MaxRedirects: 5})
		require.NoError(t, err, "a Client that allows five follows four")
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Len(t, resp.Redirects, 4)
		_, err = c.Do(t.Context(), &safefetch.Request{URL: "https://shop.example/chain2", MaxRedirects: 1})
		require.ErrorIs(t, err, safefetch.ErrTooManyRedirects)
		resp, err = c.Do(t.Context(), &safefetch.Request{URL: "https://shop.example/chain1", MaxRedirects: -1})
		require.NoError(t, err)
		assert.Equal(t, http.StatusFound, resp.StatusCode, "negative: none followed")
		assert.Empty(t, resp.Redirects)
		opts = n.Options()
		opts.MaxRedirects = -1
		resp, err = safefetch.New(opts).Do(t.Context(), &safefetch.Request{URL: "https://shop.example/chain1", MaxRedirects: 2})
		require.NoError(t, err)
		assert.Equal(t, http.StatusFound, resp.StatusCode, "a Client's own MaxRedirects is only lowered by a request, never raised")
		opts.MaxRedirects = 2
		_, err = safefetch.New(opts).Do(t.Context(), &safefetch.Request{URL: "https://shop.example/chain4", MaxRedirects: 5})
		require.ErrorIs(t, err, safefetch.ErrTooManyRedirects, "the smaller of the Client's 2 and the request's 5")
	})
	t.Run("MaxRedirects 1", func(t *testing.T) {
		opts := n.Options()
		opts.MaxRedirects = 1
		_, err := safefetch.New(opts).Get(t.Context(), "https://shop.example/chain1", nil)
		require.NoError(t, err)
		_, err = safefetch.New(opts).Get(t.Context(), "https://shop.example/chain2", nil)
		require.ErrorIs(t, err, safefetch.ErrTooManyRedirects)
	})
	t.Run("credentials do not follow a hop to another host", func(t *testing.T) {
		_, err := n.Client().Get(t.Context(), "https://shop.example/to-www", http.Header{"Authorization": {"Bearer s"}, "Cookie": {"k=v"}})
		require.NoError(t, err)
		assert.Equal(t, "|", wwwAuth.Load())
	})
	t.Run("policy error is wrapped", func(t *testing.T) {
		_, err := n.Client().WithRedirectPolicy(safefetch.SameOriginOrWWW).Get(t.Context(), "https://shop.example/to-other", nil)
		require.ErrorIs(t, err, safefetch.ErrRedirectRefused)
		assert.Contains(t, err.Error(), "other.example")
		assert.Equal(t, 1, strings.Count(err.Error(), "safefetch:"), err.Error())
	})
	t.Run("the error carries the hops made", func(t *testing.T) {
		_, err := n.Client().Get(t.Context(), "https://shop.example/chain1", nil)
		require.NoError(t, err)
		_, err = n.Client().Get(t.Context(), "https://shop.example/to-private", nil)
		var fe *safefetch.Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, "GET", fe.Method)
		assert.Equal(t, "https://shop.example/to-private", fe.URL)
		require.Len(t, fe.Hops, 1, "the refused hop was never answered")
		assert.Equal(t, safefetch.Hop{URL: "https://shop.example/to-private", StatusCode: http.StatusFound,
			Location: "https://intranet.example/", RemoteAddr: netip.AddrPortFrom(n.Addr("shop.example"), 443)}, fe.Hops[0])

		_, err = n.Client().Get(t.Context(), "https://shop.example/to-http", nil)
		require.ErrorAs(t, err, &fe)
		require.Len(t, fe.Hops, 1)
		assert.Equal(t, http.StatusFound, fe.Hops[0].StatusCode)
		assert.Empty(t, fe.Hops[0].Location, "a refused Location is not followed")

		_, err = n.Client().Get(t.Context(), "http://shop.example/", nil)
		require.ErrorAs(t, err, &fe)
		assert.Nil(t, fe.Hops)
	})
	t.Run("hop addresses are recorded", func(t *testing.T) {
		resp, err := n.Client().Get(t.Context(), "https://shop.example/to-www", nil)
		require.NoError(t, err)
		assert.Equal(t, netip.AddrPortFrom(n.Addr("shop.example"), 443), resp.Hops[0].RemoteAddr)
		assert.Equal(t, netip.AddrPortFrom(n.Addr("www.shop.example"), 443), resp.Hops[1].RemoteAddr)
	})
}
