package mcpserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/readiness/mcpserver"
	"github.com/agentweb/agentweb/readiness/publish"
)

// Our own server, mounted at /mcp of a site built with the publish kit,
// passes the MCP probe: mcp_discovery passes, every tool is listed without a
// token, and each has the read-only hint.
func TestOwnServerPassesMCPDiscovery(t *testing.T) {
	n := world(t)
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), DisableLocalhostProtection: true})
	require.NoError(t, err)
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	site := publish.Site{
		Origin: "https://tools.example", Name: "Readiness tools", Description: "Agent-readiness tools over MCP.",
		Language: "en", Contact: publish.Contact{Email: "people@tools.example"},
		Pages: []publish.Page{{Path: "/", Title: "Readiness tools", Description: "Agent-readiness tools.", Updated: day}},
		MCP:   &publish.MCP{Path: "/mcp", Handler: srv.Handler(), Name: "agentweb", Description: "Validate, discover, scan and probe.", PublicTools: []string{"validate_document", "discover_site", "scan_site", "probe_mcp", "explain_check"}},
	}
	h, err := site.Handler(plainPages())
	require.NoError(t, err)
	n.Site("tools.example", h)

	rec, err := mcpprobe.Probe(context.Background(), "https://tools.example/mcp", &mcpprobe.Options{Client: n.Client()})
	require.NoError(t, err)
	assert.Equal(t, mcpprobe.OutcomeListed, rec.Outcome, rec.Reason)
	assert.Equal(t, len(toolNames), rec.Tools.ListedWithoutToken)
	assert.Equal(t, len(toolNames), rec.Tools.WithReadOnlyHint)

	// discover_site finds the endpoint the kit declares, unverified until
	// probe_mcp tests it.
	cs := connectStdio(t, srv)
	var d struct {
		Documents []struct{ Kind, URL, Status, Reason string } `json:"documents"`
	}
	structured(t, callTool(t, cs, "discover_site", map[string]any{"url": "https://tools.example/"}), &d)
	var endpoints []string
	for _, doc := range d.Documents {
		if doc.Kind == "mcp_endpoint" {
			assert.Equal(t, "unverified", doc.Status)
			assert.Contains(t, doc.Reason, "probe_mcp")
			endpoints = append(endpoints, doc.URL)
		}
	}
	assert.Equal(t, []string{"https://tools.example/mcp"}, endpoints)

	rep, err := readiness.Scan(context.Background(), "https://tools.example/", &readiness.Options{Client: n.Client()})
	require.NoError(t, err)
	for _, c := range rep.Checks {
		if c.ID == "mcp_discovery" {
			assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s %v", c.Receipt.Received, c.Receipt.Notes)
		}
	}
}
