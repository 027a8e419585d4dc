package readiness

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// mcpServerCardEdges are the edge cases of the mcp_server_card check.
func mcpServerCardEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name: "an MCP server card naming its endpoint in transport.endpoint",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json":          status(http.StatusNotFound),
				"/agents.json":                      status(http.StatusNotFound),
				"/mcp":                              status(http.StatusNotFound),
				"/.well-known/mcp/server-card.json": text("application/json", `{"serverInfo": {"name": "shop", "version": "1.0.0"}, "transport": {"type": "streamable-http", "endpoint": "/api/mcp"}, "capabilities": {"tools": {}}}`),
				"/api/mcp":                          newMCPServer(2, true, nil, 0).ServeHTTP,
			},
			want: map[string]Verdict{"mcp_discovery": VerdictPass, "backend_interface_declared": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "backend_interface_declared").Receipt.Received, "MCP endpoint https://shop.example/api/mcp")
			},
		},
		{
			name: "an MCP server card at SEP-2127's location whose remotes name the endpoint",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json":     status(http.StatusNotFound),
				"/agents.json":                 status(http.StatusNotFound),
				"/mcp":                         status(http.StatusNotFound),
				"/.well-known/mcp/server-card": text("application/mcp-server-card+json", `{"name": "example.shop/mcp", "version": "1.0.0", "description": "Shop tools.", "remotes": [{"type": "sse", "url": "https://shop.example/sse"}, {"type": "streamable-http", "url": "https://shop.example/v2/mcp"}]}`),
				"/v2/mcp":                      newMCPServer(2, true, nil, 0).ServeHTTP,
			},
			want: map[string]Verdict{"mcp_server_card": VerdictOptional, "mcp_discovery": VerdictPass, "backend_interface_declared": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "mcp_server_card")
				assert.Equal(t, "found: an MCP server card naming https://shop.example/v2/mcp (2 remotes in remotes[]) at https://shop.example/.well-known/mcp/server-card", c.Receipt.Received)
				assert.Empty(t, c.Receipt.Notes)
				assert.Contains(t, checkByID(r, "backend_interface_declared").Receipt.Received, "MCP endpoint https://shop.example/v2/mcp")
			},
		},
	}
}
