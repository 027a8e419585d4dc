package openagent

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
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
		assert.Equal(t, "https://agent.example/.well-known/openagent.json", rec.URL)
		assert.Equal(t, rec.URL, rec.FinalURL)
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
		assert.Equal(t, "https://agent.example/old.json", rec.URL)
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
			var ce *safefetch.ContentTypeError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, "text/html; charset=utf-8", ce.Got)
			assert.ErrorIs(t, err, safefetch.ErrContentType)
		}},
		{"not found", "/missing.json", opts, func(t *testing.T, err error) {
			var se *safefetch.StatusError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, http.StatusNotFound, se.StatusCode)
			assert.ErrorIs(t, err, safefetch.ErrStatus)
			assert.ErrorIs(t, err, safefetch.ErrNotFound)
		}},
		{"invalid profile", "/invalid.json", opts, func(t *testing.T, err error) {
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "https://agent.example/invalid.json", ve.Source)
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
			require.Error(t, err)
			if errors.Is(err, ErrInvalid) {
				// An invalid profile comes with what was read, as in every
				// spec package: the provenance and the bytes, no Profile.
				require.NotNil(t, rec)
				assert.Nil(t, rec.Profile)
				assert.NotEmpty(t, rec.Body)
				assert.Equal(t, 200, rec.StatusCode)
			} else {
				assert.Nil(t, rec)
			}
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
	// nil options mean safefetch.Default(): loopback and private addresses
	// are refused before any connection.
	for _, u := range []string{"https://127.0.0.1/.well-known/openagent.json", "https://10.0.0.1/a.json"} {
		_, err := Fetch(t.Context(), u, nil)
		require.Error(t, err)
		assert.True(t, errors.Is(err, safefetch.ErrForbiddenAddress) || errors.Is(err, safefetch.ErrForbiddenURL), err.Error())
	}
	_, err := Fetch(t.Context(), "http://agent.example/a.json", &FetchOptions{})
	assert.ErrorIs(t, err, safefetch.ErrForbiddenURL)
}

func TestFetchPrevious(t *testing.T) {
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

	t.Run("304 by ETag keeps the cached profile and sets NotModified", func(t *testing.T) {
		rec, err := Fetch(t.Context(), "https://agent.example"+WellKnownPath, opts)
		require.NoError(t, err)
		require.NotEmpty(t, rec.ETag)
		before := n.Requests("agent.example")
		later := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		again, err := Fetch(t.Context(), rec.URL, &FetchOptions{Client: n.Client(), Previous: &rec.Provenance, Now: func() time.Time { return later }})
		require.NoError(t, err)
		assert.Equal(t, before+1, n.Requests("agent.example"))
		assert.True(t, again.NotModified)
		assert.Equal(t, http.StatusNotModified, again.StatusCode)
		assert.Nil(t, again.Profile, "the caller keeps its cached profile")
		assert.Nil(t, again.Body)
		assert.Equal(t, rec.ETag, again.ETag)
		assert.Equal(t, rec.URL, again.URL)
		assert.Equal(t, later, again.Retrieved, "FetchOptions.Now is the retrieval clock")
		assert.False(t, rec.NotModified, "the cached record is not modified in place")
	})
	t.Run("304 by Last-Modified", func(t *testing.T) {
		rec, err := Fetch(t.Context(), "https://lastmod.example/agent.json", opts)
		require.NoError(t, err)
		assert.Empty(t, rec.ETag)
		assert.Equal(t, "Mon, 02 Nov 2026 10:00:00 GMT", rec.LastModified)
		again, err := Fetch(t.Context(), rec.URL, &FetchOptions{Client: n.Client(), Previous: &rec.Provenance})
		require.NoError(t, err)
		assert.True(t, again.NotModified)
		assert.Equal(t, rec.LastModified, again.LastModified)
		assert.Equal(t, int32(2), lastModHits.Load())
	})
	t.Run("200 on change is read again; did change is a mismatch", func(t *testing.T) {
		version.Store(0)
		rec, err := Fetch(t.Context(), "https://changing.example/agent.json", opts)
		require.NoError(t, err)
		version.Store(1)
		again, err := Fetch(t.Context(), rec.URL, &FetchOptions{Client: n.Client(), Previous: &rec.Provenance, ExpectDID: rec.Profile.DID})
		require.NoError(t, err)
		assert.False(t, again.NotModified)
		assert.Equal(t, "Renamed agent", again.Profile.Name)
		assert.NotEqual(t, rec.ETag, again.ETag)
		version.Store(2)
		_, err = Fetch(t.Context(), again.URL, &FetchOptions{Client: n.Client(), Previous: &again.Provenance, ExpectDID: again.Profile.DID})
		var me *DIDMismatchError
		require.ErrorAs(t, err, &me)
		assert.Equal(t, "research.coinpay", me.Expected)
		assert.Equal(t, "someone.else", me.Got)
	})
	t.Run("a Provenance kept elsewhere makes the request conditional", func(t *testing.T) {
		rec, err := Fetch(t.Context(), "https://lastmod.example/agent.json", &FetchOptions{Client: n.Client(),
			Previous: &safefetch.Provenance{LastModified: "Mon, 02 Nov 2026 10:00:00 GMT"}})
		require.NoError(t, err)
		assert.True(t, rec.NotModified)
	})
}

// TestFetchNilClientIsDefault: nil options or a nil Client mean
// safefetch.Default(), whose connection reuse safefetch tests; a Client
// given is used as is.
func TestFetchNilClientIsDefault(t *testing.T) {
	assert.Same(t, safefetch.Default(), (*FetchOptions)(nil).client())
	assert.Same(t, safefetch.Default(), (&FetchOptions{}).client())
	own := safefetch.New(nil)
	assert.Same(t, own, (&FetchOptions{Client: own}).client())
}

// TestFetchesReuseTheClientsConnections: three fetches with one Client dial
// once.
func TestFetchesReuseTheClientsConnections(t *testing.T) {
	n := newNet(t)
	wk, err := Handler(exampleProfile(t), nil)
	require.NoError(t, err)
	n.Site("reuse.example", wk)
	c := n.Client()
	for _, opts := range []*FetchOptions{{Client: c}, {Client: c}, {Client: c, ExpectDID: "research.coinpay"}} {
		_, err := Fetch(t.Context(), "https://reuse.example"+WellKnownPath, opts)
		require.NoError(t, err)
	}
	assert.Equal(t, 3, n.Requests("reuse.example"))
	assert.Equal(t, 1, n.Dials(n.Addr("reuse.example")))
}
