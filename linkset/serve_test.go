package linkset

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandler(t *testing.T) {
	doc, body, err := exampleBuilder().Build()
	require.NoError(t, err)
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:]) + `"`

	tests := []struct {
		name, method, inm string
		opts              *HandlerOptions
		status            int
		body              bool
		link              string
	}{
		{"GET", http.MethodGet, "", nil, http.StatusOK, true, ""},
		{"HEAD", http.MethodHead, "", nil, http.StatusOK, false, ""},
		{"conditional GET", http.MethodGet, etag, nil, http.StatusNotModified, false, ""},
		{"conditional GET, weak list", http.MethodGet, `"x", W/` + etag, nil, http.StatusNotModified, false, ""},
		{"stale ETag", http.MethodGet, `"0000"`, nil, http.StatusOK, true, ""},
		{"profile in a Link header too", http.MethodGet, "", &HandlerOptions{ProfileLink: true}, http.StatusOK, true, `<https://w3id.org/agentic-system-core/profile/agentic-knowledge>; rel="profile"`},
		{"POST", http.MethodPost, "", nil, http.StatusMethodNotAllowed, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Handler(doc, tc.opts)
			require.NoError(t, err)
			req := httptest.NewRequest(tc.method, "https://example.org"+WellKnownPath, nil)
			if tc.inm != "" {
				req.Header.Set("If-None-Match", tc.inm)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			assert.Equal(t, tc.status, res.StatusCode)
			if tc.status == http.StatusMethodNotAllowed {
				return
			}
			assert.Equal(t, etag, res.Header.Get("ETag"))
			assert.Equal(t, "no-cache", res.Header.Get("Cache-Control"))
			assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
			assert.Equal(t, "Link, ETag, Content-Type", res.Header.Get("Access-Control-Expose-Headers"))
			assert.Empty(t, res.Header.Values("Access-Control-Allow-Credentials"))
			assert.Equal(t, tc.link, res.Header.Get("Link"))
			if tc.status == http.StatusOK {
				assert.Equal(t, `application/linkset+json; profile="https://w3id.org/agentic-system-core/profile/agentic-knowledge"`, res.Header.Get("Content-Type"))
			}
			if tc.body {
				assert.Equal(t, body, rec.Body.Bytes())
			} else {
				assert.Empty(t, rec.Body.Bytes())
			}
		})
	}
}

// A Handler refuses a document that does not conform, as the other
// packages' handlers do.
func TestHandlerRefusesNonConformant(t *testing.T) {
	doc, _, err := exampleBuilder().Build()
	require.NoError(t, err)
	doc.Contexts[0].Anchor = "http://example.org/"
	h, err := Handler(doc, nil)
	assert.Nil(t, h)
	require.ErrorIs(t, err, ErrInvalid)
	assert.True(t, asValidationError(err).Has(RuleAnchorBundleIRI), "%v", err)
	_, err = Handler(nil, nil)
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestCORSAndAdvertise(t *testing.T) {
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Credentials", "true")
		w.Header().Set("Access-Control-Allow-Origin", "https://evil.example")
		_, _ = w.Write([]byte("artefact"))
	})
	h := Advertise(CORS(site))
	for _, path := range []string{"/", "/graph.nq"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://example.org"+path, nil))
		res := rec.Result()
		assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"), path)
		assert.Equal(t, "Link, ETag, Content-Type", res.Header.Get("Access-Control-Expose-Headers"), path)
		assert.Empty(t, res.Header.Values("Access-Control-Allow-Credentials"), path)
		if path == "/" {
			assert.Equal(t, `</.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json"`, res.Header.Get("Link"))
		} else {
			assert.Empty(t, res.Header.Get("Link"))
		}
	}
	assert.Equal(t, `<https://b.example/.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json"`, LinkHeader("https://b.example"+WellKnownPath))
	assert.Equal(t, `<link rel="describedby" href="/.well-known/knowledge-linkset" type="application/linkset+json">`, LinkElement)
}
