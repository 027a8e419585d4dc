package linkset

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// A nil Client means safefetch.Default(), whose connection reuse safefetch
// tests; a Client given is used as is.
func TestNilClientIsDefault(t *testing.T) {
	for _, c := range []*safefetch.Client{(&FetchOptions{}).client(), (&WalkOptions{}).client()} {
		assert.Same(t, safefetch.Default(), c)
	}
	own := safefetch.New(nil)
	assert.Same(t, own, (&FetchOptions{Client: own}).client())
	assert.Same(t, own, (&WalkOptions{Client: own}).client())
}

// Three retrievals with one Client (Fetch, a conditional Fetch and a Walk)
// share its connections: one dial.
func TestRetrievalsReuseTheClientsConnections(t *testing.T) {
	n := newNetwork(t)
	d, _, err := (&Builder{BundleIRI: "https://reuse.example/", Reduced: true, Artefacts: []Artefact{
		{Relation: "describedby", Href: "https://reuse.example/graph.jsonld", Type: "application/ld+json"},
	}}).Build()
	require.NoError(t, err)
	h, err := Handler(d, nil)
	require.NoError(t, err)
	n.Site("reuse.example", h)
	c := n.Client()

	u := "https://reuse.example" + WellKnownPath
	f, err := Fetch(t.Context(), u, &FetchOptions{Client: c})
	require.NoError(t, err)
	require.True(t, f.Report.Conformant(), "%v", f.Report.Problems)
	again, err := Fetch(t.Context(), u, &FetchOptions{Client: c, Previous: &f.Provenance})
	require.NoError(t, err)
	assert.True(t, again.NotModified)
	res, err := Walk(t.Context(), u, &WalkOptions{Client: c})
	require.NoError(t, err)
	require.Len(t, res.Nodes, 1)
	assert.Equal(t, NodeVisited, res.Nodes[0].State)

	assert.Equal(t, 3, n.Requests("reuse.example"))
	assert.Equal(t, 1, n.Dials(n.Addr("reuse.example")))
}
