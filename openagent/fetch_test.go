package openagent

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newNet returns a fake internet, closed with the test.
func newNet(t *testing.T) *fetchtest.Network {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	return n
}

func serveJSON(body string, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write([]byte(body))
	}
}

func TestFetch(t *testing.T) {
	n := newNet(t)
	example := string(readFile(t, "openagent-example.json"))
	wk, err := Handler(exampleProfile(t), nil)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, wk)
	mux.Handle("/old.json", http.RedirectHandler(WellKnownPath, http.StatusMovedPermanently))
	mux.Handle("/html.json", serveJSON(example, "text/html; charset=utf-8"))
	mux.Handle("/charset.json", serveJSON(example, "application/json; charset=utf-8"))
	mux.Handle("/invalid.json", serveJSON(strings.Replace(example, `"web:read"`, `"web:*"`, 1), "application/json"))
	mux.Handle("/v12.json", serveJSON(strings.Replace(example, `"0.1"`, `"1.2"`, 1), "application/json"))
	mux.Handle("/array.json", serveJSON("["+example+"]", "application/json"))
	n.Site("agent.example", mux)
	opts := &FetchOptions{Client: n.Client()}

	t.Run("well-known", func(t *testing.T) {
		before := time.Now()
		rec, err := Fetch(t.Context(), "https://agent.example"+WellKnownPath, opts)
		require.NoError(t, err)
		assert.Equal(t, "research.coinpay", rec.Profile.DID)
		assert.Equal(t, "https://agent.example/.well-known/openagent.json", rec.SourceURL)
		assert.Equal(t, rec.SourceURL, rec.FinalURL)
		assert.NotEmpty(t, rec.ETag)
		assert.False(t, rec.Retrieved.Before(before))
		assert.False(t, rec.NotModified)
		back, err := Parse(rec.Body)
		require.NoError(t, err)
		assert.Equal(t, rec.Profile, back)
	})
	t.Run("redirect keeps the source URL", func(t *testing.T) {
		rec, err := Fetch(t.Context(), "https://agent.example/old.json", opts)
		require.NoError(t, err)
		assert.Equal(t, "https://agent.example/old.json", rec.SourceURL)
		assert.Equal(t, "https://agent.example/.well-known/openagent.json", rec.FinalURL)
	})
	t.Run("media type parameters allowed", func(t *testing.T) {
		_, err := Fetch(t.Context(), "https://agent.example/charset.json", opts)
		assert.NoError(t, err)
	})

	failures := []struct {
		name, path string
		opts       *FetchOptions
		check      func(t *testing.T, err error)
	}{
		{"wrong content type", "/html.json", opts, func(t *testing.T, err error) {
			var ce *ContentTypeError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, "text/html; charset=utf-8", ce.ContentType)
			assert.ErrorIs(t, err, ErrContentType)
		}},
		{"not found", "/missing.json", opts, func(t *testing.T, err error) {
			var se *StatusError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, http.StatusNotFound, se.StatusCode)
			assert.ErrorIs(t, err, ErrStatus)
		}},
		{"invalid profile", "/invalid.json", opts, func(t *testing.T, err error) {
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "https://agent.example/invalid.json", ve.URL)
			assert.True(t, ve.Has(RulePermissionSyntax))
			assert.Contains(t, err.Error(), "https://agent.example/invalid.json")
		}},
		{"unsupported version", "/v12.json", opts, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, ErrUnsupportedVersion)
		}},
		{"an array is not a profile", "/array.json", opts, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, ErrInvalid)
		}},
		{"did mismatch", WellKnownPath, &FetchOptions{Client: n.Client(), ExpectDID: "research.other"}, func(t *testing.T, err error) {
			var me *DIDMismatchError
			require.ErrorAs(t, err, &me)
			assert.Equal(t, "research.other", me.Expected)
			assert.Equal(t, "research.coinpay", me.Got)
			assert.Equal(t, "https://agent.example"+WellKnownPath, me.URL)
			assert.ErrorIs(t, err, ErrDIDMismatch)
		}},
		{"expected did must be a LogicSRC identity", WellKnownPath, &FetchOptions{Client: n.Client(), ExpectDID: "did:key:z6Mk"}, func(t *testing.T, err error) {
			assert.Contains(t, err.Error(), "not a LogicSRC identity")
		}},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := Fetch(t.Context(), "https://agent.example"+tc.path, tc.opts)
			assert.Nil(t, rec)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "openagent: "), err.Error())
			tc.check(t, err)
		})
	}

	t.Run("matching did", func(t *testing.T) {
		rec, err := Fetch(t.Context(), "https://agent.example"+WellKnownPath, &FetchOptions{Client: n.Client(), ExpectDID: "research.coinpay"})
		require.NoError(t, err)
		assert.Equal(t, "research.coinpay", rec.Profile.DID)
	})
}

func TestFetchZeroOptionsIsSafe(t *testing.T) {
	// nil options mean safefetch.New(nil): loopback and private addresses
	// are refused before any connection.
	for _, u := range []string{"https://127.0.0.1/.well-known/openagent.json", "https://10.0.0.1/a.json"} {
		_, err := Fetch(t.Context(), u, nil)
		require.Error(t, err)
		assert.True(t, errors.Is(err, safefetch.ErrForbiddenAddress) || errors.Is(err, safefetch.ErrForbiddenURL), err.Error())
	}
	_, err := Fetch(t.Context(), "http://agent.example/a.json", &FetchOptions{})
	assert.ErrorIs(t, err, safefetch.ErrForbiddenURL)
}

func TestRefresh(t *testing.T) {
	n := newNet(t)
	wk, err := Handler(exampleProfile(t), nil)
	require.NoError(t, err)

	// lastmod.example only knows Last-Modified.
	var lastModHits atomic.Int32
	lastMod := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lastModHits.Add(1)
		const lm = "Mon, 02 Nov 2026 10:00:00 GMT"
		if r.Header.Get("If-Modified-Since") == lm {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Last-Modified", lm)
		_, _ = w.Write(readFile(t, "openagent-example.json"))
	})
	// changing.example changes its profile between requests.
	var version atomic.Int32
	changing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := exampleProfile(t)
		switch version.Load() {
		case 1:
			p.Name = "Renamed agent"
		case 2:
			p.DID = "someone.else"
		}
		h, err := Handler(p, nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		h.ServeHTTP(w, r)
	})
	n.Site("agent.example", wk)
	n.Site("lastmod.example", lastMod)
	n.Site("changing.example", changing)
	opts := &FetchOptions{Client: n.Client()}

	t.Run("304 by ETag keeps the record and updates its time", func(t *testing.T) {
		rec, err := Fetch(t.Context(), "https://agent.example"+WellKnownPath, opts)
		require.NoError(t, err)
		rec.Retrieved = rec.Retrieved.Add(-time.Hour) // pretend it is old
		before := n.Requests("agent.example")
		again, err := Refresh(t.Context(), rec, opts)
		require.NoError(t, err)
		assert.Equal(t, before+1, n.Requests("agent.example"))
		assert.True(t, again.NotModified)
		assert.Same(t, rec.Profile, again.Profile)
		assert.Equal(t, rec.ETag, again.ETag)
		assert.Equal(t, rec.SourceURL, again.SourceURL)
		assert.True(t, again.Retrieved.After(rec.Retrieved))
		assert.False(t, rec.NotModified, "the cached record is not modified in place")
	})
	t.Run("304 by Last-Modified", func(t *testing.T) {
		rec, err := Fetch(t.Context(), "https://lastmod.example/agent.json", opts)
		require.NoError(t, err)
		assert.Empty(t, rec.ETag)
		assert.Equal(t, "Mon, 02 Nov 2026 10:00:00 GMT", rec.LastModified)
		again, err := Refresh(t.Context(), rec, opts)
		require.NoError(t, err)
		assert.True(t, again.NotModified)
		assert.Equal(t, int32(2), lastModHits.Load())
	})
	t.Run("200 on change is read again; did change is a mismatch", func(t *testing.T) {
		version.Store(0)
		rec, err := Fetch(t.Context(), "https://changing.example/agent.json", opts)
		require.NoError(t, err)
		version.Store(1)
		again, err := Refresh(t.Context(), rec, opts)
		require.NoError(t, err)
		assert.False(t, again.NotModified)
		assert.Equal(t, "Renamed agent", again.Profile.Name)
		assert.NotEqual(t, rec.ETag, again.ETag)
		version.Store(2)
		_, err = Refresh(t.Context(), again, opts)
		var me *DIDMismatchError
		require.ErrorAs(t, err, &me)
		assert.Equal(t, "research.coinpay", me.Expected)
		assert.Equal(t, "someone.else", me.Got)
	})
	t.Run("empty record", func(t *testing.T) {
		_, err := Refresh(t.Context(), nil, opts)
		assert.Error(t, err)
		_, err = Refresh(t.Context(), &Record{}, opts)
		assert.Error(t, err)
	})
}
