package agentsignup

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/corpustest"
)

// defect is one defective document of the corpus: the seed example with
// exactly one defect, and the one problem (pointer and rule) it must give.
type defect struct {
	name    string
	mutate  func(m map[string]any) // applied to the seed tree
	raw     func(seed []byte) []byte
	pointer string
	rule    string
}

func termsOf(m map[string]any) map[string]any     { return m["terms"].(map[string]any) }
func endpointsOf(m map[string]any) map[string]any { return m["endpoints"].(map[string]any) }

func b64json(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

var defects = []defect{
	{name: "audience-missing", mutate: func(m map[string]any) { delete(m, "audience") }, pointer: "/audience", rule: "schema-required"},
	{name: "audience-whitespace", mutate: func(m map[string]any) { m["audience"] = "example rp" }, pointer: "/audience", rule: "schema-pattern"},
	{name: "audience-number", mutate: func(m map[string]any) { m["audience"] = 42 }, pointer: "/audience", rule: "schema-type"},
	{name: "provider-name-empty", mutate: func(m map[string]any) { m["provider_name"] = "" }, pointer: "/provider_name", rule: "schema-minLength"},
	{name: "provider-name-161", mutate: func(m map[string]any) { m["provider_name"] = strings.Repeat("é", 161) }, pointer: "/provider_name", rule: "schema-maxLength"},
	{name: "issuer-allowlist-empty", mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{} }, pointer: "/issuer_allowlist", rule: "schema-minItems"},
	{name: "issuer-allowlist-duplicate", mutate: func(m map[string]any) {
		m["issuer_allowlist"] = []any{"https://agentregistrar.dev", "https://agentregistrar.dev"}
	}, pointer: "/issuer_allowlist", rule: "schema-uniqueItems"},
	{name: "issuer-http", mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"http://agentregistrar.dev"} }, pointer: "/issuer_allowlist/0", rule: RuleURLHTTPS},
	{name: "issuer-with-path", mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://agentregistrar.dev/oauth"} }, pointer: "/issuer_allowlist/0", rule: RuleIssuerNotOrigin},
	{name: "issuer-upper-case", mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://AgentRegistrar.dev"} }, pointer: "/issuer_allowlist/0", rule: RuleIssuerNotOrigin},
	{name: "issuer-default-port", mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://agentregistrar.dev:443"} }, pointer: "/issuer_allowlist/0", rule: RuleIssuerNotOrigin},
	{name: "issuer-userinfo", mutate: func(m map[string]any) { m["issuer_allowlist"] = []any{"https://rp:pw@agentregistrar.dev"} }, pointer: "/issuer_allowlist/0", rule: RuleURLUserinfo},
	{name: "required-scopes-missing", mutate: func(m map[string]any) { delete(m, "required_scopes") }, pointer: "/required_scopes", rule: "schema-required"},
	{name: "required-scopes-empty-string", mutate: func(m map[string]any) { m["required_scopes"] = []any{""} }, pointer: "/required_scopes/0", rule: "schema-minLength"},
	{name: "required-scopes-duplicate", mutate: func(m map[string]any) { m["required_scopes"] = []any{"tos:accept", "tos:accept"} }, pointer: "/required_scopes", rule: "schema-uniqueItems"},
	{name: "terms-missing", mutate: func(m map[string]any) { delete(m, "terms") }, pointer: "/terms", rule: "schema-required"},
	{name: "terms-text-missing", mutate: func(m map[string]any) { delete(termsOf(m), "text") }, pointer: "/terms/text", rule: "schema-required"},
	{name: "terms-text-changed", mutate: func(m map[string]any) { termsOf(m)["text"] = termsOf(m)["text"].(string) + " Amended." }, pointer: "/terms/sha256", rule: RuleTermsHash},
	{name: "terms-text-trailing-newline", mutate: func(m map[string]any) { termsOf(m)["text"] = termsOf(m)["text"].(string) + "\n" }, pointer: "/terms/sha256", rule: RuleTermsHash},
	{name: "terms-hash-of-crlf-text", mutate: func(m map[string]any) {
		termsOf(m)["text"] = "Line one.\nLine two.\n"
		termsOf(m)["sha256"] = TermsHash("Line one.\r\nLine two.\r\n")
	}, pointer: "/terms/sha256", rule: RuleTermsHash},
	{name: "terms-hash-upper-hex", mutate: func(m map[string]any) { termsOf(m)["sha256"] = "sha256:" + strings.ToUpper(seedHash[7:]) }, pointer: "/terms/sha256", rule: "schema-pattern"},
	{name: "terms-hash-no-prefix", mutate: func(m map[string]any) { termsOf(m)["sha256"] = seedHash[7:] }, pointer: "/terms/sha256", rule: "schema-pattern"},
	{name: "terms-version-empty", mutate: func(m map[string]any) { termsOf(m)["version"] = "" }, pointer: "/terms/version", rule: "schema-minLength"},
	{name: "terms-url-http", mutate: func(m map[string]any) { termsOf(m)["url"] = "http://example.com/terms" }, pointer: "/terms/url", rule: RuleURLHTTPS},
	{name: "terms-url-relative", mutate: func(m map[string]any) { termsOf(m)["url"] = "/terms" }, pointer: "/terms/url", rule: RuleURLSyntax},
	{name: "endpoints-agent-signup-missing", mutate: func(m map[string]any) { delete(endpointsOf(m), "agent_signup") }, pointer: "/endpoints/agent_signup", rule: "schema-required"},
	{name: "endpoints-agent-signup-userinfo", mutate: func(m map[string]any) {
		endpointsOf(m)["agent_signup"] = "https://admin:hunter2@example.com/api/signup/agent"
	}, pointer: "/endpoints/agent_signup", rule: RuleURLUserinfo},
	{name: "endpoints-agent-signup-javascript", mutate: func(m map[string]any) { endpointsOf(m)["agent_signup"] = "javascript:alert(1)" }, pointer: "/endpoints/agent_signup", rule: RuleURLSyntax},
	{name: "forbidden-top-pricing", mutate: func(m map[string]any) { m["pricing"] = map[string]any{"plan": "pro", "usd": 10} }, pointer: "/pricing", rule: RuleForbiddenField},
	{name: "forbidden-top-capabilities", mutate: func(m map[string]any) { m["capabilities"] = []any{"orders.read"} }, pointer: "/capabilities", rule: RuleForbiddenField},
	{name: "forbidden-in-terms", mutate: func(m map[string]any) { termsOf(m)["provider_url"] = "https://example.com" }, pointer: "/terms/provider_url", rule: RuleForbiddenField},
	{name: "forbidden-in-endpoints", mutate: func(m map[string]any) { endpointsOf(m)["actions"] = []any{"https://example.com/a"} }, pointer: "/endpoints/actions", rule: RuleForbiddenField},
	{name: "forbidden-in-extensions", mutate: func(m map[string]any) {
		m["extensions"] = map[string]any{"com.example": map[string]any{"tools": []any{"search"}}}
	}, pointer: "/extensions/com.example/tools", rule: RuleForbiddenField},
	{name: "forbidden-deep-in-extensions", mutate: func(m map[string]any) {
		m["extensions"] = map[string]any{"com.example": map[string]any{"a": map[string]any{"b": []any{map[string]any{"api_key": "sk-live"}}}}}
	}, pointer: "/extensions/com.example/a/b/0/api_key", rule: RuleForbiddenField},
	{name: "forbidden-as-extension-namespace", mutate: func(m map[string]any) { m["extensions"] = map[string]any{"pricing": map[string]any{}} }, pointer: "/extensions/pricing", rule: RuleForbiddenField},
	{name: "forbidden-case-folded", mutate: func(m map[string]any) { m["Account-ID"] = "acct_123" }, pointer: "/Account-ID", rule: RuleForbiddenField},
	{name: "forbidden-verified-flag", mutate: func(m map[string]any) { m["verified"] = true }, pointer: "/verified", rule: RuleForbiddenField},
	{name: "extensions-not-namespace", mutate: func(m map[string]any) { m["extensions"] = map[string]any{"example": map[string]any{}} }, pointer: "/extensions/example", rule: RuleExtensionNamespace},
	{name: "extensions-value-not-object", mutate: func(m map[string]any) { m["extensions"] = map[string]any{"com.example": "x"} }, pointer: "/extensions/com.example", rule: "schema-type"},
	{name: "extensions-not-object", mutate: func(m map[string]any) { m["extensions"] = []any{} }, pointer: "/extensions", rule: "schema-type"},
	{name: "attestation-not-jws", mutate: func(m map[string]any) { m["rp_attestation"] = "not-a-token" }, pointer: "/rp_attestation", rule: RuleAttestationMalformed},
	{name: "attestation-alg-none", mutate: func(m map[string]any) {
		m["rp_attestation"] = b64json(`{"alg":"none","typ":"agent-rp-attestation+jwt"}`) + "." + b64json(`{"iss":"https://agentregistrar.dev"}`) + "."
	}, pointer: "/rp_attestation", rule: RuleAttestationMalformed},
	{name: "attestation-not-string", mutate: func(m map[string]any) { m["rp_attestation"] = map[string]any{"alg": "EdDSA"} }, pointer: "/rp_attestation", rule: "schema-type"},
	{name: "json-duplicate-member", raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"audience": "example-rp",`), []byte(`"audience": "example-rp", "audience": "evil-rp",`), 1)
	}, pointer: "/audience", rule: "json-duplicate-member"},
	{name: "json-bom", raw: func(seed []byte) []byte { return append([]byte("\xef\xbb\xbf"), seed...) }, pointer: "", rule: "json-bom"},
	{name: "json-trailing-data", raw: func(seed []byte) []byte { return append(bytes.Clone(seed), "{}"...) }, pointer: "", rule: "json-trailing-data"},
	{name: "json-invalid-utf8", raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte("Example RP Terms"), []byte("Example RP \xff Terms"), 1)
	}, pointer: "/terms/text", rule: "json-utf8"},
	{name: "other-protocol", raw: func([]byte) []byte {
		return []byte(`{"version":"1.0","signup_url":"https://example.com/signup","fields":["email","name"]}`)
	}, pointer: "", rule: RuleNotAgentIdentity},
	{name: "protocol-v2", mutate: func(m map[string]any) { m["protocol"] = "agent-identity-v2" }, pointer: "/protocol", rule: RuleNotAgentIdentity},
}

// defectBytes builds the document of one corpus entry.
func defectBytes(t testing.TB, d defect) []byte {
	t.Helper()
	seed := seedBytes(t)
	if d.raw != nil {
		return d.raw(seed)
	}
	m := seedTree(t)
	d.mutate(m)
	return marshal(t, m)
}

// TestDefectCorpus parses every document under testdata/defects and checks
// that it gives exactly its one problem. With -update the files are
// rewritten from the table above, and testdata/defects.golden records every
// message.
func TestDefectCorpus(t *testing.T) {
	require.GreaterOrEqual(t, len(defects), 30)
	corpustest.Run(t, corpustest.Corpus[defect]{
		Cases:  defects,
		Name:   func(d defect) string { return d.name },
		Dir:    filepath.Join("testdata", "defects"),
		Golden: filepath.Join("testdata", "defects.golden"),
		Update: *update,
		Build:  defectBytes,
		Check: func(t *testing.T, d defect, data []byte) []string {
			doc, err := Parse(data)
			require.Error(t, err)
			assert.Nil(t, doc, "no usable value for a defective document")
			ve := problemsOf(t, err)
			require.Len(t, ve.Problems, 1, "exactly one problem, got %v", ve.Problems)
			assert.Equal(t, d.pointer, ve.Problems[0].Pointer)
			assert.Equal(t, d.rule, ve.Problems[0].Rule)
			assert.NotEmpty(t, ve.Problems[0].Message)
			return []string{fmt.Sprintf("%s", ve.Problems[0])}
		},
	})
}

func TestDefectCorpusCoverage(t *testing.T) {
	// The corpus puts forbidden members at several depths.
	depths := map[int]bool{}
	rules := map[string]bool{}
	for _, d := range defects {
		rules[d.rule] = true
		if d.rule == RuleForbiddenField {
			depths[strings.Count(d.pointer, "/")] = true
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
