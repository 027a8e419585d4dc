package agentsignup

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// TestJWKSOver64KiBIsRefused holds the 64 KiB cap of a JWK Set: ParseJWKS
// refuses a larger set, and a key set refuses a larger body as too large.
func TestJWKSOver64KiBIsRefused(t *testing.T) {
	set := jwksJSON(okpJWK(testKey(1), "k1"))
	big := append(bytes.Repeat([]byte(" "), maxJWKSBytes+1-len(set)), set...)
	_, err := ParseJWKS(big)
	assert.ErrorIs(t, err, ErrJWKS)
	keys, err := ParseJWKS(big[1:])
	require.NoError(t, err, "64 KiB exactly is within the cap")
	assert.Len(t, keys, 1)

	n := newNet(t)
	jw := &jwksSite{}
	jw.set("application/json", big)
	n.Site("agentregistrar.dev", jw)
	ks, err := NewJWKSKeySet(testIssuer, "https://agentregistrar.dev/jwks.json", &JWKSOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.ErrorIs(t, ks.Refresh(t.Context()), safefetch.ErrTooLarge)
}
