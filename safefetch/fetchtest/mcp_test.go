package fetchtest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// mcpHandler is a one-tool MCP server behind the go-sdk's streamable HTTP
// handler, built with opts.
func mcpHandler(opts *mcp.StreamableHTTPOptions) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	type in struct {
		Name string `json:"name"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "greet", Description: "Greets."}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + a.Name}}}, nil, nil
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
}

// TestMCPLocalhostProtection shows why the go-sdk's DNS-rebinding guard must
// be disabled behind a Network: sites are served from loopback with their
// own Host header, which the guard refuses with 403.
func TestMCPLocalhostProtection(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("guarded.example", mcpHandler(nil))
	n.Site("mcp.example", mcpHandler(&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}))
	client := n.Client()

	initialize := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	for host, want := range map[string]int{"guarded.example": http.StatusForbidden, "mcp.example": http.StatusOK} {
		t.Run(host, func(t *testing.T) {
			resp, err := client.Do(t.Context(), &safefetch.Request{Method: http.MethodPost, URL: "https://" + host + "/", Header: header, Body: initialize})
			require.NoError(t, err)
			assert.Equal(t, want, resp.StatusCode, "%s", resp.Body)
		})
	}

	t.Run("go-sdk client", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
		tr := func(host string) *mcp.StreamableClientTransport {
			return &mcp.StreamableClientTransport{Endpoint: "https://" + host + "/", HTTPClient: client.HTTPClient(), MaxRetries: -1, DisableStandaloneSSE: true}
		}
		_, err := c.Connect(ctx, tr("guarded.example"), nil)
		require.Error(t, err, "the guard refuses the loopback request with a public Host")
		assert.ErrorContains(t, err, "Forbidden")

		cs, err := c.Connect(ctx, tr("mcp.example"), nil)
		require.NoError(t, err)
		defer cs.Close()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "agent"}})
		require.NoError(t, err)
		require.Len(t, res.Content, 1)
		assert.Equal(t, "hello agent", res.Content[0].(*mcp.TextContent).Text)
	})
}
