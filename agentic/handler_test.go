package agentic

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func serveOnce(h http.Handler, method, path string, hdr http.Header) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "https://service.example"+path, nil)
	for k, v := range hdr {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHandler(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/agentic-site-example.json"))
	require.NoError(t, err)
	h, err := Handler(s, nil)
	require.NoError(t, err)

	j := serveOnce(h, http.MethodGet, "/agentic.json", nil)
	assert.Equal(t, http.StatusOK, j.Code)
	assert.Equal(t, jsonMediaType, j.Header().Get("Content-Type"))
	assert.NotEmpty(t, j.Header().Get("ETag"))
	assert.Equal(t, "public, max-age=300", j.Header().Get("Cache-Control"))
	got, err := ParseSite(j.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, s, got)

	x := serveOnce(h, http.MethodGet, "/agentic.txt", nil)
	assert.Equal(t, http.StatusOK, x.Code)
	assert.Equal(t, textMediaType, x.Header().Get("Content-Type"))
	assert.Equal(t, string(readFile(t, "testdata/agentic-site-example.txt")), x.Body.String())
	assert.Equal(t, TextStatusMatched, CheckText(got, "", x.Body.Bytes()))

	nm := serveOnce(h, http.MethodGet, "/agentic.txt", http.Header{"If-None-Match": {x.Header().Get("ETag")}})
	assert.Equal(t, http.StatusNotModified, nm.Code)
	assert.Empty(t, nm.Body.String())
	assert.Equal(t, http.StatusMethodNotAllowed, serveOnce(h, http.MethodPost, "/agentic.json", nil).Code)
	assert.Equal(t, http.StatusNotFound, serveOnce(h, http.MethodGet, "/other", nil).Code)
	head := serveOnce(h, http.MethodHead, "/agentic.json", nil)
	assert.Equal(t, http.StatusOK, head.Code)
	assert.Empty(t, head.Body.String())
}

func TestHandlerNestedAndPublication(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/golden/several-apis.json"))
	require.NoError(t, err)
	pu := "https://api.multi.example/v1/agentic.json"
	h, err := Handler(s, &HandlerOptions{ProfileURL: pu, TextVersion: "1.2", CacheControl: "no-cache", Header: http.Header{"access-control-allow-origin": {"*"}}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, serveOnce(h, http.MethodGet, "/agentic.json", nil).Code)
	x := serveOnce(h, http.MethodGet, "/v1/agentic.txt", nil)
	require.Equal(t, http.StatusOK, x.Code)
	assert.Equal(t, "*", x.Header().Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "no-cache", x.Header().Get("Cache-Control"))
	c := s.CompareText(pu, x.Body.Bytes())
	assert.Equal(t, TextCheck{Status: TextStatusMatched, Version: "1.2"}, c)

	_, err = Handler(s, &HandlerOptions{TextVersion: "9"})
	assert.Error(t, err)
	_, err = Handler(s, &HandlerOptions{ProfileURL: "https://other.example/agentic.json"})
	assert.ErrorIs(t, err, ErrProfileURL)
	_, err = Handler(&Site{}, nil)
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestActionHandler(t *testing.T) {
	p, err := ParseActionProfile(readFile(t, "testdata/action/tickets.json"))
	require.NoError(t, err)
	h, err := ActionHandler(p, nil)
	require.NoError(t, err)
	assert.Equal(t, string(p.Bytes()), serveOnce(h, http.MethodGet, "/agentic.json", nil).Body.String())
	assert.Equal(t, string(readFile(t, "testdata/action/tickets.txt")), serveOnce(h, http.MethodGet, "/agentic.txt", nil).Body.String())
}

func TestTextURL(t *testing.T) {
	assert.Equal(t, "https://a.example/agentic.txt", textURL("https://a.example/agentic.json"))
	assert.Equal(t, "https://a.example/v1/agentic.txt", textURL("https://a.example/v1/agentic.json"))
}
