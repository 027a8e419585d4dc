package mcpprobe

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProbeSignIn(t *testing.T) {
	tests := []struct {
		name  string
		site  *site
		check func(t *testing.T, r *Receipt, s *site)
	}{
		{
			name: "401 before any version: the 2025-11-25 rules, every document labelled",
			site: &site{mcp: bearer("https://shop.example/.well-known/oauth-protected-resource/mcp"), docs: map[string]string{
				"/.well-known/oauth-protected-resource/mcp": prm,
				"/tenant/.well-known/openid-configuration":  as,
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.Equal(t, OutcomeSignInRequired, r.Outcome)
				assert.True(t, r.Auth.BeforeVersion)
				assert.Equal(t, "2025-11-25", r.Auth.Rules)
				assert.Empty(t, r.Protocol.Negotiated)
				assert.True(t, r.Auth.OAuthMetadata)
				var got []string
				for _, d := range r.Auth.Documents {
					got = append(got, fmt.Sprintf("%s %s %d %t", d.Version, d.URL, d.Status, d.Used))
				}
				assert.Equal(t, []string{
					"2025-06-18 https://shop.example/.well-known/oauth-protected-resource/mcp 200 true",
					"2025-06-18 https://shop.example/.well-known/oauth-authorization-server/tenant 404 false",
					"2025-11-25 https://shop.example/.well-known/openid-configuration/tenant 404 false",
					"2025-11-25 https://shop.example/tenant/.well-known/openid-configuration 200 true",
				}, got)
				assert.Nil(t, r.Auth.Failure())
			},
		},
		{
			name: "a Bearer challenge without resource_metadata: path-inserted, then root well-known URI",
			site: &site{mcp: bearer(""), docs: map[string]string{
				"/.well-known/oauth-protected-resource":          prm,
				"/.well-known/oauth-authorization-server/tenant": as,
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.Equal(t, OutcomeSignInRequired, r.Outcome)
				assert.True(t, r.Outcome.IsMCP())
				assert.Equal(t, "https://shop.example/.well-known/oauth-protected-resource", r.Auth.ResourceMetadataURL)
				assert.Equal(t, "https://shop.example/.well-known/oauth-protected-resource/mcp", r.Auth.Documents[0].URL)
				assert.Equal(t, []string{"S256"}, r.Auth.PKCE)
				assert.True(t, r.Auth.DynamicRegistration)
			},
		},
		{
			name: "an issuer that does not match: its data is not used",
			site: &site{mcp: bearer(""), docs: map[string]string{
				"/.well-known/oauth-protected-resource/mcp":      prm,
				"/.well-known/oauth-authorization-server/tenant": strings.Replace(as, "https://shop.example/tenant", "https://evil.example", 1),
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.False(t, r.Auth.OAuthMetadata)
				assert.Nil(t, r.Auth.AuthorizationServer)
				assert.Empty(t, r.Auth.PKCE)
				assert.False(t, r.Auth.DynamicRegistration)
				f := r.Auth.Failure()
				require.NotNil(t, f)
				assert.Equal(t, "https://shop.example/.well-known/oauth-authorization-server/tenant", f.URL)
				assert.Contains(t, f.Problem, "RFC 8414 Section 3.3")
			},
		},
		{
			name: "no protected resource metadata: the origin's RFC 8414 metadata, marked",
			site: &site{mcp: bearer(""), docs: map[string]string{"/.well-known/oauth-authorization-server": originAS}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.True(t, r.Auth.OAuthMetadata)
				assert.True(t, r.Auth.OriginFallback)
				assert.Equal(t, "2025-03-26", r.Auth.Documents[len(r.Auth.Documents)-1].Version)
			},
		},
		{
			name: "nothing at all: the failure names the URL and the status",
			site: &site{mcp: bearer("")},
			check: func(t *testing.T, r *Receipt, s *site) {
				f := r.Auth.Failure()
				require.NotNil(t, f)
				assert.Equal(t, 404, f.Status)
				assert.Contains(t, f.Problem, "404")
				assert.NotEmpty(t, f.URL)
			},
		},
		{
			name: "a 2025-03-26 session: only the origin's metadata",
			site: &site{mcp: listBehindBearer(newServer(1, []string{"2025-03-26"})), docs: map[string]string{
				"/.well-known/oauth-authorization-server":   originAS,
				"/.well-known/oauth-protected-resource/mcp": prm,
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.Equal(t, OutcomeSignInRequired, r.Outcome)
				assert.True(t, r.Initialize)
				assert.False(t, r.Auth.BeforeVersion)
				assert.Equal(t, "2025-03-26", r.Auth.Rules)
				assert.True(t, r.Auth.OAuthMetadata)
				assert.NotContains(t, s.asked(), "/.well-known/oauth-protected-resource/mcp", "2025-03-26 has no protected resource metadata")
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := probe(t, tc.site, nil)
			for _, d := range r.Auth.Documents {
				if !d.Used {
					assert.NotEmpty(t, d.Problem, "a document not used says why: %s", d.URL)
				}
			}
			tc.check(t, r, tc.site)
		})
	}
}

// listBehindBearer answers tools/list with 401 and a Bearer challenge.
func listBehindBearer(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body = io.NopCloser(bytes.NewReader(b))
		if bytes.Contains(b, []byte(`"tools/list"`)) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="shop"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
