package readiness

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCPReceiptMatchesMethodExample reproduces the mcp_transport receipt of
// readiness-method.md Section 05 (testdata/mcp_transport_receipt.json). The
// example's yourwebsite.com is the fake internet's shop.example. The server
// returns 2025-03-26 to the offered 2025-06-18. Its origin has OAuth metadata
// with S256 and dynamic registration, and the card states the access
// requirements. Seven tools are listed without a token, all with readOnlyHint.
func TestMCPReceiptMatchesMethodExample(t *testing.T) {
	site := &connectSite{card: oauthCard, docs: oauthDocs, mcp: newMCPServer(7, true, []string{"2025-03-26"}, 0)}
	r := scanMux(t, "shop.example", site, 5*time.Second)
	m := checkByID(r, "mcp_discovery").Receipt.MCP
	require.NotNil(t, m)
	got, err := json.Marshal(m)
	require.NoError(t, err)
	var gotMap map[string]any
	require.NoError(t, json.Unmarshal(got, &gotMap))
	assert.Contains(t, gotMap, "handshake", "the raw handshake travels with the receipt")
	delete(gotMap, "handshake")

	golden := filepath.Join("testdata", "mcp_transport_receipt.json")
	if *update {
		b, err := json.MarshalIndent(gotMap, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(golden, append(b, '\n'), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	var wantMap map[string]any
	require.NoError(t, json.Unmarshal(want, &wantMap))
	assert.Equal(t, wantMap, gotMap)
}

// TestMCPTransportFailureIsUnverified: a connection that breaks after
// initialize answered is a transport failure, unverified, never "a version
// the client does not support"; a pooled connection closed once is retried.
func TestMCPTransportFailureIsUnverified(t *testing.T) {
	breaker := func(times int) http.Handler {
		var mu sync.Mutex
		broken := 0
		next := newMCPServer(2, false, []string{"2025-06-18"}, 0)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if rpcMethod(r) == "notifications/initialized" {
				mu.Lock()
				brk := broken < times
				broken++
				mu.Unlock()
				if brk {
					panic(http.ErrAbortHandler) // the connection (or stream) is cut
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	t.Run("always broken: unverified", func(t *testing.T) {
		r := scanMux(t, "shop.example", &connectSite{card: openCard, mcp: breaker(100)}, 5*time.Second)
		c := checkByID(r, "mcp_discovery")
		assert.Equal(t, VerdictUnverified, c.Verdict, c.Receipt.Received)
		assert.NotContains(t, c.Receipt.Received, "does not support")
		assert.Contains(t, c.Receipt.Received, "notifications/initialized")
		assert.True(t, c.Receipt.MCP.Retried)
	})
	t.Run("broken once: retried, pass", func(t *testing.T) {
		r := scanMux(t, "shop.example", &connectSite{card: openCard, mcp: breaker(1)}, 5*time.Second)
		c := checkByID(r, "mcp_discovery")
		assert.Equal(t, VerdictPass, c.Verdict, c.Receipt.Received)
		assert.True(t, c.Receipt.MCP.Retried)
	})
}

// TestCatalogueMCPDiscoverySaysWhatTheProbeOffers: the catalogue's
// request text for mcp_discovery names, in order, every offer the probe
// actually makes to a server that negotiates down.
func TestCatalogueMCPDiscoverySaysWhatTheProbeOffers(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("offers.example", newMCPServer(1, true, []string{mcpprobe.Version20251125, mcpprobe.Version20250618}, 0))
	r, err := mcpprobe.Probe(t.Context(), "https://offers.example/mcp", &mcpprobe.Options{Client: n.Client()})
	require.NoError(t, err)
	require.Equal(t, mcpprobe.OutcomeListed, r.Outcome, r.Reason)
	require.GreaterOrEqual(t, len(r.Protocol.Offers), 2, "a first offer and a negotiation down")
	spec, ok := specOf("mcp_discovery")
	require.True(t, ok)
	at := 0
	for _, o := range r.Protocol.Offers {
		want := o.RPC + " offering " + o.Version
		i := strings.Index(spec.Request[at:], want)
		if assert.GreaterOrEqual(t, i, 0, "the catalogue says %q, not %q in order", spec.Request, want) {
			at += i + len(want)
		}
	}
}
