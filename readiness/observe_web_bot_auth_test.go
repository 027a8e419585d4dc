package readiness

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ed25519JWK(t testing.TB) string {
	pub, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	return fmt.Sprintf(`{"kty": "OKP", "crv": "Ed25519", "kid": "bot-2026", "x": %q}`, base64.RawURLEncoding.EncodeToString(pub))
}

// signedDirectory serves a key directory of one Ed25519 key, signed by it
// as the directory draft asks (RFC 9421: "@authority";req, tag
// http-message-signatures-directory, keyid the key's RFC 7638
// thumbprint), for the authority given; requestTag signs it with a bot
// request's tag instead.
func signedDirectory(t testing.TB, authority string, requestTag bool) http.HandlerFunc {
	pub, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	jwk := jose.JSONWebKey{Key: pub}
	keyid, err := jwkThumbprint(&jwk)
	require.NoError(t, err)
	tag := tagDirectory
	if requestTag {
		tag = tagWebBotAuth
	}
	now := time.Now().Unix()
	params := fmt.Sprintf(`("@authority";req);created=%d;keyid="%s";alg="ed25519";expires=%d;tag="%s"`, now-10, keyid, now+3600, tag)
	base := "\"@authority\";req: " + authority + "\n\"@signature-params\": " + params
	sig := ed25519.Sign(priv, []byte(base))
	body := fmt.Sprintf(`{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": %q}]}`, base64.RawURLEncoding.EncodeToString(pub))
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Signature-Input", "sig1="+params)
		w.Header().Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(sig)+":")
		text(webBotAuthMedia, body)(w, r)
	}
}

// webBotAuthCases are the cases of the web_bot_auth observation.
func webBotAuthCases(t testing.TB) []observationCase {
	manyKeys := `{"keys": [` + strings.TrimSuffix(strings.Repeat(`{"kty": "OKP", "crv": "Ed25519", "x": "AAAA"},`, 1000), ",") + `]}`
	var inputs, sigs []string
	for i := range 7 {
		inputs = append(inputs, fmt.Sprintf(`s%d=("@authority");tag="%s";keyid="k"`, i, tagDirectory))
		sigs = append(sigs, fmt.Sprintf("s%d=:AAAA:", i))
	}
	manySigInputs, manySigs := strings.Join(inputs, ", "), strings.Join(sigs, ", ")
	return []observationCase{
		{name: "bot auth: a JWK Set", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": text(webBotAuthMedia, `{"keys": [`+ed25519JWK(t)+`]}`)},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "a JWK Set of 1 key, 1 valid")
			}},
		{name: "bot auth: a directory signed by its own key", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": signedDirectory(t, "shop.example", false)},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "the response's signature sig1 verifies with the directory's key ")
			}},
		{name: "bot auth: a directory signed for another authority", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": signedDirectory(t, "other.example", false)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "the response's signature sig1: the Ed25519 signature does not verify")
			}},
		{name: "bot auth: a directory signed with a request's tag", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": signedDirectory(t, "shop.example", true)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), `tag "web-bot-auth", not "http-message-signatures-directory"`)
			}},
		{name: "bot auth: a Signature Agent Card with its keys", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": text(webBotAuthMedia,
				`{"client_id": "https://shop.example/.well-known/http-message-signatures-directory", "client_name": "Shop bot", "jwks": {"keys": [`+ed25519JWK(t)+`]}}`)},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "a Signature Agent Card with a JWK Set of 1 key, 1 valid")
			}},
		{name: "bot auth: a Signature Agent Card with jwks and jwks_uri", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": text(webBotAuthMedia,
				`{"client_id": "https://shop.example/bot", "jwks_uri": "https://shop.example/jwks.json", "jwks": {"keys": []}}`)},
			want: ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, "card must not contain both jwks and jwks_uri")
				assert.Contains(t, notes, "client_id must match the card URL")
			}},
		{name: "bot auth: a Signature Agent Card with a broken key", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": text(webBotAuthMedia,
				`{"client_id": "https://shop.example/.well-known/http-message-signatures-directory", "jwks": {"keys": [`+ed25519JWK(t)+`, {"crv": "P-256"}]}}`)},
			want: ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "with 1 problem: a Signature Agent Card with a JWK Set of 2 keys, 1 valid")
				assert.Contains(t, o.Receipt.Notes, `/jwks/keys/1: no "kty"`, "the key's problem once, at its pointer in the card")
			}},
		{name: "bot auth: more signatures than are verified", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": withHeaders(text(webBotAuthMedia, `{"keys": [`+ed25519JWK(t)+`]}`),
				"Signature-Input", manySigInputs, "Signature", manySigs)},
			want: ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, fmt.Sprintf("verified the first %d signatures", maxDirectorySignatures))
				assert.Equal(t, maxDirectorySignatures, strings.Count(notes, "the response's signature s"), "the first 5 of 7 judged")
				assert.NotContains(t, notes, "signature s5")
			}},
		{name: "bot auth: none", id: "web_bot_auth", want: ObservationAbsent},
		{name: "bot auth: a private key and a broken one", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": text("application/json",
				`{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "d": "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}, {"kty": "OKP", "crv": "Ed25519", "x": "short"}, {"crv": "P-256"}]}`)},
			want: ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, `/keys/0: a private or symmetric key member "d" is published`)
				assert.Contains(t, notes, "/keys/1: not a valid OKP key")
				assert.Contains(t, notes, `/keys/2: no "kty"`)
				assert.Contains(t, notes, `served as "application/json"`)
			}},
		{name: "bot auth: a thousand keys", id: "web_bot_auth",
			paths: map[string]http.HandlerFunc{"/.well-known/http-message-signatures-directory": text(webBotAuthMedia, manyKeys)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "read the first 100 of 1000 keys")
			}},
	}
}

func FuzzJWKProblem(f *testing.F) {
	f.Add([]byte(`{"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`))
	f.Add([]byte(`{"kty": "RSA", "n": "AQAB", "e": "AQAB"}`))
	f.Add([]byte(`{"kty": "EC", "crv": "P-256", "x": "", "y": ""}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var v any
		if json.Unmarshal(body, &v) != nil {
			return
		}
		_ = jwkProblem(v)
	})
}

// readVectors decodes the web-bot-auth test vector file name into v.
func readVectors(t testing.TB, name string, v any) {
	b, err := os.ReadFile("testdata/webbotauth/" + name)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}

// The test vectors are cloudflare/web-bot-auth's signed requests, v1 and v2
// of the architecture draft. Every signature verifies with the vector's key,
// found by its RFC 7638 thumbprint. It fails once a byte of the signature
// base changes.
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
