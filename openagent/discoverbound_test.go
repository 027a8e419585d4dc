package openagent

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiscoverKeepsAtMost64Descriptors holds Discover's doc: at most 64
// descriptors are kept from one page, and the rest are reported as skipped.
func TestDiscoverKeepsAtMost64Descriptors(t *testing.T) {
	n := newNet(t)
	var head strings.Builder
	for i := range maxDescriptors + 6 {
		fmt.Fprintf(&head, `<link rel="openagent" type="application/json" href="/a/%d.json">`, i)
	}
	mux := http.NewServeMux()
	mux.Handle("/{$}", htmlPage(head.String()))
	n.Site("many.example", mux)
	d, err := Discover(t.Context(), "https://many.example/", &FetchOptions{Client: n.Client()})
	require.NoError(t, err)
	require.Len(t, d.Descriptors, maxDescriptors)
	assert.Equal(t, "https://many.example/a/63.json", d.Descriptors[maxDescriptors-1].URL, "the first ones, in document order")
	require.Len(t, d.Skipped, 6)
	for _, s := range d.Skipped {
		assert.Contains(t, s.Reason, "more than 64 descriptors")
	}
	assert.Equal(t, 2, n.Requests("many.example"), "the page and the well-known URL; descriptors are not fetched")
}
