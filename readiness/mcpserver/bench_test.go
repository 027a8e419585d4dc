package mcpserver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/internal/benchratio"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpserver"
)

// call makes one tool call and fails on any error or isError.
func benchCall(cs *mcp.ClientSession, name string, args map[string]any) error {
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err
	}
	if r.IsError {
		return errors.New(text(r))
	}
	return nil
}

// validate_document over MCP beside the direct agentic.ParseSite of the
// same document (the kit site's agentic.json): "ratio" is the cost of the
// protocol, per transport.
func BenchmarkValidateDocument(b *testing.B) {
	n := world(b)
	resp, err := n.Client().Get(context.Background(), "https://tea.example/agentic.json", nil)
	require.NoError(b, err)
	require.Equal(b, 200, resp.StatusCode)
	doc := resp.Body
	_, err = agentic.ParseSite(doc)
	require.NoError(b, err)
	args := map[string]any{"kind": "agentic_site", "content": string(doc)}
	for _, tr := range transports {
		b.Run(tr.name, func(b *testing.B) {
			srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), CallerRate: -1})
			require.NoError(b, err)
			cs := tr.connect(b, srv)
			benchratio.Run(b, func() error { return benchCall(cs, "validate_document", args) },
				func() error { _, err := agentic.ParseSite(doc); return err })
		})
	}
}

// One scan_site round trip beside readiness.Scan of the same site.
func BenchmarkScanSite(b *testing.B) {
	n := world(b)
	client := n.Client()
	args := map[string]any{"url": "https://tea.example/"}
	for _, tr := range transports {
		b.Run(tr.name, func(b *testing.B) {
			srv, err := mcpserver.New(&mcpserver.Options{Client: client, CallerRate: -1, TargetPerMinute: -1})
			require.NoError(b, err)
			cs := tr.connect(b, srv)
			benchratio.Run(b, func() error { return benchCall(cs, "scan_site", args) },
				func() error {
					_, err := readiness.Scan(context.Background(), "https://tea.example/", &readiness.Options{Client: client})
					return err
				})
		})
	}
}
