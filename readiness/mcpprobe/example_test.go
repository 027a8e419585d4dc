package mcpprobe_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Probing an MCP server: the official go-sdk's, on the fake internet of
// package fetchtest. The probe offers 2026-07-28 first, and the server
// declines server/discover. So 2025-11-25 is negotiated, and the tools are
// listed without a token.
func ExampleProbe() {
	n := fetchtest.New()
	defer n.Close()
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1.0.0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "search", Description: "Search the catalogue.", InputSchema: map[string]any{"type": "object"},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	n.Site("shop.example", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		// fetchtest serves public names from loopback, which the go-sdk's
		// DNS-rebinding guard (for servers bound to localhost) refuses.
		&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}))

	r, err := mcpprobe.Probe(context.Background(), "https://shop.example/mcp", &mcpprobe.Options{Client: n.Client()})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Outcome, r.Transport)
	for _, o := range r.Protocol.Offers {
		fmt.Println("offered", o.Version, "in", o.RPC)
	}
	fmt.Println("negotiated", r.Protocol.Negotiated)
	fmt.Println("tools:", r.Tools.ListedWithoutToken, "read-only hints:", r.Tools.WithReadOnlyHint)
	fmt.Println("sign-in:", r.Auth.Mode)
	// Output:
	// listed streamable-http
	// offered 2026-07-28 in server/discover
	// offered 2025-11-25 in initialize
	// negotiated 2025-11-25
	// tools: 1 read-only hints: 1
	// sign-in: none
}
