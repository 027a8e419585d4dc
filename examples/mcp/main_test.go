package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func resultText(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// The program, built and run as a process the way an MCP client starts it
// from a command/args entry, over stdio: it lists the tools and, in
// development mode, scans a site on loopback and says it is in development
// mode.
func TestStdioProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	bin := filepath.Join(t.TempDir(), "mcp")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)

	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!DOCTYPE html><html lang="en"><head><title>Dev</title></head><body><h1>Dev</h1></body></html>`)
	}))
	defer site.Close()

	var stderr bytes.Buffer
	cmd := exec.Command(bin, "-dev")
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 5)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "scan_site", Arguments: map[string]any{"url": site.URL + "/"}})
	require.NoError(t, err)
	require.False(t, res.IsError, resultText(res))
	assert.Contains(t, resultText(res), "Development mode")
	assert.Contains(t, resultText(res), "Fix first")

	require.NoError(t, cs.Close())
	assert.Contains(t, stderr.String(), "development mode")
}

// -http serves Streamable HTTP at /mcp until the context ends.
func TestHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- run(ctx, []string{"-http", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, &stderr, func(a string) { addrc <- a })
	}()
	addr := <-addrc
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "explain_check", Arguments: map[string]any{"id": "mcp_discovery"}})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Contains(t, resultText(res), "mcp_discovery")
	assert.NotContains(t, resultText(res), "Development mode", "not in development mode without -dev")
	cs.Close()
	cancel()
	assert.Equal(t, 0, <-done)
	assert.Contains(t, stderr.String(), "serving MCP at http://"+addr+"/mcp")
}

func TestUsage(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, 2, run(context.Background(), []string{"extra"}, nil, io.Discard, &stderr, nil))
	assert.Equal(t, 2, run(context.Background(), []string{"-nope"}, nil, io.Discard, &stderr, nil))
	assert.Equal(t, 0, run(context.Background(), []string{"-h"}, nil, io.Discard, &stderr, nil))
	assert.Contains(t, stderr.String(), "-http")
}

// The README's section "Use it from an agent" and this program's package
// documentation give the same client entry, and it starts this program.
func TestReadmeClientEntry(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(readme), "\n## Use it from an agent\n")
	require.True(t, ok, "the README has a section \"Use it from an agent\"")
	section, _, _ = strings.Cut(section, "\n## ")
	assert.Contains(t, section, "go install github.com/agentweb/agentweb/examples/mcp@latest")
	_, block, ok := strings.Cut(section, "```json\n")
	require.True(t, ok)
	block, _, _ = strings.Cut(block, "\n```")
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	require.NoError(t, json.Unmarshal([]byte(block), &cfg))
	entry := cfg.MCPServers["agentweb"]
	assert.Equal(t, "mcp", entry.Command, "the binary go install makes is named after the folder")
	assert.Equal(t, []string{"-dev"}, entry.Args)

	doc, err := os.ReadFile("main.go")
	require.NoError(t, err)
	var inDoc []string
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "//\t") {
			inDoc = append(inDoc, strings.TrimPrefix(l, "//\t"))
		}
	}
	assert.Contains(t, strings.Join(inDoc, "\n"), block, "the package doc gives the same entry")

	var stderr bytes.Buffer
	assert.Equal(t, 0, run(context.Background(), entry.Args, strings.NewReader(""), io.Discard, &stderr, nil), "the entry's args start the program")
}
