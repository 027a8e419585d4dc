package safefetch_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// The caps hold over HTTP/2 too (real sites negotiate it; fetchtest serves
// HTTP/1.1). A loopback HTTP/2 server in development mode stands in.
func TestHTTP2Bounds(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("h2")) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(bytes.Repeat([]byte("b"), mib+1)) })
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("e"), 32<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("h", 70<<10))
	})
	mux.HandleFunc("/many-headers", func(w http.ResponseWriter, r *http.Request) {
		for i := range 2000 {
			w.Header().Set("X-Many-"+strconv.Itoa(i), strings.Repeat("m", 40))
		}
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write([]byte{0x1f, 0x8b})
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	c := safefetch.New(&safefetch.Options{AllowLoopback: true, RootCAs: roots})

	resp, err := c.Get(t.Context(), srv.URL+"/ok", nil)
	require.NoError(t, err)
	assert.Equal(t, "HTTP/2.0", resp.Proto)
	assert.Equal(t, "h2", string(resp.Body))

	for path, want := range map[string]error{
		"/big":     safefetch.ErrTooLarge,
		"/endless": safefetch.ErrTooLarge,
		"/headers": safefetch.ErrTooLarge,
		"/gzip":    safefetch.ErrContentEncoding,
	} {
		t.Run(path, func(t *testing.T) {
			_, err := c.Get(t.Context(), srv.URL+path, nil)
			require.ErrorIs(t, err, want)
		})
	}
	// Many small header fields over the cap: net/http's HTTP/2 server
	// refuses to send them, and the client is told only of a protocol
	// error on the stream; hand-framed, past the client's limit, see
	// TestHTTP2HostileHeadersAndResets.
	_, err = c.Get(t.Context(), srv.URL+"/many-headers", nil)
	require.Error(t, err)

	resp, err = c.Get(t.Context(), srv.URL+"/ok", nil)
	require.NoError(t, err, "the client recovers from the refusals")
	assert.Equal(t, "h2", string(resp.Body))
}
