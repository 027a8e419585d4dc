package mcpprobe

import (
	"context"
	"testing"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProbeNormalizesEndpointBeforeComparingIdentifiers(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", &site{mcp: bearer(""), docs: map[string]string{
		"/.well-known/oauth-protected-resource/mcp":      prm,
		"/.well-known/oauth-authorization-server/tenant": as,
	}})
	for _, endpoint := range []string{"https://shop.example/mcp", "https://shop.example:443/mcp", "https://SHOP.example./mcp", "HTTPS://Shop.Example.:443/mcp#x"} {
		t.Run(endpoint, func(t *testing.T) {
			r, err := Probe(context.Background(), endpoint, &Options{Client: n.Client()})
			require.NoError(t, err)
			assert.Equal(t, "https://shop.example/mcp", r.Endpoint, "the receipt states the normalized endpoint")
			assert.Equal(t, OutcomeSignInRequired, r.Outcome)
			assert.True(t, r.Auth.OAuthMetadata, "the metadata's resource matches the endpoint however it was written")
			require.NotNil(t, r.Auth.ProtectedResource)
			assert.Nil(t, r.Auth.Failure())
		})
	}
}
