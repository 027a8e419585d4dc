package agentsjson

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandler(t *testing.T) {
	c, err := Parse(readTestdata(t, "method-shop.json"))
	require.NoError(t, err)
	h, err := Handler(c)
	require.NoError(t, err)
	want, err := c.Marshal()
	require.NoError(t, err)

	get := func(path string, hdr http.Header) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		for k, v := range hdr {
			r.Header[k] = v
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	wk, root := get(WellKnownPath, nil), get(RootPath, nil)
	for _, w := range []*httptest.ResponseRecorder{wk, root} {
		assert.Equal(t, http.StatusOK, w.Code)
		assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
		assert.Equal(t, "*", w.Header().Get("Access-Control-Allow-Origin"))
		assert.NotEmpty(t, w.Header().Get("ETag"))
		assert.True(t, bytes.Equal(want, w.Body.Bytes()))
	}
	assert.Equal(t, wk.Header().Get("ETag"), root.Header().Get("ETag"))

	nm := get(RootPath, http.Header{"If-None-Match": {wk.Header().Get("ETag")}})
	assert.Equal(t, http.StatusNotModified, nm.Code)
	assert.Zero(t, nm.Body.Len())
	assert.Equal(t, "*", nm.Header().Get("Access-Control-Allow-Origin"))

	assert.Equal(t, http.StatusOK, get(RootPath, http.Header{"If-None-Match": {`"other"`}}).Code)
	assert.Equal(t, http.StatusNotFound, get("/agents.json/x", nil).Code)

	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, RootPath, nil))
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)
}

func TestHandlerNil(t *testing.T) {
	_, err := Handler(nil)
	assert.True(t, errors.Is(err, ErrInvalid))
}
