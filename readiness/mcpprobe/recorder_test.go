package mcpprobe

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
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
