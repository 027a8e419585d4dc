package readiness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMCPDocumentedAccessPartial(t *testing.T) {
	card := `{"name": "Shop", "interfaces": [{"type": "mcp", "url": "https://shop.example/mcp", "auth": "oauth2"}]}`
	r := scanMux(t, "shop.example", &connectSite{card: card, docs: oauthDocs, mcp: newMCPServer(2, false, nil, 0)}, 5*time.Second)
	c := checkByID(r, "mcp_documented_access")
	assert.Equal(t, VerdictPartial, c.Verdict, c.Receipt.Received)
	assert.Contains(t, c.Receipt.Received, "sign-in exists, but nothing states")
	assert.Equal(t, VerdictPass, checkByID(r, "mcp_signin_discovery").Verdict, "the card says the interface needs OAuth, so sign-in discovery applies")
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
