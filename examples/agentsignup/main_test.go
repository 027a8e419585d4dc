package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentweb/agentweb/examples/internal/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

func runCmd(t *testing.T, n *fetchtest.Network, args ...string) (int, map[string]any, string) {
	t.Helper()
	code, out, errb := clitest.Run(t, run, n, args...)
	var m map[string]any
	if len(out) > 0 {
		require.NoError(t, json.Unmarshal(out, &m), string(out))
	}
	return code, m, errb
}

func seedDoc(t *testing.T, attestation string) *agentsignup.Document {
	t.Helper()
	d, err := agentsignup.NewDocument(agentsignup.Document{
		Audience:        "example-rp",
		ProviderName:    "Example RP",
		IssuerAllowlist: []string{"https://agentregistrar.dev"},
		RequiredScopes:  []string{"tos:accept"},
		Terms:           agentsignup.Terms{Version: "2026.1", URL: "https://example.com/terms", Text: "Example RP Terms of Service. The agent acts for a verified human owner, and the human owner is bound by these terms."},
		Endpoints:       agentsignup.Endpoints{AgentSignup: "https://example.com/api/signup/agent"},
		RPAttestation:   attestation,
	})
	require.NoError(t, err)
	return d
}

func TestValidate(t *testing.T) {
	good := writeFile(t, "good.json", seedDoc(t, "").Bytes())
	code, m, _ := runCmd(t, nil, "validate", good)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, true, m["valid"])
	assert.Equal(t, "agent_signup", m["kind"])
	assert.Equal(t, "sha256:05435fa3eaee7f3534b4a771ab2328d66d33f712f3534b29e9035717c246d953", m["details"].(map[string]any)["terms_sha256"])
	assert.Empty(t, m["problems"])

	bad := writeFile(t, "bad.json", bytes.Replace(seedDoc(t, "").Bytes(), []byte(`"https://example.com/terms"`), []byte(`"http://example.com/terms"`), 1))
	code, m, _ = runCmd(t, nil, "validate", bad)
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, false, m["valid"])
	require.Len(t, m["problems"], 1)
	assert.Equal(t, "url-https", m["problems"].([]any)[0].(map[string]any)["rule"])

	code, _, stderr := runCmd(t, nil, "validate", filepath.Join(t.TempDir(), "missing.json"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "missing.json")
}

func TestHash(t *testing.T) {
	p := writeFile(t, "terms.txt", []byte("Example RP Terms of Service. The agent acts for a verified human owner, and the human owner is bound by these terms."))
	code, m, _ := runCmd(t, nil, "hash", p)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "sha256:05435fa3eaee7f3534b4a771ab2328d66d33f712f3534b29e9035717c246d953", m["sha256"])
	crlf := writeFile(t, "crlf.txt", []byte("a\r\n"))
	_, m, _ = runCmd(t, nil, "hash", crlf)
	assert.Equal(t, agentsignup.TermsHash("a\r\n"), m["sha256"], "exact bytes")
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"validate"}, {"hash", "a", "b"}, {"fetch"}, {"fetch", "a", "b"}, {"fetch", "--bogus", "x"}} {
		code, _, stderr := runCmd(t, nil, args...)
		assert.Equal(t, exitUsage, code, "%q", args)
		assert.NotEmpty(t, stderr)
	}
}

func TestFetch(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	now := time.Now()
	claims, _ := json.Marshal(map[string]any{
		"iss": "https://agentregistrar.dev", "iat": now.Add(-time.Hour).Unix(), "exp": now.Add(time.Hour).Unix(),
		"rp": map[string]any{"origin": "https://example.com", "audience": "example-rp"},
	})
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"EdDSA","typ":"agent-rp-attestation+jwt"}`))
	input := header + "." + base64.RawURLEncoding.EncodeToString(claims)
	token := input + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(input)))

	n := fetchtest.New()
	t.Cleanup(n.Close)
	h, err := agentsignup.Handler(seedDoc(t, token), nil)
	require.NoError(t, err)
	n.Site("example.com", h)
	jwks, _ := json.Marshal(map[string]any{"keys": []any{map[string]any{"kty": "OKP", "crv": "Ed25519", "x": base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))}}})
	n.Site("agentregistrar.dev", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(jwks)
	}))
	n.Site("text.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(seedDoc(t, "").Bytes())
	}))
	status := func(m map[string]any) any {
		return m["fetch"].(map[string]any)["attestation"].(map[string]any)["status"]
	}

	code, m, _ := runCmd(t, n, "fetch", "example.com")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "untrusted-issuer", status(m), "no keys given")

	code, m, _ = runCmd(t, n, "fetch", "example.com", "--jwks", "https://agentregistrar.dev/jwks.json")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "verified", status(m))
	assert.Equal(t, "https://example.com/.well-known/agent-signup.json", m["fetch"].(map[string]any)["url"])

	file := writeFile(t, "jwks.json", jwks)
	code, m, _ = runCmd(t, n, "fetch", "--jwks", file, "https://example.com")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "verified", status(m))

	code, m, _ = runCmd(t, n, "fetch", "example.com", "--jwks", file, "--issuer", "https://other.example")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "untrusted-issuer", status(m))

	code, m, _ = runCmd(t, n, "fetch", "text.example")
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, m["error"], "content type")

	code, _, _ = runCmd(t, n, "fetch", "example.com", "--jwks", filepath.Join(t.TempDir(), "none.json"))
	assert.Equal(t, exitUsage, code)
}
