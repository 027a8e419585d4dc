package readiness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newMCPServer is a real MCP server (the official Go SDK) with n tools,
// speaking only the given protocol versions (nil: every version the SDK
// knows), pageSize tools a page (0: the SDK's default).
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

// connectVerdicts are the verdicts of the five Connect checks, in catalogue order.
var connectIDs = []string{"backend_interface_declared", "mcp_discovery", "mcp_documented_access", "mcp_signin_discovery", "mcp_tested_execution"}

func assertProtocol(t *testing.T, m *MCPReceipt, offered, returned, negotiated string) {
	t.Helper()
	assert.Equal(t, offered, m.Protocol.Offered, "offered")
	assert.Equal(t, returned, m.Protocol.Returned, "returned")
	assert.Equal(t, negotiated, m.Protocol.Negotiated, "negotiated")
}

func TestConnectChecks(t *testing.T) {
	tests := []struct {
		name    string
		site    *connectSite
		timeout time.Duration
		want    [5]Verdict
		check   func(t *testing.T, r *Report, site *connectSite)
	}{
		{
			name: "open tools: all listed, sign-in not applicable",
			site: &connectSite{card: openCard, mcp: newMCPServer(3, false, nil, 0)},
			want: [5]Verdict{VerdictPass, VerdictPass, VerdictPass, VerdictNotApplicable, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				require.NotNil(t, m)
				assertProtocol(t, m, "2026-07-28", "2025-11-25", "2025-11-25")
				assert.Equal(t, []mcpprobe.Offer{{RPC: "server/discover", Version: "2026-07-28"}, {RPC: "initialize", Version: "2025-11-25"}}, m.Protocol.Offers,
					"the latest version first, then down: the go-sdk server declines server/discover by default")
				assert.Equal(t, 3, m.Tools.ListedWithoutToken)
				assert.Zero(t, m.Tools.WithReadOnlyHint)
				assert.Nil(t, m.Tools.Authenticated)
				assert.Equal(t, "none", m.Auth.Mode)
				require.Greater(t, len(m.Handshake), 1)
				assert.Equal(t, "server/discover", m.Handshake[0].RPC)
				h := m.Handshake[1]
				assert.Equal(t, "initialize", h.RPC)
				assert.Equal(t, http.StatusOK, h.Status)
				assert.True(t, h.SessionID, "the stateful server returns a session id")
				assert.Contains(t, h.ContentType, "text/event-stream")
				var rpcs []string
				for _, e := range m.Handshake {
					rpcs = append(rpcs, e.RPC)
				}
				assert.Subset(t, rpcs, []string{"initialize", "notifications/initialized", "tools/list"})
				assert.NotContains(t, rpcs, "tools/call")
				assert.Contains(t, checkByID(r, "mcp_documented_access").Receipt.Received, "the capability manifest")
			},
		},
		{
			name: "tools behind OAuth: RFC 9728 and RFC 8414 metadata with S256",
			site: &connectSite{card: oauthCard, docs: oauthDocs,
				mcp: behindBearer(newMCPServer(4, true, nil, 0), "https://shop.example/.well-known/oauth-protected-resource/mcp", true)},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictPass, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				require.NotNil(t, m)
				assert.True(t, m.Initialize)
				assert.False(t, m.ToolsList)
				assert.Equal(t, "oauth", m.Auth.Mode)
				assert.True(t, m.Auth.OAuthMetadata)
				assert.Equal(t, "https://shop.example/.well-known/oauth-authorization-server", m.Auth.MetadataURL)
				assert.Equal(t, "https://shop.example/.well-known/oauth-protected-resource/mcp", m.Auth.ResourceMetadataURL)
				assert.Equal(t, []string{"S256"}, m.Auth.PKCE)
				assert.True(t, m.Auth.DynamicRegistration)
				assert.Equal(t, "the capability manifest", m.Auth.RequirementsDocumentedAt)
				assert.False(t, m.Auth.BeforeVersion, "the 401 came at tools/list, after the version was negotiated")
				si := checkByID(r, "mcp_signin_discovery")
				assert.Contains(t, si.Receipt.Notes[0], "2025-11-25 (the negotiated version): RFC 9728")
				assert.Contains(t, si.Receipt.Received, "issuer and resource match, PKCE S256")
			},
		},
		{
			name: "the same without PKCE",
			site: &connectSite{card: oauthCard, docs: map[string]string{"/.well-known/oauth-protected-resource/mcp": prmDoc, "/.well-known/oauth-authorization-server": asNoPKCE},
				mcp: behindBearer(newMCPServer(4, true, nil, 0), "https://shop.example/.well-known/oauth-protected-resource/mcp", false)},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictPartial, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				assert.False(t, m.Initialize, "initialize itself needs a token")
				assert.Equal(t, http.StatusUnauthorized, m.Handshake[0].Status)
				assert.Contains(t, m.Handshake[0].WWWAuthenticate, "resource_metadata=")
				assert.Empty(t, m.Auth.PKCE)
				assert.Contains(t, checkByID(r, "mcp_signin_discovery").Receipt.Received, "does not contain S256")
			},
		},
		{
			name: "resource metadata whose resource does not match",
			site: &connectSite{card: oauthCard, docs: map[string]string{
				"/.well-known/oauth-protected-resource/mcp": strings.Replace(prmDoc, "https://shop.example/mcp", "https://other.example/mcp", 1),
				"/.well-known/oauth-authorization-server":   asDoc},
				mcp: behindBearer(newMCPServer(1, true, nil, 0), "https://shop.example/.well-known/oauth-protected-resource/mcp", false)},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictFail, VerdictUnverified},
		},
		{
			name: "a server that only speaks 2025-03-26: its discovery rules",
			site: &connectSite{card: oauthCard, docs: oauthDocs, mcp: newMCPServer(7, true, []string{"2025-03-26"}, 0)},
			want: [5]Verdict{VerdictPass, VerdictPass, VerdictPass, VerdictPass, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				assertProtocol(t, m, "2026-07-28", "2025-03-26", "2025-03-26")
				assert.False(t, site.asked("/.well-known/oauth-protected-resource/mcp"), "2025-03-26 has no protected resource metadata")
				assert.False(t, site.asked("/.well-known/oauth-protected-resource"))
				assert.Contains(t, checkByID(r, "mcp_signin_discovery").Receipt.Notes[0], "2025-03-26 (the negotiated version): RFC 8414 metadata at the MCP server origin")
				for _, e := range m.Handshake[1:] {
					if e.ProtocolHeader != "" {
						assert.Equal(t, "2025-03-26", e.ProtocolHeader, "later requests carry the negotiated version")
					}
				}
			},
		},
		{
			name: "a server that returns 2025-11-25: root resource metadata, then OpenID Connect discovery",
			site: &connectSite{card: oauthCard, docs: map[string]string{
				"/.well-known/oauth-protected-resource": strings.Replace(prmDoc, `"resource": "https://shop.example/mcp"`, `"resource": "https://shop.example"`, 1),
				"/.well-known/openid-configuration":     asDoc,
			}, mcp: newMCPServer(2, false, []string{"2025-11-25"}, 0)},
			want: [5]Verdict{VerdictPass, VerdictPass, VerdictPass, VerdictPass, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				assertProtocol(t, m, "2026-07-28", "2025-11-25", "2025-11-25")
				assert.Equal(t, "https://shop.example/.well-known/openid-configuration", m.Auth.MetadataURL)
				assert.True(t, site.asked("/.well-known/oauth-protected-resource/mcp"), "path-inserted first")
				assert.Contains(t, checkByID(r, "mcp_signin_discovery").Receipt.Notes[0], "then OpenID Connect discovery")
			},
		},
		{
			name: "a 2025-06-18 session is not judged by the OpenID Connect rule of 2025-11-25",
			site: &connectSite{card: oauthCard, docs: map[string]string{
				"/.well-known/oauth-protected-resource/mcp": prmDoc,
				"/.well-known/openid-configuration":         asDoc,
			}, mcp: newMCPServer(2, false, []string{"2025-06-18"}, 0)},
			want: [5]Verdict{VerdictPass, VerdictPass, VerdictPass, VerdictFail, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				assert.False(t, site.asked("/.well-known/openid-configuration"))
			},
		},
		{
			name: "a server that returns a version the client does not know",
			site: &connectSite{card: openCard, mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
				var req struct {
					ID json.RawMessage `json:"id"`
				}
				_ = json.Unmarshal(b, &req)
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2099-01-01","capabilities":{"tools":{}},"serverInfo":{"name":"future","version":"9"}}}`, req.ID)
			})},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictNotApplicable, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				assertProtocol(t, m, "2026-07-28", "2099-01-01", "")
				assert.Equal(t, "streamable-http", m.Transport)
				assert.False(t, m.Initialize)
			},
		},
		{
			name: "a server that hangs", timeout: 400 * time.Millisecond,
			site: &connectSite{card: openCard, mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(1500 * time.Millisecond):
				}
			})},
			want: [5]Verdict{VerdictUnverified, VerdictUnverified, VerdictUnverified, VerdictUnverified, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				assert.Contains(t, checkByID(r, "mcp_discovery").Receipt.Received, "timeout")
				assert.Equal(t, 4.0, checkByID(r, "mcp_discovery").Weight, "unverified keeps its weight")
			},
		},
		{
			name: "an endpoint that is not MCP",
			site: &connectSite{card: openCard, mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"hello": "world"}`)
			})},
			want: [5]Verdict{VerdictPartial, VerdictFail, VerdictNotApplicable, VerdictNotApplicable, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				assert.Contains(t, checkByID(r, "mcp_discovery").Receipt.Received, "not MCP")
				assert.Empty(t, checkByID(r, "mcp_discovery").Receipt.MCP.Transport)
			},
		},
		{
			name: "an endpoint that streams forever",
			site: &connectSite{card: openCard, mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				chunk := []byte(strings.Repeat(": keep-alive\n", 256))
				for r.Context().Err() == nil {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			})},
			want: [5]Verdict{VerdictUnverified, VerdictUnverified, VerdictUnverified, VerdictUnverified, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				require.NotEmpty(t, m.Handshake)
				assert.True(t, m.Handshake[0].Capped)
				assert.LessOrEqual(t, m.Handshake[0].Bytes, int64(mcpMaxBody+64<<10), "read stops at the cap")
				assert.Contains(t, checkByID(r, "mcp_discovery").Receipt.Received, "capped")
			},
		},
		{
			name: "no MCP, an OpenAPI document",
			site: &connectSite{docs: map[string]string{"/openapi.json": `{"openapi": "3.1.0", "info": {"title": "Shop", "version": "1"}, "paths": {}}`}},
			want: [5]Verdict{VerdictPass, VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable, VerdictUnverified},
		},
		{
			name: "nothing at all",
			site: &connectSite{},
			// Nothing callable was found: no execution to test.
			want: [5]Verdict{VerdictFail, VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable},
		},
		{
			name: "the card states no interface",
			site: &connectSite{card: `{"name": "Shop", "interfaces": [], "contact": {"email": "a@shop.example"}}`},
			// Connect leaves the denominator whole.
			want: [5]Verdict{VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable},
		},
		{
			name: "five pages of tools at most",
			site: &connectSite{card: openCard, mcp: newMCPServer(12, false, nil, 2)},
			want: [5]Verdict{VerdictPass, VerdictPass, VerdictPass, VerdictNotApplicable, VerdictUnverified},
			check: func(t *testing.T, r *Report, _ *connectSite) {
				c := checkByID(r, "mcp_discovery")
				assert.Equal(t, 10, c.Receipt.MCP.Tools.ListedWithoutToken)
				assert.Contains(t, c.Receipt.Notes, "stopped after 5 pages of tools: more tools may exist")
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			start := time.Now()
			r := scanMux(t, "shop.example", tc.site, timeout)
			assert.Less(t, time.Since(start), 10*time.Second)
			for i, id := range connectIDs {
				c := checkByID(r, id)
				assert.Equal(t, tc.want[i], c.Verdict, "%s: %s %q", id, c.Receipt.Received, c.Receipt.Notes)
				assert.NotEmpty(t, c.Receipt.Received, id)
				for _, q := range c.Receipt.Requests {
					assert.NotContains(t, q.Headers, "Authorization", "credentials are never recorded")
				}
			}
			if tc.check != nil {
				tc.check(t, r, tc.site)
			}
		})
	}
}

// TestMCPReceiptMatchesMethodExample reproduces the mcp_transport receipt of
// readiness-method.md Section 05 (testdata/mcp_transport_receipt.json, with the
// example's yourwebsite.com on the fake internet's shop.example): a server
// that returns 2025-03-26 to the offered 2025-06-18, OAuth metadata at its
// origin with S256 and dynamic registration, the access requirements stated
// in the card, seven tools listed without a token, all with readOnlyHint.
func TestMCPReceiptMatchesMethodExample(t *testing.T) {
	site := &connectSite{card: oauthCard, docs: oauthDocs, mcp: newMCPServer(7, true, []string{"2025-03-26"}, 0)}
	r := scanMux(t, "shop.example", site, 5*time.Second)
	m := checkByID(r, "mcp_discovery").Receipt.MCP
	require.NotNil(t, m)
	got, err := json.Marshal(m)
	require.NoError(t, err)
	var gotMap map[string]any
	require.NoError(t, json.Unmarshal(got, &gotMap))
	assert.Contains(t, gotMap, "handshake", "the raw handshake travels with the receipt")
	delete(gotMap, "handshake")

	golden := filepath.Join("testdata", "mcp_transport_receipt.json")
	if *update {
		b, err := json.MarshalIndent(gotMap, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(golden, append(b, '\n'), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	var wantMap map[string]any
	require.NoError(t, json.Unmarshal(want, &wantMap))
	assert.Equal(t, wantMap, gotMap)
}

func FuzzServerCardEndpoint(f *testing.F) {
	for _, s := range []string{`{"name": "x", "remotes": [{"type": "streamable-http", "url": "https://a.example/mcp"}]}`, `{"transport": {"url": "u"}}`, `{"url": 1, "endpoint": "e"}`, `[]`, `{"remotes": [1, {"url": ""}, {"url": "x", "type": "sse"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := strictjson.Decode(b)
		if err != nil {
			return
		}
		if m, ok := v.(map[string]any); ok {
			_ = serverCardEndpoint(m)
		}
	})
}

func TestBackendInterfaces(t *testing.T) {
	openapi := `{"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"}, "paths": {}}`
	tests := []struct {
		name    string
		site    http.Handler
		want    Verdict
		receive string
	}{
		{
			name: "an OpenAPI document announced by a service-desc Link header",
			site: &docSite{links: []string{`</api/spec.json>; rel="service-desc"; type="application/openapi+json"`}, docs: map[string]string{"/api/spec.json": openapi}},
			want: VerdictPass, receive: "OpenAPI 3 document https://shop.example/api/spec.json",
		},
		{
			name: "an OpenAPI document in YAML named in the card",
			site: &docSite{docs: map[string]string{
				"/.well-known/agents.json": `{"name": "Shop", "interfaces": [{"type": "openapi", "url": "/openapi.yaml", "auth": "none"}]}`,
				"/openapi.yaml":            "openapi: 3.1.0\ninfo:\n  title: Shop\n",
			}, types: map[string]string{"/openapi.yaml": "application/yaml"}},
			want: VerdictPass, receive: "OpenAPI 3 document https://shop.example/openapi.yaml",
		},
		{
			name: "a GraphQL endpoint named in the card",
			site: func() http.Handler {
				mux := http.NewServeMux()
				mux.Handle("/", &docSite{docs: map[string]string{"/.well-known/agents.json": `{"name": "Shop", "capabilities": [{"id": "q", "endpoint": "https://shop.example/graphql", "protocol": "GraphQL"}]}`}})
				mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					if r.URL.Query().Get("query") != "{__typename}" {
						http.Error(w, `{"errors": [{"message": "no query"}]}`, http.StatusBadRequest)
						return
					}
					fmt.Fprint(w, `{"data": {"__typename": "Query"}}`)
				})
				return mux
			}(),
			want: VerdictPass, receive: "GraphQL endpoint https://shop.example/graphql",
		},
		{
			name: "an MCP endpoint named in agentic.json",
			site: func() http.Handler {
				mux := http.NewServeMux()
				mux.Handle("/", &docSite{docs: map[string]string{"/agentic.json": `{"agentic": "1.1.0", "resources": [{"kind": "mcp", "url": "https://shop.example/agents/mcp"}]}`}})
				mux.Handle("/agents/mcp", newMCPServer(1, false, nil, 0))
				return mux
			}(),
			want: VerdictPass, receive: "MCP endpoint https://shop.example/agents/mcp",
		},
		{
			name: "an interface on another site is named, never fetched",
			site: &docSite{docs: map[string]string{"/.well-known/agents.json": `{"name": "Shop", "interfaces": [{"type": "openapi", "url": "https://api.other.example/openapi.json"}]}`}},
			want: VerdictPartial, receive: "another site: named, not fetched",
		},
		{
			name: "a named OpenAPI URL that is not OpenAPI",
			site: &docSite{docs: map[string]string{
				"/.well-known/agents.json": `{"name": "Shop", "interfaces": [{"type": "openapi", "url": "/spec.json"}]}`,
				"/spec.json":               `{"swagger": "2.0"}`,
			}},
			want: VerdictPartial, receive: "named but not reachable",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scanMux(t, "shop.example", tc.site, 5*time.Second)
			c := checkByID(r, "backend_interface_declared")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
			assert.Contains(t, c.Receipt.Received, tc.receive)
		})
	}
}

func TestMCPDocumentedAccessPartial(t *testing.T) {
	card := `{"name": "Shop", "interfaces": [{"type": "mcp", "url": "https://shop.example/mcp", "auth": "oauth2"}]}`
	r := scanMux(t, "shop.example", &connectSite{card: card, docs: oauthDocs, mcp: newMCPServer(2, false, nil, 0)}, 5*time.Second)
	c := checkByID(r, "mcp_documented_access")
	assert.Equal(t, VerdictPartial, c.Verdict, c.Receipt.Received)
	assert.Contains(t, c.Receipt.Received, "sign-in exists, but nothing states")
	assert.Equal(t, VerdictPass, checkByID(r, "mcp_signin_discovery").Verdict, "the card says the interface needs OAuth, so sign-in discovery applies")
}

// bearerOnly answers 401 with a Bearer challenge that names no resource
// metadata to every request, as many servers behind an OAuth gateway do.
func bearerOnly() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="shop"`)
		http.Error(w, "sign in", http.StatusUnauthorized)
	})
}

// recordInitialize records the capabilities of every initialize request.
type recordInitialize struct {
	next http.Handler
	mu   sync.Mutex
	caps []map[string]any
}

func (h *recordInitialize) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(b))
	var m struct {
		Method string `json:"method"`
		Params struct {
			Capabilities map[string]any `json:"capabilities"`
		} `json:"params"`
	}
	if json.Unmarshal(b, &m) == nil && m.Method == "initialize" {
		h.mu.Lock()
		h.caps = append(h.caps, m.Params.Capabilities)
		h.mu.Unlock()
	}
	h.next.ServeHTTP(w, r)
}

// TestConnectSignInDiscoveryByTheRulesThatFindTheMost covers what the probe
// got wrong before it offered the latest version and applied the
// discovery rules that find the most when a 401 comes before any version.
func TestConnectSignInDiscoveryByTheRulesThatFindTheMost(t *testing.T) {
	oidcOnly := map[string]string{
		"/.well-known/oauth-protected-resource/mcp": prmDoc,
		"/.well-known/openid-configuration":         asDoc,
	}
	tests := []struct {
		name  string
		site  *connectSite
		want  [5]Verdict
		check func(t *testing.T, r *Report, site *connectSite)
	}{
		{
			name: "401 before any version: OpenID Connect discovery is tried (2025-11-25)",
			site: &connectSite{card: oauthCard, docs: oidcOnly,
				mcp: behindBearer(newMCPServer(1, false, nil, 0), "https://shop.example/.well-known/oauth-protected-resource/mcp", false)},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictPass, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				assert.True(t, m.Auth.BeforeVersion)
				assert.Equal(t, "2025-11-25", m.Auth.Rules)
				assert.Empty(t, m.Protocol.Negotiated, "no version was agreed, and none is labelled as agreed")
				assert.Equal(t, "https://shop.example/.well-known/openid-configuration", m.Auth.MetadataURL)
				var versions []string
				for _, d := range m.Auth.Documents {
					versions = append(versions, string(d.Kind)+" "+d.Version)
				}
				assert.Equal(t, []string{"protected_resource 2025-06-18", "authorization_server 2025-06-18", "openid_configuration 2025-11-25"}, versions,
					"each document names the version whose rules found it")
				assert.Contains(t, checkByID(r, "mcp_signin_discovery").Receipt.Notes[0], "no protocol version was negotiated before the 401")
			},
		},
		{
			name: "a guessed /mcp answering 401 Bearer without resource_metadata is MCP, and well-known metadata is read",
			site: &connectSite{docs: oauthDocs, mcp: bearerOnly()},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPartial, VerdictPass, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				assert.True(t, site.asked("/.well-known/oauth-protected-resource/mcp"), "path-inserted well-known URI (2025-11-25)")
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				assert.Equal(t, "streamable-http", m.Transport)
				assert.Equal(t, "https://shop.example/.well-known/oauth-protected-resource/mcp", m.Auth.ResourceMetadataURL)
				a := checkByID(r, "auth_discovery")
				assert.Equal(t, VerdictPass, a.Verdict, a.Receipt.Received)
				assert.Contains(t, a.Receipt.Received, "OAuth metadata at https://shop.example/.well-known/oauth-authorization-server")
			},
		},
		{
			name: "a declared endpoint answering 401 Bearer with no metadata anywhere is MCP behind sign-in, not 'not MCP'",
			site: &connectSite{card: oauthCard, mcp: bearerOnly()},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictFail, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				d := checkByID(r, "mcp_discovery")
				assert.NotContains(t, d.Receipt.Received, "not MCP")
				assert.Contains(t, d.Receipt.Received, "names no resource_metadata")
				assert.Equal(t, "streamable-http", d.Receipt.MCP.Transport)
				si := checkByID(r, "mcp_signin_discovery")
				assert.Contains(t, si.Receipt.Received, "https://shop.example/.well-known/oauth-authorization-server")
				assert.Contains(t, si.Receipt.Received, "404")
			},
		},
		{
			name: "authorization server metadata answering 404: the reason and the URL",
			site: &connectSite{card: oauthCard, docs: map[string]string{"/.well-known/oauth-protected-resource/mcp": prmDoc},
				mcp: behindBearer(newMCPServer(1, false, nil, 0), "https://shop.example/.well-known/oauth-protected-resource/mcp", false)},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictFail, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				si := checkByID(r, "mcp_signin_discovery")
				assert.Regexp(t, `does not resolve: https://shop\.example/\.well-known/\S+ \(.*\): answered 404`, si.Receipt.Received)
				a := checkByID(r, "auth_discovery")
				assert.NotContains(t, a.Receipt.Received+strings.Join(a.Receipt.Notes, " "), "for the MCP endpoint: ;")
				assert.Regexp(t, `OAuth metadata for the MCP endpoint: \S+`, a.Receipt.Received)
			},
		},
		{
			name: "an issuer that does not match: none of that document's data is used",
			site: &connectSite{card: oauthCard, docs: map[string]string{
				"/.well-known/oauth-protected-resource/mcp": prmDoc,
				"/.well-known/oauth-authorization-server":   strings.Replace(asDoc, `"issuer": "https://shop.example"`, `"issuer": "https://evil.example"`, 1),
			}, mcp: behindBearer(newMCPServer(1, false, nil, 0), "https://shop.example/.well-known/oauth-protected-resource/mcp", false)},
			want: [5]Verdict{VerdictPass, VerdictPartial, VerdictPass, VerdictFail, VerdictUnverified},
			check: func(t *testing.T, r *Report, site *connectSite) {
				m := checkByID(r, "mcp_discovery").Receipt.MCP
				assert.Empty(t, m.Auth.PKCE)
				assert.False(t, m.Auth.DynamicRegistration)
				assert.Nil(t, m.Auth.AuthorizationServer)
				assert.Empty(t, m.Auth.MetadataURL)
				assert.Contains(t, checkByID(r, "mcp_signin_discovery").Receipt.Received, "RFC 8414 Section 3.3")
				assert.NotContains(t, checkByID(r, "dynamic_client_registration").Receipt.Received, "https://shop.example/register",
					"the refused document's registration endpoint is not reported")
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scanMux(t, "shop.example", tc.site, 5*time.Second)
			for i, id := range connectIDs {
				c := checkByID(r, id)
				assert.Equal(t, tc.want[i], c.Verdict, "%s: %s %q", id, c.Receipt.Received, c.Receipt.Notes)
			}
			tc.check(t, r, tc.site)
		})
	}
}

// TestMCPRequirementsDocumentedAgree: the receipt's
// requirements_documented_at and mcp_documented_access say the same thing;
// scopes in protected resource metadata say sign-in exists, not which
// capabilities need it.
func TestMCPRequirementsDocumentedAgree(t *testing.T) {
	card := `{"name": "Shop", "interfaces": [{"type": "mcp", "url": "https://shop.example/mcp", "auth": "oauth2"}]}`
	r := scanMux(t, "shop.example", &connectSite{card: card, docs: oauthDocs,
		mcp: behindBearer(newMCPServer(1, false, nil, 0), "https://shop.example/.well-known/oauth-protected-resource/mcp", true)}, 5*time.Second)
	m := checkByID(r, "mcp_discovery").Receipt.MCP
	require.NotNil(t, m.Auth.ProtectedResource)
	assert.Equal(t, []string{"orders"}, m.Auth.ProtectedResource.ScopesSupported)
	assert.Empty(t, m.Auth.RequirementsDocumentedAt)
	assert.Equal(t, VerdictPartial, checkByID(r, "mcp_documented_access").Verdict)
}

// TestMCPProbeDeclaresNoCapability: the probe serves no roots, sampling or
// elicitation, so it declares none (the go-sdk's default is roots).
func TestMCPProbeDeclaresNoCapability(t *testing.T) {
	h := &recordInitialize{next: newMCPServer(1, false, nil, 0)}
	scanMux(t, "shop.example", &connectSite{card: openCard, mcp: h}, 5*time.Second)
	h.mu.Lock()
	defer h.mu.Unlock()
	require.NotEmpty(t, h.caps)
	for _, c := range h.caps {
		assert.Empty(t, c, "no client capability is declared")
	}
}

// TestMCPTransportFailureIsUnverified: a connection that breaks after
// initialize answered is a transport failure, unverified, never "a version
// the client does not support"; a pooled connection closed once is retried.
func TestMCPTransportFailureIsUnverified(t *testing.T) {
	breaker := func(times int) http.Handler {
		var mu sync.Mutex
		broken := 0
		next := newMCPServer(2, false, []string{"2025-06-18"}, 0)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if rpcMethod(r) == "notifications/initialized" {
				mu.Lock()
				brk := broken < times
				broken++
				mu.Unlock()
				if brk {
					panic(http.ErrAbortHandler) // the connection (or stream) is cut
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	t.Run("always broken: unverified", func(t *testing.T) {
		r := scanMux(t, "shop.example", &connectSite{card: openCard, mcp: breaker(100)}, 5*time.Second)
		c := checkByID(r, "mcp_discovery")
		assert.Equal(t, VerdictUnverified, c.Verdict, c.Receipt.Received)
		assert.NotContains(t, c.Receipt.Received, "does not support")
		assert.Contains(t, c.Receipt.Received, "notifications/initialized")
		assert.True(t, c.Receipt.MCP.Retried)
	})
	t.Run("broken once: retried, pass", func(t *testing.T) {
		r := scanMux(t, "shop.example", &connectSite{card: openCard, mcp: breaker(1)}, 5*time.Second)
		c := checkByID(r, "mcp_discovery")
		assert.Equal(t, VerdictPass, c.Verdict, c.Receipt.Received)
		assert.True(t, c.Receipt.MCP.Retried)
	})
}

// TestCatalogueMCPDiscoverySaysWhatTheProbeOffers: the catalogue's
// request text for mcp_discovery names, in order, every offer the probe
// actually makes to a server that negotiates down.
func TestCatalogueMCPDiscoverySaysWhatTheProbeOffers(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("offers.example", newMCPServer(1, true, []string{mcpprobe.Version20251125, mcpprobe.Version20250618}, 0))
	r, err := mcpprobe.Probe(t.Context(), "https://offers.example/mcp", &mcpprobe.Options{Client: n.Client()})
	require.NoError(t, err)
	require.Equal(t, mcpprobe.OutcomeListed, r.Outcome, r.Reason)
	require.GreaterOrEqual(t, len(r.Protocol.Offers), 2, "a first offer and a negotiation down")
	spec, ok := specOf("mcp_discovery")
	require.True(t, ok)
	at := 0
	for _, o := range r.Protocol.Offers {
		want := o.RPC + " offering " + o.Version
		i := strings.Index(spec.Request[at:], want)
		if assert.GreaterOrEqual(t, i, 0, "the catalogue says %q, not %q in order", spec.Request, want) {
			at += i + len(want)
		}
	}
}
