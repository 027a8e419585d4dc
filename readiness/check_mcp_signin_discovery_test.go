package readiness

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

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
