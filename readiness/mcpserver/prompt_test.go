package mcpserver_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpserver"
)

// fix_site scans the site and returns one user message with every fix of
// the fix-first list, in order, and the URLs the scan observed for each.
func TestFixSitePrompt(t *testing.T) {
	n := world(t)
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client()})
	require.NoError(t, err)
	cs := connectStdio(t, srv)
	res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "fix_site", Arguments: map[string]string{"url": "https://broken.example/"}})
	require.NoError(t, err)
	require.Len(t, res.Messages, 1)
	assert.Equal(t, mcp.Role("user"), res.Messages[0].Role)
	msg := res.Messages[0].Content.(*mcp.TextContent).Text

	direct, err := readiness.Scan(context.Background(), "https://broken.example/", &readiness.Options{Client: n.Client()})
	require.NoError(t, err)
	require.NotEmpty(t, direct.Fixes)
	last := -1
	for _, f := range direct.Fixes {
		i := strings.Index(msg, f.Fix)
		assert.Greater(t, i, last, "the fixes come in the fix-first order: %s", f.Check)
		last = i
	}
	assert.Contains(t, msg, "GET https://broken.example/llms.txt (404)", "the URLs the scan observed")
	assert.Contains(t, msg, "scan again")

	_, err = cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "fix_site", Arguments: map[string]string{"url": "https://private.example/"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "10.0.0.0/8")
}

// A call past Options.CallTimeout ends with a tool error.
func TestCallTimeout(t *testing.T) {
	n := world(t)
	smallSite(n, "slow.example")
	n.SetLatency("slow.example", 5*time.Second)
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), CallTimeout: 300 * time.Millisecond})
	require.NoError(t, err)
	cs := connectStdio(t, srv)
	start := time.Now()
	r := callTool(t, cs, "validate_document", map[string]any{"kind": "openagent", "url": "https://slow.example/"})
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "deadline")
	assert.Less(t, time.Since(start), 3*time.Second)
}

// ServeStdio answers line by line and returns nil when its input ends.
func TestServeStdioEOF(t *testing.T) {
	srv, err := mcpserver.New(nil)
	require.NoError(t, err)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, outW) }()
	_, err = io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	require.NoError(t, err)
	line, err := bufio.NewReader(outR).ReadString('\n')
	require.NoError(t, err)
	assert.Contains(t, line, `"serverInfo"`)
	inW.Close()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return when its input ended")
	}
}
