package linkset

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFetchOptionsNow: FetchOptions.Now is the clock of the retrieval time,
// in Fetch and in Discover; nil leaves the time the response arrived.
func TestFetchOptionsNow(t *testing.T) {
	n := newNetwork(t)
	d := parseVector(t, vectorFull)
	serveDoc(t, n, d)
	base := d.Bundle().Anchor
	fixed := time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return fixed }

	f, err := Fetch(t.Context(), base+".well-known/knowledge-linkset", &FetchOptions{Client: n.Client(), Now: clock})
	require.NoError(t, err)
	assert.Equal(t, fixed, f.Retrieved)

	before := time.Now()
	f, err = Fetch(t.Context(), base+".well-known/knowledge-linkset", &FetchOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.False(t, f.Retrieved.Before(before), "nil Now: the time the response arrived")

	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<`+base+`.well-known/knowledge-linkset>; rel=describedby; type=application/linkset+json`)
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>p</title>"))
	})
	n.Site("page.example", page)
	f, err = Discover(t.Context(), "https://page.example/", &FetchOptions{Client: n.Client(), Now: clock})
	require.NoError(t, err)
	assert.Equal(t, fixed, f.Retrieved)
}
