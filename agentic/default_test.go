package agentic

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A nil Client means safefetch.Default(), whose connection reuse safefetch
// tests; a Client given is used as is.
func TestNilClientIsDefault(t *testing.T) {
	assert.Same(t, safefetch.Default(), runClient(nil))
	own := safefetch.New(nil)
	assert.Same(t, own, runClient(own))
}

// Three audits with one Client, each charged to a budget of its own, reuse
// one connection.
func TestRunsReuseTheClientsConnections(t *testing.T) {
	n := serveShopJSON(t, "shop.example")
	c := n.Client()
	for i := range 3 {
		rep, err := Audit(t.Context(), "https://shop.example/agentic.json", &AuditOptions{Client: c, SkipText: true, MaxDocuments: -1})
		require.NoError(t, err)
		assert.True(t, rep.Valid, "audit %d", i)
		assert.Equal(t, 1, rep.Budget.Attempts, "audit %d has a budget of its own", i)
	}
	assert.Equal(t, 3, n.Requests("shop.example"))
	assert.Equal(t, 1, n.Dials(n.Addr("shop.example")))
}

// A conditional audit: the profile is asked for with the previous
// validators, and a 304 ends the audit with NotModified.
func TestAuditPrevious(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	site, err := ParseSite(readFile(t, "testdata/valid/shop.json"))
	require.NoError(t, err)
	h, err := Handler(site, nil)
	require.NoError(t, err)
	n.Site("shop.example", h)
	opts := &AuditOptions{Client: n.Client()}
	first, err := Audit(context.Background(), "https://shop.example/agentic.json", opts)
	require.NoError(t, err)
	require.True(t, first.Structure, "%+v", first.Checks)
	require.NotEmpty(t, first.Provenance.ETag)
	assert.False(t, first.Provenance.NotModified)

	opts.Previous = &first.Provenance
	again, err := Audit(context.Background(), "https://shop.example/agentic.json", opts)
	require.NoError(t, err)
	assert.True(t, again.Provenance.NotModified)
	assert.Equal(t, 304, again.Provenance.StatusCode)
	assert.Equal(t, first.Provenance.ETag, again.Provenance.ETag)
	assert.Nil(t, again.Profile, "the caller keeps the profile it audited")
}
