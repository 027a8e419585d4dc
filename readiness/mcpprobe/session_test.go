package mcpprobe

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

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
