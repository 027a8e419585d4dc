package readiness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newMCPServer is a real MCP server (the official Go SDK) with n tools. It
// speaks only the given protocol versions (nil: every version the SDK
// knows). It lists pageSize tools a page (0: the SDK's default).
func newMCPServer(n int, readOnly bool, versions []string, pageSize int) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1.0.0"}, &mcp.ServerOptions{SupportedProtocolVersions: versions, PageSize: pageSize})
	for i := range n {
		srv.AddTool(&mcp.Tool{
			Name:        fmt.Sprintf("tool_%02d", i),
			Description: "A tool of the shop.",
			InputSchema: map[string]any{"type": "object"},
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: readOnly},
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			panic("the scanner never calls a tool")
		})
	}
	// fetchtest serves public host names from loopback, which the SDK's DNS
	// rebinding protection (meant for servers bound to localhost) refuses.
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true})
}

// rpcMethod reads the JSON-RPC method of a request and restores its body.
func rpcMethod(r *http.Request) string {
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(b))
	var m struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(b, &m)
	return m.Method
}

// behindBearer answers 401 with a Bearer challenge naming resource metadata
// to every request without a token (or, with listOnly, to tools/list only).
func behindBearer(h http.Handler, resourceMetadata string, listOnly bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" && (!listOnly || rpcMethod(r) == "tools/list") {
			w.Header().Set("WWW-Authenticate", `Bearer realm="shop", error="invalid_token", resource_metadata="`+resourceMetadata+`"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// connectSite is a site with a card, an MCP endpoint at /mcp and optional
// OAuth metadata documents, recording the paths asked for.
type connectSite struct {
	card  string
	mcp   http.Handler
	docs  map[string]string // path -> JSON
	mu    sync.Mutex
	paths []string
}

func (c *connectSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.paths = append(c.paths, r.URL.Path)
	c.mu.Unlock()
	switch {
	case r.URL.Path == "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1></body></html>`)
	case r.URL.Path == "/mcp" && c.mcp != nil:
		c.mcp.ServeHTTP(w, r)
	case r.URL.Path == "/.well-known/agents.json" && c.card != "":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, c.card)
	case c.docs[r.URL.Path] != "":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, c.docs[r.URL.Path])
	default:
		http.NotFound(w, r)
	}
}

func (c *connectSite) asked(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.paths {
		if p == path {
			return true
		}
	}
	return false
}

const (
	openCard  = `{"name": "Shop", "interfaces": [{"type": "mcp", "url": "https://shop.example/mcp", "auth": "none"}], "contact": {"email": "agents@shop.example"}}`
	oauthCard = `{"name": "Shop", "interfaces": [{"type": "mcp", "url": "https://shop.example/mcp", "auth": "oauth2"}],
  "auth": {"type": "oauth2", "metadata": "https://shop.example/.well-known/oauth-authorization-server", "public": ["search_products"], "token_required": ["place_order"]}}`
	prmDoc = `{"resource": "https://shop.example/mcp", "authorization_servers": ["https://shop.example"], "scopes_supported": ["orders"], "bearer_methods_supported": ["header"]}`
	asDoc  = `{"issuer": "https://shop.example", "authorization_endpoint": "https://shop.example/authorize", "token_endpoint": "https://shop.example/token",
  "registration_endpoint": "https://shop.example/register", "response_types_supported": ["code"], "code_challenge_methods_supported": ["S256"]}`
	asNoPKCE = `{"issuer": "https://shop.example", "authorization_endpoint": "https://shop.example/authorize", "token_endpoint": "https://shop.example/token", "response_types_supported": ["code"]}`
)

var oauthDocs = map[string]string{
	"/.well-known/oauth-protected-resource/mcp": prmDoc,
	"/.well-known/oauth-authorization-server":   asDoc,
}

// connectIDs are the ids of the five Connect checks, in catalogue order.
var connectIDs = []string{"backend_interface_declared", "mcp_discovery", "mcp_documented_access", "mcp_signin_discovery", "mcp_tested_execution"}

// bearerOnly answers 401 with a Bearer challenge that names no resource
// metadata to every request, as many servers behind an OAuth gateway do.
func bearerOnly() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="shop"`)
		http.Error(w, "sign in", http.StatusUnauthorized)
	})
}
