package mcpprobe

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

// TestProbeReceiptWhileStreamDrains: a server goes on writing to an SSE
// response after the answer the client wanted. The MCP client drains such a
// stream in a goroutine of its own. It may still be reading when the probe
// writes its receipt. So the receipt is built from a copy taken under the
// recorder's lock, and (under -race) nothing is read while being written.
func TestProbeReceiptWhileStreamDrains(t *testing.T) {
	s := &site{mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusOK)
			return
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(b, &req)
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"drip","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"search","inputSchema":{"type":"object"}}]}`
		default:
			if len(req.ID) == 0 { // a notification
				w.WriteHeader(http.StatusAccepted)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Mcp-Session-Id", "s1")
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", req.ID, result)
		w.(http.Flusher).Flush()
		// Comments after the answer, while the probe is finishing.
		for range 20 {
			time.Sleep(5 * time.Millisecond)
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})}
	for range 10 {
		r := probe(t, s, nil)
		assert.Equal(t, OutcomeListed, r.Outcome, r.Reason)
		assert.Equal(t, 1, r.Tools.ListedWithoutToken)
	}
}

// TestProbeRequestBoundCapsTheListing: a listing stopped by the session's
// bound of maxExchanges requests, with more pages announced, is reported
// capped, as one stopped by MaxToolPages is. It is never read as complete.
func TestProbeRequestBoundCapsTheListing(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: 1})
	for i := range 40 {
		srv.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%02d", i), InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				panic("the probe never calls a tool")
			})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true})
	r := probe(t, &site{mcp: h}, &Options{MaxToolPages: 40})
	assert.Equal(t, OutcomeListed, r.Outcome, r.Reason)
	assert.Len(t, r.Handshake, maxExchanges)
	assert.Less(t, r.Tools.Pages, 40)
	assert.Equal(t, r.Tools.Pages, r.Tools.ListedWithoutToken)
	assert.True(t, r.Tools.PagesCapped, "the request bound stopped a listing that announced more")
	assert.Contains(t, r.Reason, "more tools may exist")
}
