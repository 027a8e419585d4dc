package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/readiness/internal/teashop"
	"github.com/agentweb/agentweb/readiness/mcpserver"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// brokenAgentic is an agentic.json with a problem in each section of the
// profile.
const brokenAgentic = `{"agentic":"1.1.0","type":"site","origin":"https://broken.example/x","name":"","description":"d",
"resources":[{"kind":"website","url":"http://broken.example/","source":"https://broken.example/","availability":"retrieved"}],
"apis":[{"document":"https://broken.example/openapi.json","openapi":"3.1.0","operations":[{"method":"GET","path":"nope"}]}]}`

// plainPages is the tea shop's five plain pages, with no agent documents.
func plainPages() http.Handler { return teashop.Pages() }

// teaSite is a site built with the publish kit that scans 100.
func teaSite(t testing.TB) http.Handler {
	h, err := teaSiteHandler()
	require.NoError(t, err)
	return h
}

func teaSiteHandler() (http.Handler, error) {
	s := teashop.Site()
	return s.Handler(plainPages())
}

// brokenSite serves brokenAgentic and nothing else.
func brokenSite() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/agentic.json" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, brokenAgentic)
			return
		}
		http.NotFound(w, r)
	})
}

// world is a fake internet with the sites the tests use.
func world(t testing.TB) *fetchtest.Network {
	n, err := newWorld()
	require.NoError(t, err)
	t.Cleanup(n.Close)
	return n
}

func newWorld() (*fetchtest.Network, error) {
	tea, err := teaSiteHandler()
	if err != nil {
		return nil, err
	}
	n := fetchtest.New()
	n.Site("tea.example", tea)
	n.Site("broken.example", brokenSite())
	n.Host("private.example", "10.0.0.7")
	return n, nil
}

// transport connects a go-sdk client to srv over one transport.
type transport struct {
	name    string
	connect func(t testing.TB, srv *mcpserver.Server) *mcp.ClientSession
}

var transports = []transport{
	{"http", connectHTTP},
	{"stdio", connectStdio},
}

func connectHTTP(t testing.TB, srv *mcpserver.Server) *mcp.ClientSession {
	return connectHTTPWith(t, srv, nil)
}

func connectHTTPWith(t testing.TB, srv *mcpserver.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return connect(t, &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, opts)
}

func connectStdio(t testing.TB, srv *mcpserver.Server) *mcp.ClientSession {
	return connectStdioWith(t, srv, nil)
}

func connectStdioWith(t testing.TB, srv *mcpserver.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, inR, outW); outW.Close() }()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
	})
	return connect(t, &mcp.IOTransport{Reader: outR, Writer: inW}, opts)
}

func connect(t testing.TB, tr mcp.Transport, opts *mcp.ClientOptions) *mcp.ClientSession {
	c := mcp.NewClient(&mcp.Implementation{Name: "agentweb-test", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool and returns its result.
func callTool(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, "%s: a tool's failure is a result, never a JSON-RPC error", name)
	return res
}

// text joins a result's text content.
func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// structured decodes a result's structured content into v.
func structured(t testing.TB, r *mcp.CallToolResult, v any) {
	t.Helper()
	require.False(t, r.IsError, text(r))
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}

// requireOutputSchema checks a result against the tool's output schema as
// tools/list published it.
func requireOutputSchema(t testing.TB, tool *mcp.Tool, r *mcp.CallToolResult) {
	t.Helper()
	sb, err := json.Marshal(tool.OutputSchema)
	require.NoError(t, err)
	s, err := schema.Compile("https://agentweb.test/"+tool.Name+".output.json", sb)
	require.NoError(t, err)
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Empty(t, s.Validate(doc), "%s's structured content fits its output schema", tool.Name)
}

// TestMain serves the tools over stdio on the test world instead of
// running the tests when AGENTWEB_TS_STDIO is set: the TypeScript client's
// stdio test starts this test binary as its server.
func TestMain(m *testing.M) {
	if os.Getenv("AGENTWEB_TS_STDIO") == "1" {
		os.Exit(serveWorldStdio())
	}
	os.Exit(m.Run())
}

func serveWorldStdio() int {
	n, err := newWorld()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer n.Close()
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := srv.ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
