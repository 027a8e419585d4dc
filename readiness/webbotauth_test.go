package readiness

import (
	"encoding/json"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readVectors(t testing.TB, name string, v any) {
	b, err := os.ReadFile("testdata/webbotauth/" + name)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}

// cloudflare/web-bot-auth's signed requests, v1 and v2 of the
// architecture draft: every signature verifies with the vector's key,
// found by its RFC 7638 thumbprint, and fails once a byte of the
// signature base changes.
func TestWebBotAuthArchitectureVectors(t *testing.T) {
	for _, file := range []string{"web_bot_auth_architecture_v1.json", "web_bot_auth_architecture_v2.json"} {
		var vectors []struct {
			Key            json.RawMessage `json:"key"`
			TargetURL      string          `json:"target_url"`
			CreatedMS      int64           `json:"created_ms"`
			Label          string          `json:"label"`
			Signature      string          `json:"signature"`
			SignatureInput string          `json:"signature_input"`
			SignatureAgent string          `json:"signature_agent"`
		}
		readVectors(t, file, &vectors)
		require.NotEmpty(t, vectors)
		for i, v := range vectors {
			t.Run(file+"/"+v.Label+"/"+string(rune('a'+i)), func(t *testing.T) {
				var k jose.JSONWebKey
				require.NoError(t, k.UnmarshalJSON(v.Key))
				pub := k.Public()
				u, err := url.Parse(v.TargetURL)
				require.NoError(t, err)
				sig := httpSig{label: v.Label, input: v.SignatureInput, signature: v.Signature, authority: u.Host, signatureAgent: v.SignatureAgent, tag: tagWebBotAuth}
				at := time.UnixMilli(v.CreatedMS)
				keyid, err := verifyHTTPSig(sig, []jose.JSONWebKey{pub}, at)
				require.NoError(t, err)
				tp, err := jwkThumbprint(&pub)
				require.NoError(t, err)
				assert.Equal(t, tp, keyid)

				other := sig
				other.authority = "example.org"
				_, err = verifyHTTPSig(other, []jose.JSONWebKey{pub}, at)
				assert.Error(t, err, "another authority, another base")
				other = sig
				other.tag = tagDirectory
				_, err = verifyHTTPSig(other, []jose.JSONWebKey{pub}, at)
				assert.ErrorContains(t, err, "tag")
				_, err = verifyHTTPSig(sig, []jose.JSONWebKey{pub}, time.Unix(4889289600+1, 0))
				assert.ErrorContains(t, err, "expires")
				_, err = verifyHTTPSig(sig, nil, at)
				assert.ErrorContains(t, err, "no key whose thumbprint")
			})
		}
	}
}

func TestWebBotAuthSignatureAgentVectors(t *testing.T) {
	var vectors []struct {
		Name    string `json:"name"`
		Header  string `json:"header"`
		Entries []struct {
			Label, URI, Type string
		} `json:"entries"`
	}
	readVectors(t, "web_bot_auth_signature_agent_v1.json", &vectors)
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			got, err := parseSignatureAgent(v.Header)
			require.NoError(t, err)
			require.Len(t, got, len(v.Entries))
			for i, e := range v.Entries {
				assert.Equal(t, sigAgentEntry{e.Label, e.URI, e.Type}, got[i])
			}
		})
	}
	for name, h := range map[string]string{
		"legacy string item":    `"https://signature-agent.test"`,
		"a jwks_uri over http":  `sig1="http://a.test/jwks.json";type=jwks_uri`,
		"an unknown type":       `sig1="https://a.test";type=other`,
		"not a string":          `sig1=7`,
		"neither dict nor item": `"unterminated`,
	} {
		t.Run(name, func(t *testing.T) {
			got, err := parseSignatureAgent(h)
			if name == "legacy string item" {
				require.NoError(t, err)
				assert.Equal(t, []sigAgentEntry{{"", "https://signature-agent.test", "directory"}}, got)
				return
			}
			assert.Error(t, err)
		})
	}
}

func TestWebBotAuthCardVectors(t *testing.T) {
	var vectors []struct {
		Name  string `json:"name"`
		URL   string `json:"url"`
		Valid bool   `json:"valid"`
		Error string `json:"error"`
		Card  any    `json:"card"`
	}
	readVectors(t, "web_bot_auth_signature_agent_card_v1.json", &vectors)
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			problems := signatureAgentCardProblems(v.Card, v.URL)
			if v.Valid {
				assert.Empty(t, problems)
				return
			}
			assert.Contains(t, problems, v.Error)
		})
	}
	assert.Contains(t, signatureAgentCardProblems(map[string]any{"client_id": "https://a.test/bot"}, ""), "card must contain either jwks or jwks_uri")
	assert.Contains(t, signatureAgentCardProblems([]any{}, ""), "/: a signature agent card is an object")
}

func TestWebBotAuthRegistryVectors(t *testing.T) {
	var vectors []struct {
		Name  string   `json:"name"`
		Txt   string   `json:"registry_txt"`
		Cards []string `json:"signature_agent_cards"`
	}
	readVectors(t, "web_bot_auth_registry_v1.json", &vectors)
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			got, err := parseBotRegistry(v.Txt)
			require.NoError(t, err)
			assert.Equal(t, v.Cards, got)
		})
	}
	_, err := parseBotRegistry("http://bot.example/card\n")
	assert.ErrorContains(t, err, "registry line 1")
}

func FuzzParseSignatureAgent(f *testing.F) {
	for _, s := range []string{`sig1="https://a.test"`, `sig1="https://a.test/c";type=cimd, sig2="https://b.test"`, `"https://a.test"`, `a=(1 2)`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		es, err := parseSignatureAgent(h)
		if err == nil {
			assert.NotEmpty(t, es)
			for _, e := range es {
				assert.Contains(t, []string{"directory", "jwks_uri", "cimd"}, e.typ)
			}
		}
		_, _ = parseBotRegistry(h)
		_ = signatureAgentCardProblems(map[string]any{"client_id": h, "jwks_uri": h}, h)
	})
}
