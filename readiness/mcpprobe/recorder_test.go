package mcpprobe

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A probe whose context is cancelled during the handshake ends every
// request it sent. That includes the one the MCP client sends from a
// context of its own. The endpoint sees each request's context end, at once.
func TestProbeCancelledEndsItsRequests(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	arrived := make(chan struct{}, 8)
	ended := make(chan struct{}, 8)
	n.Site("hang.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The body is read, so that the server notices the client's
		// closing of the connection (net/http's background read).
		_, _ = io.Copy(io.Discard, r.Body)
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
			ended <- struct{}{}
		case <-time.After(20 * time.Second):
		}
	}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = Probe(ctx, "https://hang.example/mcp", &Options{Client: n.Client()})
	}()
	<-arrived
	cancel()
	<-done
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the initialize POST was still open 5 s after the probe was cancelled")
	}
}

// TestProbesReuseTheClientsConnections: three probes with one Client reuse
// its one connection. That holds [recorder.awaitSettled]: without its wait,
// a request sent while the MCP client still reads the previous event stream
// finds the connection busy and dials another.
func TestProbesReuseTheClientsConnections(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", newServer(1, nil))
	opts := &Options{Client: n.Client()}
	exchanges := 0
	for range 3 {
		r, err := Probe(context.Background(), "https://shop.example/mcp", opts)
		require.NoError(t, err)
		require.Equal(t, OutcomeListed, r.Outcome, r.Reason)
		exchanges += len(r.Handshake)
	}
	// Fifteen exchanges over one HTTP/1 connection. A client of its own per
	// call would dial for every one.
	require.Equal(t, 15, exchanges)
	assert.Equal(t, 1, n.Dials(n.Addr("shop.example")), "the probes share the client's one connection")
}
