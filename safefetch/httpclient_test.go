package safefetch_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

func TestHTTPClient(t *testing.T) {
	n := newNetwork(t)
	mux := http.NewServeMux()
	mux.Handle("/ok", text("ok"))
	mux.Handle("/exact", sized(mib, false))
	mux.Handle("/over", sized(mib+1, false))
	mux.Handle("/over-chunked", sized(mib+1, true))
	mux.Handle("/to-private", redirectTo(http.StatusFound, "https://intranet.example/"))
	mux.Handle("/to-http", redirectTo(http.StatusFound, "http://shop.example/ok"))
	mux.Handle("/to-www", redirectTo(http.StatusFound, "https://www.shop.example/"))
	mux.Handle("/to-other", redirectTo(http.StatusFound, "https://other.example/"))
	mux.Handle("/loop", redirectTo(http.StatusFound, "/loop"))
	mux.HandleFunc("/dup", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{"/ok", "/ok"}
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/echo-encoding", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(r.Header.Get("Accept-Encoding") + "|" + r.UserAgent()))
	})
	n.Site("shop.example", mux)
	n.Site("www.shop.example", text("www"))
	n.Site("other.example", text("other"))
	n.Host("intranet.example", "10.9.8.7")

	b := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 100})
	hc := n.Client().WithBudget(b).HTTPClient()
	strict := n.Client().WithBudget(b).WithRedirectPolicy(safefetch.SameOriginOrWWW).HTTPClient()
	get := func(t *testing.T, path string) (string, error) {
		t.Helper()
		c := hc
		if strings.HasPrefix(path, "/to-other") || strings.HasPrefix(path, "/to-www") {
			c = strict
		}
		resp, err := c.Get("https://shop.example" + path)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return string(body), err
	}
	cases := []struct {
		path string
		body string
		err  error
	}{
		{"/ok", "ok", nil},
		{"/exact", strings.Repeat("a", mib), nil},
		{"/over", "", safefetch.ErrTooLarge},
		{"/over-chunked", "", safefetch.ErrTooLarge},
		{"/to-private", "", safefetch.ErrForbiddenAddress},
		{"/to-http", "", safefetch.ErrRedirectRefused},
		{"/to-www", "www", nil},
		{"/to-other", "", safefetch.ErrRedirectRefused},
		{"/loop", "", safefetch.ErrTooManyRedirects},
		{"/dup", "", safefetch.ErrRedirectRefused},
		{"/echo-encoding", "identity|" + safefetch.DefaultUserAgent, nil},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			body, err := get(t, tc.path)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.body, body)
		})
	}
	t.Run("refused URLs", func(t *testing.T) {
		for _, u := range []string{"http://shop.example/ok", "https://127.0.0.1/", "https://intranet.example/"} {
			resp, err := hc.Get(u)
			if resp != nil {
				resp.Body.Close()
			}
			require.Error(t, err, u)
			assert.True(t, strings.Contains(err.Error(), "safefetch"), err.Error())
		}
	})
	assert.Positive(t, b.Usage().Attempts)
	assert.Zero(t, n.Requests("intranet.example"))
	assert.Zero(t, n.Requests("other.example"))
	assert.Equal(t, 0, b.Usage().PeakConcurrency-1, "every body was closed and the slot released")

	t.Run("bytes are charged to the budget", func(t *testing.T) {
		b := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 3})
		resp, err := n.Client().WithBudget(b).HTTPClient().Get("https://shop.example/ok")
		require.NoError(t, err)
		_, err = io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		assert.Equal(t, int64(2), b.Usage().Bytes)
		resp, err = n.Client().WithBudget(b).HTTPClient().Get("https://shop.example/ok")
		require.NoError(t, err)
		_, err = io.ReadAll(resp.Body)
		require.ErrorIs(t, err, safefetch.ErrBudgetExhausted)
		require.NoError(t, resp.Body.Close())
	})
}
