package agentsignup

import (
	"bytes"
	"encoding/base64"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/corpustest"
)

func termsOf(m map[string]any) map[string]any     { return m["terms"].(map[string]any) }
func endpointsOf(m map[string]any) map[string]any { return m["endpoints"].(map[string]any) }

func b64json(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// defects are the defective documents of the corpus: each is the seed
// example with exactly one defect.
var defects = []corpustest.Defect{
	{Name: "audience-missing", Mutate: func(m map[string]any) { delete(m, "audience") }, Pointer: "/audience", Rule: "schema-required"},
	{Name: "audience-whitespace", Mutate: func(m map[string]any) { m["audience"] = "example rp" }, Pointer: "/audience", Rule: "schema-pattern"},
	{Name: "audience-number", Mutate: func(m map[string]any) { m["audience"] = 42 }, Pointer: "/audience", Rule: "schema-type"},
	{Name: "provider-name-empty", Mutate: func(m map[string]any) { m["provider_name"] = "" }, Pointer: "/provider_name", Rule: "schema-minLength"},
	{Name: "provider-name-161", Mutate: func(m map[string]any) { m["provider_name"] = strings.Repeat("é", 161) }, Pointer: "/provider_name", Rule: "schema-maxLength"},
	{Name: "issuer-allowlist-empty", Mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{} }, Pointer: "/issuer_allowlist", Rule: "schema-minItems"},
	{Name: "issuer-allowlist-duplicate", Mutate: func(m map[string]any) {
		m["issuer_allowlist"] = []any{"https://agentregistrar.dev", "https://agentregistrar.dev"}
	}, Pointer: "/issuer_allowlist", Rule: "schema-uniqueItems"},
	{Name: "issuer-http", Mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"http://agentregistrar.dev"} }, Pointer: "/issuer_allowlist/0", Rule: RuleURLHTTPS},
	{Name: "issuer-with-path", Mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://agentregistrar.dev/oauth"} }, Pointer: "/issuer_allowlist/0", Rule: RuleIssuerNotOrigin},
	{Name: "issuer-upper-case", Mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://AgentRegistrar.dev"} }, Pointer: "/issuer_allowlist/0", Rule: RuleIssuerNotOrigin},
	{Name: "issuer-default-port", Mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://agentregistrar.dev:443"} }, Pointer: "/issuer_allowlist/0", Rule: RuleIssuerNotOrigin},
	{Name: "issuer-userinfo", Mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://rp:pw@agentregistrar.dev"} }, Pointer: "/issuer_allowlist/0", Rule: RuleURLUserinfo},
	{Name: "required-scopes-missing", Mutate: func(m map[string]any) { delete(m, "required_scopes") }, Pointer: "/required_scopes", Rule: "schema-required"},
	{Name: "required-scopes-empty-string", Mutate: func(m map[string]any) { m["required_scopes"] = []any{""} }, Pointer: "/required_scopes/0", Rule: "schema-minLength"},
	{Name: "required-scopes-duplicate", Mutate: func(m map[string]any) { m["required_scopes"] = []any{"tos:accept", "tos:accept"} }, Pointer: "/required_scopes", Rule: "schema-uniqueItems"},
	{Name: "terms-missing", Mutate: func(m map[string]any) { delete(m, "terms") }, Pointer: "/terms", Rule: "schema-required"},
	{Name: "terms-text-missing", Mutate: func(m map[string]any) { delete(termsOf(m), "text") }, Pointer: "/terms/text", Rule: "schema-required"},
	{Name: "terms-text-changed", Mutate: func(m map[string]any) { termsOf(m)["text"] = termsOf(m)["text"].(string) + " Amended." }, Pointer: "/terms/sha256", Rule: RuleTermsHash},
	{Name: "terms-text-trailing-newline", Mutate: func(m map[string]any) { termsOf(m)["text"] = termsOf(m)["text"].(string) + "\n" }, Pointer: "/terms/sha256", Rule: RuleTermsHash},
	{Name: "terms-hash-of-crlf-text", Mutate: func(m map[string]any) {
		termsOf(m)["text"] = "Line one.\nLine two.\n"
		termsOf(m)["sha256"] = TermsHash("Line one.\r\nLine two.\r\n")
	}, Pointer: "/terms/sha256", Rule: RuleTermsHash},
	{Name: "terms-hash-upper-hex", Mutate: func(m map[string]any) { termsOf(m)["sha256"] = "sha256:" + strings.ToUpper(seedHash[7:]) }, Pointer: "/terms/sha256", Rule: "schema-pattern"},
	{Name: "terms-hash-no-prefix", Mutate: func(m map[string]any) { termsOf(m)["sha256"] = seedHash[7:] }, Pointer: "/terms/sha256", Rule: "schema-pattern"},
	{Name: "terms-version-empty", Mutate: func(m map[string]any) { termsOf(m)["version"] = "" }, Pointer: "/terms/version", Rule: "schema-minLength"},
	{Name: "terms-url-http", Mutate: func(m map[string]any) { termsOf(m)["url"] = "http://example.com/terms" }, Pointer: "/terms/url", Rule: RuleURLHTTPS},
	{Name: "terms-url-relative", Mutate: func(m map[string]any) { termsOf(m)["url"] = "/terms" }, Pointer: "/terms/url", Rule: RuleURLSyntax},
	{Name: "endpoints-agent-signup-missing", Mutate: func(m map[string]any) { delete(endpointsOf(m), "agent_signup") }, Pointer: "/endpoints/agent_signup", Rule: "schema-required"},
	{Name: "endpoints-agent-signup-userinfo", Mutate: func(m map[string]any) {
		endpointsOf(m)["agent_signup"] = "https://admin:hunter2@example.com/api/signup/agent"
	}, Pointer: "/endpoints/agent_signup", Rule: RuleURLUserinfo},
	{Name: "endpoints-agent-signup-javascript", Mutate: func(m map[string]any) { endpointsOf(m)["agent_signup"] = "javascript:alert(1)" }, Pointer: "/endpoints/agent_signup", Rule: RuleURLSyntax},
	{Name: "forbidden-top-pricing", Mutate: func(m map[string]any) { m["pricing"] = map[string]any{"plan": "pro", "usd": 10} }, Pointer: "/pricing", Rule: RuleForbiddenField},
	{Name: "forbidden-top-capabilities", Mutate: func(m map[string]any) { m["capabilities"] = []any{"orders.read"} }, Pointer: "/capabilities", Rule: RuleForbiddenField},
	{Name: "forbidden-in-terms", Mutate: func(m map[string]any) { termsOf(m)["provider_url"] = "https://example.com" }, Pointer: "/terms/provider_url", Rule: RuleForbiddenField},
	{Name: "forbidden-in-endpoints", Mutate: func(m map[string]any) { endpointsOf(m)["actions"] = []any{"https://example.com/a"} }, Pointer: "/endpoints/actions", Rule: RuleForbiddenField},
	{Name: "forbidden-in-extensions", Mutate: func(m map[string]any) {
		m["extensions"] = map[string]any{"com.example": map[string]any{"tools": []any{"search"}}}
	}, Pointer: "/extensions/com.example/tools", Rule: RuleForbiddenField},
	{Name: "forbidden-deep-in-extensions", Mutate: func(m map[string]any) {
		m["extensions"] = map[string]any{"com.example": map[string]any{"a": map[string]any{"b": []any{map[string]any{"api_key": "sk-live"}}}}}
	}, Pointer: "/extensions/com.example/a/b/0/api_key", Rule: RuleForbiddenField},
	{Name: "forbidden-as-extension-namespace", Mutate: func(m map[string]any) { m["extensions"] = map[string]any{"pricing": map[string]any{}} }, Pointer: "/extensions/pricing", Rule: RuleForbiddenField},
	{Name: "forbidden-case-folded", Mutate: func(m map[string]any) { m["Account-ID"] = "acct_123" }, Pointer: "/Account-ID", Rule: RuleForbiddenField},
	{Name: "forbidden-verified-flag", Mutate: func(m map[string]any) { m["verified"] = true }, Pointer: "/verified", Rule: RuleForbiddenField},
	{Name: "extensions-not-namespace", Mutate: func(m map[string]any) { m["extensions"] = map[string]any{"example": map[string]any{}} }, Pointer: "/extensions/example", Rule: RuleExtensionNamespace},
	{Name: "extensions-value-not-object", Mutate: func(m map[string]any) { m["extensions"] = map[string]any{"com.example": "x"} }, Pointer: "/extensions/com.example", Rule: "schema-type"},
	{Name: "extensions-not-object", Mutate: func(m map[string]any) { m["extensions"] = []any{} }, Pointer: "/extensions", Rule: "schema-type"},
	{Name: "attestation-not-jws", Mutate: func(m map[string]any) { m["rp_attestation"] = "not-a-token" }, Pointer: "/rp_attestation", Rule: RuleAttestationMalformed},
	{Name: "attestation-alg-none", Mutate: func(m map[string]any) {
		m["rp_attestation"] = b64json(`{"alg":"none","typ":"agent-rp-attestation+jwt"}`) + "." + b64json(`{"iss":"https://agentregistrar.dev"}`) + "."
	}, Pointer: "/rp_attestation", Rule: RuleAttestationMalformed},
	{Name: "attestation-not-string", Mutate: func(m map[string]any) { m["rp_attestation"] = map[string]any{"alg": "EdDSA"} }, Pointer: "/rp_attestation", Rule: "schema-type"},
	{Name: "json-duplicate-member", Raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"audience": "example-rp",`), []byte(`"audience": "example-rp", "audience": "evil-rp",`), 1)
	}, Pointer: "/audience", Rule: "json-duplicate-member"},
	{Name: "json-bom", Raw: func(seed []byte) []byte { return append([]byte("\xef\xbb\xbf"), seed...) }, Pointer: "", Rule: "json-bom"},
	{Name: "json-trailing-data", Raw: func(seed []byte) []byte { return append(bytes.Clone(seed), "{}"...) }, Pointer: "", Rule: "json-trailing-data"},
	{Name: "json-invalid-utf8", Raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte("Example RP Terms"), []byte("Example RP \xff Terms"), 1)
	}, Pointer: "/terms/text", Rule: "json-utf8"},
	{Name: "other-protocol", Raw: func([]byte) []byte {
		return []byte(`{"version":"1.0","signup_url":"https://example.com/signup","fields":["email","name"]}`)
	}, Pointer: "", Rule: RuleNotAgentIdentity},
	{Name: "protocol-v2", Mutate: func(m map[string]any) { m["protocol"] = "agent-identity-v2" }, Pointer: "/protocol", Rule: RuleNotAgentIdentity},
}

// defectBytes builds the document of one corpus entry.
func defectBytes(t testing.TB, d corpustest.Defect) []byte {
	t.Helper()
	seed := seedBytes(t)
	if d.Raw != nil {
		return d.Raw(seed)
	}
	m := seedTree(t)
	d.Mutate(m)
	return marshal(t, m)
}

// TestDefectCorpus parses every document under testdata/defects and checks
// that it gives exactly its one problem. With -update the files are
// rewritten from the table above, and testdata/defects.golden records every
// message.
func TestDefectCorpus(t *testing.T) {
	require.GreaterOrEqual(t, len(defects), 30)
	corpustest.Run(t, corpustest.Corpus{
		Name:   "defects",
		Cases:  defects,
		Update: *update,
		Build:  defectBytes,
		Parse:  func(data []byte) (any, error) { return Parse(data) },
	})
}

func TestDefectCorpusCoverage(t *testing.T) {
	// The corpus puts forbidden members at several depths.
	depths := map[int]bool{}
	rules := map[string]bool{}
	for _, d := range defects {
		rules[d.Rule] = true
		if d.Rule == RuleForbiddenField {
			depths[strings.Count(d.Pointer, "/")] = true
		}
	}
	keys := make([]int, 0, len(depths))
	for k := range depths {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	assert.Equal(t, []int{1, 2, 3, 6}, keys)
	for _, r := range []string{RuleForbiddenField, RuleExtensionNamespace, RuleTermsHash, RuleURLSyntax, RuleURLHTTPS, RuleURLUserinfo, RuleIssuerNotOrigin, RuleAttestationMalformed, RuleNotAgentIdentity} {
		assert.True(t, rules[r], "corpus covers %s", r)
	}
}

func TestParseTooLarge(t *testing.T) {
	m := seedTree(t)
	termsOf(m)["text"] = strings.Repeat("x", maxDocumentBytes)
	_, err := Parse(marshal(t, m))
	ve := problemsOf(t, err)
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, RuleTooLarge, ve.Problems[0].Rule)
}
