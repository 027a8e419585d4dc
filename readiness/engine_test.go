package readiness

import (
	"context"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/testhook"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanDefaultClientReusesConnections scans twice with a nil
// Options.Client: both scans go through safefetch.Default (swapped here for
// one on the fake internet), and the second dials no new connection to the
// site. It uses the default client, so it must not run in parallel.
func TestScanDefaultClientReusesConnections(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	ts := &testSite{host: "shop.example"}
	n.Site(ts.host, ts)
	n.Site("www."+ts.host, ts)
	restore := testhook.SetDefaultClient(n.Client())
	defer restore()

	opts := &Options{Budget: safefetch.BudgetLimits{Concurrency: 1}, Now: func() time.Time { return at }}
	first, err := Scan(context.Background(), ts.base()+"/", opts)
	require.NoError(t, err)
	require.Len(t, first.Checks, len(catalogueTable))
	assert.Empty(t, first.Scope.Budget.Exhausted)
	addr := n.Addr(ts.host)
	dials, requests := n.Dials(addr), n.Requests(ts.host)
	require.Positive(t, requests)
	assert.Equal(t, 1, dials, "one request at a time: one connection for the whole scan")

	second, err := Scan(context.Background(), ts.base()+"/", opts)
	require.NoError(t, err)
	assert.Equal(t, 2*requests, n.Requests(ts.host), "the second scan made the same requests")
	assert.Equal(t, dials, n.Dials(addr), "the second scan reused the first one's connection")
	assert.Equal(t, first.Score, second.Score)
}
