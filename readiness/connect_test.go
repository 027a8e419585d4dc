package readiness

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertProtocol checks the versions an MCP receipt says were offered,
// returned and negotiated.
func assertProtocol(t *testing.T, m *MCPReceipt, offered, returned, negotiated string) {
	t.Helper()
	assert.Equal(t, offered, m.Protocol.Offered, "offered")
	assert.Equal(t, returned, m.Protocol.Returned, "returned")
	assert.Equal(t, negotiated, m.Protocol.Negotiated, "negotiated")
}

// TestConnectChecks scans MCP sites and judges the five Connect checks together.
// Each case asserts all five verdicts, so the table stays whole, beside no
// single check. Tests of one Connect check live in its check_<id>_test.go.
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
