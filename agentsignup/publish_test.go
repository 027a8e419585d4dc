package agentsignup

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func seedInput() Document {
	return Document{
		Audience:        "example-rp",
		ProviderName:    "Example RP",
		IssuerAllowlist: []string{"https://agentregistrar.dev"},
		RequiredScopes:  []string{"tos:accept"},
		Terms: Terms{
			Version: "2026.1",
			URL:     "https://example.com/terms",
			Text:    "Example RP Terms of Service. The agent acts for a verified human owner, and the human owner is bound by these terms.",
		},
		Endpoints: Endpoints{AgentSignup: "https://example.com/api/signup/agent"},
	}
}

func TestNewDocument(t *testing.T) {
	t.Run("fills the hash", func(t *testing.T) {
		d, err := NewDocument(seedInput())
		require.NoError(t, err)
		assert.Equal(t, seedHash, d.Terms.SHA256)
		assert.Equal(t, Protocol, d.Protocol)
		assert.Empty(t, d.Warnings)
		seed, err := Parse(seedBytes(t))
		require.NoError(t, err)
		assert.JSONEq(t, string(seed.Bytes()), string(d.Bytes()), "same document as the seed example")
		assert.Equal(t, byte('\n'), d.Bytes()[len(d.Bytes())-1])
	})
	t.Run("replaces a stale hash", func(t *testing.T) {
		in := seedInput()
		in.Terms.SHA256 = TermsHash("last year's terms")
		d, err := NewDocument(in)
		require.NoError(t, err)
		assert.Equal(t, seedHash, d.Terms.SHA256)
	})
	t.Run("keeps extensions and characters", func(t *testing.T) {
		in := seedInput()
		in.Terms.Text = "Terms <b>&</b>\r\nline two\n"
		in.Extensions = map[string]json.RawMessage{"com.example": json.RawMessage(`{"team":"identity"}`)}
		d, err := NewDocument(in)
		require.NoError(t, err)
		assert.Equal(t, in.Terms.Text, d.Terms.Text)
		assert.Equal(t, TermsHash(in.Terms.Text), d.Terms.SHA256)
		assert.Contains(t, string(d.Bytes()), `<b>&</b>`, "no HTML escaping")
		assert.JSONEq(t, `{"team":"identity"}`, string(d.Extensions["com.example"]))
	})
	t.Run("nil lists", func(t *testing.T) {
		in := seedInput()
		in.RequiredScopes = nil
		d, err := NewDocument(in)
		require.NoError(t, err)
		assert.Equal(t, []string{}, d.RequiredScopes)
	})
	t.Run("refuses a defective document", func(t *testing.T) {
		in := seedInput()
		in.Endpoints.AgentSignup = "http://example.com/signup"
		in.Extensions = map[string]json.RawMessage{"com.example": json.RawMessage(`{"pricing":{}}`)}
		_, err := NewDocument(in)
		ve := problemsOf(t, err)
		require.Len(t, ve.Problems, 2)
		assert.Equal(t, RuleForbiddenField, ve.Problems[1].Rule)
		assert.Equal(t, RuleURLHTTPS, ve.Problems[0].Rule)
	})
}

func TestHandler(t *testing.T) {
	d, err := NewDocument(seedInput())
	require.NoError(t, err)
	h, err := Handler(d, &HandlerOptions{Header: http.Header{"Access-Control-Allow-Origin": {"*"}}})
	require.NoError(t, err)

	get := func(method string, hdr http.Header) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, WellKnownPath, nil)
		for k, v := range hdr {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	rec := get(http.MethodGet, nil)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	assert.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))
	assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
	etag := rec.Header().Get("ETag")
	assert.Regexp(t, `^"[0-9a-f]{64}"$`, etag)
	assert.Equal(t, d.Bytes(), rec.Body.Bytes())
	_, err = Parse(rec.Body.Bytes())
	assert.NoError(t, err)

	rec = get(http.MethodGet, http.Header{"If-None-Match": {etag}})
	assert.Equal(t, http.StatusNotModified, rec.Code)
	assert.Empty(t, rec.Body.Bytes())
	assert.Equal(t, etag, rec.Header().Get("ETag"))

	rec = get(http.MethodGet, http.Header{"If-None-Match": {`"other"`}})
	assert.Equal(t, http.StatusOK, rec.Code)

	rec = get(http.MethodHead, nil)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Empty(t, rec.Body.Bytes())

	rec = get(http.MethodPost, nil)
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
}

func TestHandlerRefuses(t *testing.T) {
	_, err := Handler(nil, nil)
	assert.Error(t, err)

	// A hand-built document with a stale hash is refused.
	in := seedInput()
	in.Protocol = Protocol
	in.Terms.SHA256 = TermsHash("old terms")
	_, err = Handler(&in, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), RuleTermsHash)

	// A hand-built document with the right hash is encoded and served.
	in.Terms.SHA256 = TermsHash(in.Terms.Text)
	h, err := Handler(&in, &HandlerOptions{CacheControl: "max-age=60"})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, WellKnownPath, nil))
	assert.Equal(t, "max-age=60", rec.Header().Get("Cache-Control"))
	got, err := Parse(rec.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, seedHash, got.Terms.SHA256)
}
