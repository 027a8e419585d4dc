package agentsignup

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

const seedHash = "sha256:05435fa3eaee7f3534b4a771ab2328d66d33f712f3534b29e9035717c246d953"

func seedBytes(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "agent-signup-example.json"))
	require.NoError(t, err)
	return b
}

// seedTree returns the seed example as a generic tree to mutate.
func seedTree(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(seedBytes(t), &m))
	return m
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func problemsOf(t testing.TB, err error) *ValidationError {
	t.Helper()
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	return ve
}

func TestParseSeedExample(t *testing.T) {
	data := seedBytes(t)
	d, err := Parse(data)
	require.NoError(t, err)
	assert.Empty(t, d.Warnings, "zero warnings")
	assert.Empty(t, d.Unknown)
	assert.Equal(t, Protocol, d.Protocol)
	assert.Equal(t, "example-rp", d.Audience)
	assert.Equal(t, "Example RP", d.ProviderName)
	assert.Equal(t, []string{"https://agentregistrar.dev"}, d.IssuerAllowlist)
	assert.Equal(t, []string{"tos:accept"}, d.RequiredScopes)
	assert.Equal(t, "2026.1", d.Terms.Version)
	assert.Equal(t, "https://example.com/terms", d.Terms.URL)
	assert.Equal(t, seedHash, d.Terms.SHA256)
	assert.Equal(t, seedHash, TermsHash(d.Terms.Text), "the seed's hash is the real SHA-256 of its text")
	assert.Equal(t, "https://example.com/api/signup/agent", d.Endpoints.AgentSignup)
	assert.Empty(t, d.RPAttestation)
	assert.Equal(t, data, d.Bytes())
}

func TestTermsHash(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "abc", "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"seed", "Example RP Terms of Service. The agent acts for a verified human owner, and the human owner is bound by these terms.", seedHash},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, TermsHash(tt.text))
		})
	}
	t.Run("no normalisation", func(t *testing.T) {
		variants := []string{"Terms.\n", "Terms.\r\n", "Terms.", " Terms.", "Terms.\t", "Te\u0301rms.", "Térms."}
		seen := map[string]string{}
		for _, v := range variants {
			h := TermsHash(v)
			assert.NotContains(t, seen, h, "%q hashes like %q", v, seen[h])
			seen[h] = v
		}
	})
}

func TestParseWarnings(t *testing.T) {
	m := seedTree(t)
	m["contact"] = "ops@example.com"
	m["terms"].(map[string]any)["summary"] = "short"
	m["endpoints"].(map[string]any)["agent_status"] = "https://example.com/api/status"
	m["extensions"] = map[string]any{"com.example": map[string]any{"team": "identity"}}
	d, err := Parse(marshal(t, m))
	require.NoError(t, err, "unknown members are accepted")
	var got []string
	for _, w := range d.Warnings {
		assert.Equal(t, RuleUnknownField, w.Rule)
		got = append(got, w.Pointer)
	}
	assert.Equal(t, []string{"/contact", "/endpoints/agent_status", "/terms/summary"}, got)
	assert.JSONEq(t, `"ops@example.com"`, string(d.Unknown["contact"]))
	assert.JSONEq(t, `{"team":"identity"}`, string(d.Extensions["com.example"]))
}

func TestParseReportsEveryProblem(t *testing.T) {
	m := seedTree(t)
	delete(m, "audience")
	m["provider_name"] = ""
	m["terms"].(map[string]any)["url"] = "http://example.com/terms"
	m["pricing"] = map[string]any{"plan": "pro"}
	m["extensions"] = map[string]any{"example": map[string]any{}}
	m["mystery"] = true
	_, err := Parse(marshal(t, m))
	ve := problemsOf(t, err)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.NotErrorIs(t, err, ErrNotAgentIdentity)
	var got []string
	for _, p := range ve.Problems {
		got = append(got, p.Pointer+" "+p.Rule)
	}
	assert.Equal(t, []string{
		"/audience schema-required",
		"/extensions/example extension-namespace",
		"/pricing forbidden-field",
		"/provider_name schema-minLength",
		"/terms/url url-https",
	}, got)
	require.Len(t, ve.Warnings, 1)
	assert.Equal(t, "/mystery", ve.Warnings[0].Pointer)
	assert.Contains(t, err.Error(), "5 problems")
}

func TestParseOtherProtocol(t *testing.T) {
	tests := []struct {
		name, doc, pointer, contains string
	}{
		{"no protocol member", `{"version":"1.0","signup_url":"http://x.example/signup","fields":["email"],"capabilities":["a"]}`, "", "no protocol member"},
		{"other protocol value", `{"protocol":"agent-signup-v2","audience":"x"}`, "/protocol", `"agent-signup-v2"`},
		{"protocol of wrong type", `{"protocol":["agent-identity-v1"]}`, "/protocol", "protocol is"},
		{"array document", `[{"protocol":"agent-identity-v1"}]`, "", "not a JSON object"},
		{"string document", `"agent-identity-v1"`, "", "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			ve := problemsOf(t, err)
			require.Len(t, ve.Problems, 1, "one clear error, not a list")
			assert.Empty(t, ve.Warnings)
			p := ve.Problems[0]
			assert.Equal(t, RuleNotAgentIdentity, p.Rule)
			assert.Equal(t, tt.pointer, p.Pointer)
			assert.Contains(t, p.Message, tt.contains)
			assert.ErrorIs(t, err, ErrNotAgentIdentity)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.True(t, strings.HasPrefix(err.Error(), "agentsignup: not an agent-identity-v1 document"), err.Error())
		})
	}
}

func TestIsReverseDNS(t *testing.T) {
	good := []string{"com.example", "dev.agentregistrar.beta", "io.github.user-name", "xn--p1ai.example", "org.w3", "uk.co.example2"}
	bad := []string{"", "example", "Com.Example", "com.example.", ".com.example", "com..example", "com.-x", "com.x-", "1com.example", "com.exa_mple", "com.ex ample", strings.Repeat("a", 64) + ".com", "com." + strings.Repeat("a.", 130) + "b"}
	for _, s := range good {
		assert.True(t, IsReverseDNS(s), s)
	}
	for _, s := range bad {
		assert.False(t, IsReverseDNS(s), s)
	}
}

func TestForbiddenFieldsTable(t *testing.T) {
	table := ForbiddenFields()
	require.NotEmpty(t, table)
	for i, f := range table {
		assert.Equal(t, foldName(f.Name), f.Name, "table names are folded")
		assert.Contains(t, []ForbiddenClass{ForbiddenClassCapability, ForbiddenClassProviderIdentity, ForbiddenClassPrivate}, f.Class)
		if i > 0 {
			assert.Less(t, table[i-1].Name, f.Name, "sorted and unique")
		}
		t.Run(f.Name, func(t *testing.T) {
			// Each name is caught at the top level, nested in an array in
			// extensions, and spelt in upper case with hyphens.
			for _, name := range []string{f.Name, strings.ToUpper(strings.ReplaceAll(f.Name, "_", "-"))} {
				m := seedTree(t)
				m[name] = 1
				m["extensions"] = map[string]any{"com.example": map[string]any{"list": []any{map[string]any{name: "x"}}}}
				_, err := Parse(marshal(t, m))
				ve := problemsOf(t, err)
				var got []string
				for _, p := range ve.Problems {
					assert.Equal(t, RuleForbiddenField, p.Rule)
					got = append(got, p.Pointer)
				}
				assert.ElementsMatch(t, []string{"/" + name, "/extensions/com.example/list/0/" + name}, got)
				assert.Empty(t, ve.Warnings, "a forbidden member is not also an unknown-field warning")
			}
		})
	}
	table[0].Name = "mutated"
	assert.NotEqual(t, "mutated", ForbiddenFields()[0].Name, "ForbiddenFields returns a copy")
}

func TestValidationErrorMessage(t *testing.T) {
	e := invalid([]Problem{
		{Pointer: "/a", Rule: "r1", Message: "m1"},
		{Pointer: "", Rule: "r2", Message: "m2"},
		{Pointer: "/c", Rule: "r3", Message: "m3"},
		{Pointer: "/d", Rule: "r4", Message: "m4"},
		{Pointer: "/e", Rule: "r5", Message: "m5"},
		{Pointer: "/f", Rule: "r6", Message: "m6"},
	}, nil)
	assert.Equal(t, "agentsignup: document does not conform: 6 problems: /a: m1 [r1]; (document): m2 [r2]; /c: m3 [r3]; /d: m4 [r4]; /e: m5 [r5]; and 1 more", e.Error())
	one := invalid([]Problem{{Pointer: "/a", Rule: "r", Message: "m"}}, nil)
	assert.Equal(t, "agentsignup: document does not conform: 1 problem: /a: m [r]", one.Error())
	assert.True(t, errors.Is(one, ErrInvalid))
	assert.False(t, errors.Is(one, ErrNotAgentIdentity))
	other := invalid([]Problem{{Rule: RuleNotAgentIdentity, Message: "m"}}, nil)
	assert.True(t, errors.Is(other, ErrInvalid))
	assert.True(t, errors.Is(other, ErrNotAgentIdentity))
}

func TestSchemaEmbedded(t *testing.T) {
	var s map[string]any
	require.NoError(t, json.Unmarshal(Schema(), &s))
	assert.Equal(t, SchemaURL, s["$id"])
	assert.NotNil(t, compiledSchema())
}

// TestSchemaMatchesAgreementCopy checks that internal/schema's agreement
// tests, which check its fast checker on this schema, test this schema.
func TestSchemaMatchesAgreementCopy(t *testing.T) {
	cp, err := os.ReadFile(filepath.Join("..", "internal", "schema", "testdata", "agreement", "agentsignup.schema.json"))
	require.NoError(t, err)
	assert.Equal(t, string(schemaJSON), string(cp), "copy agent-signup.schema.json to internal/schema/testdata/agreement/agentsignup.schema.json and add documents for the change to agentsignup.docs.json")
}
