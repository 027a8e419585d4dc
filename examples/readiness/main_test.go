package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/examples/internal/clitest"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1></body></html>`)
	})
	n.Site("shop.example", mux)
	dir := t.TempDir()
	jsonPath, htmlPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"scan", "https://shop.example/", "--json", jsonPath, "--html", htmlPath, "--md", "-"}, &stdout, &stderr, n.Client())
	assert.Equal(t, 1, code, "a site that is not ready exits 1")
	assert.Contains(t, stderr.String(), "check initial_html_content")
	assert.Contains(t, stderr.String(), "fetch GET https://shop.example/robots.txt: 404")
	assert.Contains(t, stdout.String(), "# Agent readiness: https://shop.example/")
	assert.Contains(t, stdout.String(), "not ready")

	// The first five entries of the fix-first list follow the score, in
	// the report's order.
	out := stdout.String()
	summary := out[strings.Index(out, "https://shop.example/: "):]
	require.Contains(t, summary, "  fix first:\n")
	var printed []string
	for _, l := range strings.Split(summary, "\n") {
		var n int
		var pts float64
		var id string
		if _, err := fmt.Sscanf(l, "  %d. +%f points %s", &n, &pts, &id); err == nil {
			printed = append(printed, id)
		}
	}
	assert.Len(t, printed, 5)
	assert.Contains(t, summary, "more in the report")

	js, err := os.ReadFile(jsonPath)
	require.NoError(t, err)
	var rep map[string]any
	require.NoError(t, json.Unmarshal(js, &rep))
	clitest.AssertSnakeCase(t, js)
	assert.Equal(t, "1.2", rep["method"])
	fixes, ok := rep["fixes"].([]any)
	require.True(t, ok)
	require.Greater(t, len(fixes), 5)
	for i, id := range printed {
		assert.Equal(t, fixes[i].(map[string]any)["check"], id, "printed in the report's order")
	}
	page, err := os.ReadFile(htmlPath)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(page, []byte("<!DOCTYPE html>")))

	for _, args := range [][]string{nil, {"scan"}, {"scan", "https://a.example/", "--json"}, {"scan", "a", "b"}, {"--bogus"}} {
		stderr.Reset()
		assert.Equal(t, 2, run(context.Background(), args, &stdout, &stderr, n.Client()), "%q", args)
		assert.Contains(t, stderr.String(), "usage")
	}
	stderr.Reset()
	assert.Equal(t, 2, run(context.Background(), []string{"scan", "http://10.0.0.1/"}, &stdout, &stderr, n.Client()), "a refused URL")
	assert.Contains(t, stderr.String(), "invalid site URL")
}

func TestRunMCP(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1.0.0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "search", Description: "Search.", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	n.Site("shop.example", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}))
	n.Site("plain.example", http.NotFoundHandler())

	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run(context.Background(), []string{"mcp", "https://shop.example/mcp"}, &stdout, &stderr, n.Client()), stderr.String())
	var r map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r), stdout.String())
	clitest.AssertSnakeCase(t, stdout.Bytes())
	assert.Equal(t, "listed", r["outcome"])
	assert.Equal(t, "streamable-http", r["transport"])
	assert.Contains(t, r, "handshake")

	stdout.Reset()
	assert.Equal(t, 1, run(context.Background(), []string{"mcp", "https://plain.example/mcp"}, &stdout, &stderr, n.Client()), "no MCP endpoint answers")
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	assert.Equal(t, "not_mcp", r["outcome"])

	for _, args := range [][]string{{"mcp"}, {"mcp", "a", "b"}, {"mcp", "--x"}, {"mcp", "ftp://shop.example/mcp"}} {
		stderr.Reset()
		assert.Equal(t, 2, run(context.Background(), args, &stdout, &stderr, n.Client()), "%q", args)
	}
}
