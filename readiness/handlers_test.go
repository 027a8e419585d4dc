package readiness

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func text(mt, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mt)
		fmt.Fprint(w, body)
	}
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
}

func gzipped(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// signalsPage is a small page that sends content signals in its headers.
const signalsPage = "<!doctype html><html lang=en><head><title>Example Shop</title></head><body><h1>Example Shop</h1><p>Outdoor gear.</p></body></html>"

// withHeaders adds response header fields (name, value, ...) to h.
func withHeaders(h http.HandlerFunc, kv ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(kv); i += 2 {
			w.Header().Add(kv[i], kv[i+1])
		}
		h(w, r)
	}
}

// endless writes its chunk until the client goes away (or 10 s pass).
func endless(mt, chunk string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mt)
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return
			}
		}
	}
}
