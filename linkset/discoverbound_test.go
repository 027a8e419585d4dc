package linkset

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiscoverFetchesAtMostThreeAdvertised holds Discover's bound: of the
// candidates a page advertises, at most three are fetched, in document
// order, and the well-known URI besides them.
func TestDiscoverFetchesAtMostThreeAdvertised(t *testing.T) {
	n := newNetwork(t)
	var page strings.Builder
	for i := range 5 {
		host := fmt.Sprintf("c%d.example", i)
		n.Site(host, http.NotFoundHandler())
		fmt.Fprintf(&page, `<link rel="describedby" href="https://%s/kl.json" type="application/linkset+json">`, host)
	}
	mux := http.NewServeMux()
	mux.Handle("/{$}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html><head>" + page.String() + "</head></html>"))
	}))
	n.Site("example.org", mux)
	_, err := Discover(t.Context(), "https://example.org/", &FetchOptions{Client: n.Client()})
	require.ErrorIs(t, err, ErrNotDiscovered)
	for i := range 5 {
		want := 0
		if i < maxCandidates {
			want = 1
		}
		assert.Equal(t, want, n.Requests(fmt.Sprintf("c%d.example", i)), "candidate %d", i)
	}
	assert.Equal(t, 2, n.Requests("example.org"), "the page and the well-known URI")
}
