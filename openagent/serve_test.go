package openagent

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandler(t *testing.T) {
	p := exampleProfile(t)
	h, err := Handler(p, nil)
	require.NoError(t, err)
	body, err := p.Marshal()
	require.NoError(t, err)

	tests := []struct {
		name       string
		method     string
		header     http.Header
		status     int
		wantBody   bool
		wantHeader map[string]string
	}{
		{"get", http.MethodGet, nil, http.StatusOK, true, map[string]string{
			"Content-Type": "application/json", "ETag": etag(body), "Cache-Control": DefaultCacheControl}},
		{"head", http.MethodHead, nil, http.StatusOK, false, map[string]string{"ETag": etag(body)}},
		{"conditional match", http.MethodGet, http.Header{"If-None-Match": {etag(body)}}, http.StatusNotModified, false,
			map[string]string{"ETag": etag(body)}},
		{"conditional weak match in a list", http.MethodGet, http.Header{"If-None-Match": {`"x", W/` + etag(body)}}, http.StatusNotModified, false, nil},
		{"conditional mismatch", http.MethodGet, http.Header{"If-None-Match": {`"other"`}}, http.StatusOK, true, nil},
		{"post refused", http.MethodPost, nil, http.StatusMethodNotAllowed, false, map[string]string{"Allow": "GET, HEAD"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, WellKnownPath, nil)
			for k, v := range tc.header {
				req.Header[k] = v
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tc.status, rec.Code)
			for k, v := range tc.wantHeader {
				assert.Equal(t, v, rec.Header().Get(k), k)
			}
			if tc.wantBody {
				assert.Equal(t, body, rec.Body.Bytes())
				back, err := Parse(rec.Body.Bytes())
				require.NoError(t, err)
				assert.Equal(t, p, back)
			} else if tc.status != http.StatusMethodNotAllowed {
				assert.Empty(t, rec.Body.Bytes())
			}
		})
	}
}

func TestHandlerOptions(t *testing.T) {
	p := exampleProfile(t)
	h, err := Handler(p, &HandlerOptions{CacheControl: "no-cache", Header: http.Header{"Access-Control-Allow-Origin": {"*"}}})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/agents/research.json", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))
	assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
}

func TestHandlerRefuses(t *testing.T) {
	t.Run("invalid profile", func(t *testing.T) {
		p := exampleProfile(t)
		p.DID = "did:key:z6Mk"
		_, err := Handler(p, nil)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve)
		assert.True(t, ve.Has(RuleDIDSyntax))
	})
	t.Run("secret in a public file", func(t *testing.T) {
		p := exampleProfile(t)
		p.Description = "uses ghp_" + strings.Repeat("x1", 20)
		_, err := Handler(p, nil)
		assert.ErrorIs(t, err, ErrNotPublishable)
		var pe *ValidationError
		require.True(t, errors.As(err, &pe))
		require.Len(t, pe.Problems, 1)
		assert.Equal(t, RuleAccessToken, pe.Problems[0].Rule)
		assert.NotContains(t, err.Error(), "ghp_")

		_, err = Handler(p, &HandlerOptions{Allow: []string{RuleWorkspacePath}})
		assert.ErrorIs(t, err, ErrNotPublishable, "allowing another rule does not allow this one")
		h, err := Handler(p, &HandlerOptions{Allow: []string{RuleAccessToken}})
		require.NoError(t, err, "the named finding is allowed")
		assert.NotNil(t, h)

		h, err = Handler(p, &HandlerOptions{InsecureSkipPublicCheck: true})
		require.NoError(t, err)
		assert.NotNil(t, h)
	})
	t.Run("public false is served (a warning, not a refusal)", func(t *testing.T) {
		p := exampleProfile(t)
		f := false
		p.Public = &f
		h, err := Handler(p, nil)
		require.NoError(t, err)
		assert.NotNil(t, h)
	})
}

func TestLinkElement(t *testing.T) {
	tests := []struct{ href, want string }{
		{"https://example.com/agents/research.json",
			`<link rel="openagent" type="application/json" href="https://example.com/agents/research.json">`},
		{`/agents/a.json?x=1&y="2"`,
			`<link rel="openagent" type="application/json" href="/agents/a.json?x=1&amp;y=&#34;2&#34;">`},
	}
	for _, tc := range tests {
		t.Run(tc.href, func(t *testing.T) {
			assert.Equal(t, tc.want, LinkElement(tc.href))
		})
	}
}

func TestLinkHeader(t *testing.T) {
	v := LinkHeader("https://example.com/agents/research.json")
	assert.Equal(t, `<https://example.com/agents/research.json>; rel="openagent"; type="application/json"`, v)
	base, err := url.Parse("https://example.com/page")
	require.NoError(t, err)
	links, err := linkheader.Parse([]string{LinkHeader("agents/r.json")}, base)
	require.NoError(t, err)
	require.Len(t, links, 1)
	assert.Equal(t, "https://example.com/agents/r.json", links[0].Target)
	assert.True(t, links[0].HasRel(LinkRel))
	assert.Equal(t, MediaType, links[0].Type)
}

// etag is the entity tag Handler sends: a double-quoted lower-case
// hexadecimal SHA-256 of the body.
func etag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}
