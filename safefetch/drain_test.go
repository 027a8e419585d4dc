package safefetch_test

import (
	"bufio"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// An event stream read through HTTPClient and closed after its first event
// (as an MCP client does once it has its response) keeps its HTTP/1
// connection when the rest of the stream ends within the drain bound (4 KiB,
// 50 ms), and the drained bytes are charged; a stream that goes on costs
// its connection, and Close returns within the bound. On the base commit
// every such close cost the connection.
func TestHTTPClientEarlyCloseDrainsWithinABound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		tail      int  // bytes sent after the first event, then the end
		endless   bool // no end at all
		wantDials int
	}{
		{name: "the stream ends just after", tail: 100, wantDials: 1},
		{name: "the rest is over the byte bound", tail: 64 << 10, wantDials: 2},
		{name: "the stream never ends", endless: true, wantDials: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNetwork(t)
			n.Site("sse.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/next" {
					_, _ = w.Write([]byte("ok"))
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte("event: message\ndata: {}\n\n"))
				w.(http.Flusher).Flush()
				if tc.endless {
					<-r.Context().Done()
					return
				}
				_, _ = w.Write(make([]byte, tc.tail))
			}))
			b := safefetch.NewBudget(safefetch.BudgetLimits{})
			hc := n.Client().WithBudget(b).HTTPClient()
			resp, err := hc.Get("https://sse.example/stream")
			require.NoError(t, err)
			require.Equal(t, 1, resp.ProtoMajor)
			line, err := bufio.NewReaderSize(resp.Body, 16).ReadString('\n')
			require.NoError(t, err)
			assert.Equal(t, "event: message\n", line)
			time.Sleep(10 * time.Millisecond) // the server has sent what it sends
			start := time.Now()
			require.NoError(t, resp.Body.Close())
			assert.Less(t, time.Since(start), time.Second, "Close is bounded")
			if tc.tail > 0 && tc.tail <= 4<<10 {
				assert.Equal(t, int64(len("event: message\ndata: {}\n\n")+tc.tail), b.Usage().Bytes, "the drained bytes are charged")
			}
			next, err := hc.Get("https://sse.example/next")
			require.NoError(t, err)
			require.NoError(t, next.Body.Close())
			assert.Equal(t, tc.wantDials, n.Dials(n.Addr("sse.example")))
		})
	}
}
