package linkset

import (
	"testing"

	"github.com/agentweb/agentweb/internal/testhook"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Three retrievals through the nil-Client path (Fetch, a conditional Fetch
// and a Walk) share safefetch.Default's connections: one dial. The test
// swaps the default client for the fake internet's; it must not run in
// parallel with other tests that use the default client.
func TestNilClientReusesConnections(t *testing.T) {
	n := newNetwork(t)
	d, _, err := (&Builder{BundleIRI: "https://reuse.example/", Reduced: true, Artefacts: []Artefact{
		{Relation: "describedby", Href: "https://reuse.example/graph.jsonld", Type: "application/ld+json"},
	}}).Build()
	require.NoError(t, err)
	h, err := Handler(d, nil)
	require.NoError(t, err)
	n.Site("reuse.example", h)
	restore := testhook.SetDefaultClient(n.Client())
	defer restore()

	u := "https://reuse.example" + WellKnownPath
	f, err := Fetch(t.Context(), u, nil)
	require.NoError(t, err)
	require.True(t, f.Report.Conformant(), "%v", f.Report.Problems)
	again, err := Fetch(t.Context(), u, &FetchOptions{Previous: &f.Provenance})
	require.NoError(t, err)
	assert.True(t, again.NotModified)
	res, err := Walk(t.Context(), u, nil)
	require.NoError(t, err)
	require.Len(t, res.Nodes, 1)
	assert.Equal(t, NodeVisited, res.Nodes[0].State)

	assert.Equal(t, 3, n.Requests("reuse.example"))
	assert.Equal(t, 1, n.Dials(n.Addr("reuse.example")))
}
