package openagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/corpustest"
)

func pricing(model string, amount any, currency string) map[string]any {
	return map[string]any{"model": model, "amount": amount, "currency": currency}
}

// invalidCases are the invalid documents of the corpus: each is the page's
// example profile (testdata/openagent-example.json) with exactly one defect.
var invalidCases = []corpustest.Defect{
	{Name: "missing-type", Mutate: func(m map[string]any) { delete(m, "type") }, Pointer: "/type", Rule: RuleSchemaRequired},
	{Name: "missing-version", Mutate: func(m map[string]any) { delete(m, "version") }, Pointer: "/version", Rule: RuleSchemaRequired},
	{Name: "missing-name", Mutate: func(m map[string]any) { delete(m, "name") }, Pointer: "/name", Rule: RuleSchemaRequired},
	{Name: "missing-did", Mutate: func(m map[string]any) { delete(m, "did") }, Pointer: "/did", Rule: RuleSchemaRequired},
	{Name: "missing-owner-did", Mutate: func(m map[string]any) { delete(m, "owner_did") }, Pointer: "/owner_did", Rule: RuleSchemaRequired},
	{Name: "missing-skills", Mutate: func(m map[string]any) { delete(m, "skills") }, Pointer: "/skills", Rule: RuleSchemaRequired},
	{Name: "missing-permissions-requested", Mutate: func(m map[string]any) { delete(m, "permissions_requested") }, Pointer: "/permissions_requested", Rule: RuleSchemaRequired},
	{Name: "type-not-agent", Mutate: func(m map[string]any) { m["type"] = "logicsrc.agents" }, Pointer: "/type", Rule: RuleType},
	{Name: "version-0-2", Mutate: func(m map[string]any) { m["version"] = "0.2" }, Pointer: "/version", Rule: RuleVersionUnsupported},
	{Name: "version-1-2", Mutate: func(m map[string]any) { m["version"] = "1.2" }, Pointer: "/version", Rule: RuleVersionUnsupported},
	{Name: "version-v-prefix", Mutate: func(m map[string]any) { m["version"] = "v0.1" }, Pointer: "/version", Rule: RuleVersionSyntax},
	{Name: "version-number", Mutate: func(m map[string]any) { m["version"] = json.Number("0.1") }, Pointer: "/version", Rule: RuleSchemaType},
	{Name: "name-empty", Mutate: func(m map[string]any) { m["name"] = "" }, Pointer: "/name", Rule: RuleNameLength},
	{Name: "name-too-long", Mutate: func(m map[string]any) { m["name"] = strings.Repeat("a", 121) }, Pointer: "/name", Rule: RuleNameLength},
	{Name: "did-w3c-key", Mutate: func(m map[string]any) { m["did"] = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK" }, Pointer: "/did", Rule: RuleDIDSyntax},
	{Name: "did-uppercase", Mutate: func(m map[string]any) { m["did"] = "Research.Coinpay" }, Pointer: "/did", Rule: RuleDIDSyntax},
	{Name: "did-no-dot", Mutate: func(m map[string]any) { m["did"] = "research" }, Pointer: "/did", Rule: RuleDIDSyntax},
	{Name: "owner-did-url", Mutate: func(m map[string]any) { m["owner_did"] = "https://operator.coinpay" }, Pointer: "/owner_did", Rule: RuleDIDSyntax},
	{Name: "skills-empty", Mutate: func(m map[string]any) { m["skills"] = []any{} }, Pointer: "/skills", Rule: RuleSkillsEmpty},
	{Name: "skill-empty-string", Mutate: func(m map[string]any) { m["skills"] = []any{"research", ""} }, Pointer: "/skills/1", Rule: RuleEmptyItem},
	{Name: "skill-duplicate", Mutate: func(m map[string]any) { m["skills"] = []any{"research", "research"} }, Pointer: "/skills/1", Rule: RuleDuplicateItem},
	{Name: "skills-string", Mutate: func(m map[string]any) { m["skills"] = "research" }, Pointer: "/skills", Rule: RuleSchemaType},
	{Name: "task-type-duplicate", Mutate: func(m map[string]any) { m["supported_task_types"] = []any{"research-brief", "research-brief"} }, Pointer: "/supported_task_types/1", Rule: RuleDuplicateItem},
	{Name: "task-type-empty", Mutate: func(m map[string]any) { m["supported_task_types"] = []any{""} }, Pointer: "/supported_task_types/0", Rule: RuleEmptyItem},
	{Name: "permission-wildcard-action", Mutate: func(m map[string]any) { m["permissions_requested"] = []any{"web:*"} }, Pointer: "/permissions_requested/0", Rule: RulePermissionSyntax},
	{Name: "permission-wildcard", Mutate: func(m map[string]any) { m["permissions_requested"] = []any{"*"} }, Pointer: "/permissions_requested/0", Rule: RulePermissionSyntax},
	{Name: "permission-uppercase", Mutate: func(m map[string]any) { m["permissions_requested"] = []any{"Web:Read"} }, Pointer: "/permissions_requested/0", Rule: RulePermissionSyntax},
	{Name: "permission-two-colons", Mutate: func(m map[string]any) { m["permissions_requested"] = []any{"web:read:all"} }, Pointer: "/permissions_requested/0", Rule: RulePermissionSyntax},
	{Name: "permission-duplicate", Mutate: func(m map[string]any) { m["permissions_requested"] = []any{"web:read", "web:read"} }, Pointer: "/permissions_requested/1", Rule: RuleDuplicateItem},
	{Name: "permission-number", Mutate: func(m map[string]any) { m["permissions_requested"] = []any{json.Number("7")} }, Pointer: "/permissions_requested/0", Rule: RuleSchemaType},
	{Name: "pricing-model", Mutate: func(m map[string]any) { m["pricing"] = pricing("weekly", json.Number("5"), "USD") }, Pointer: "/pricing/model", Rule: RulePricingModel},
	{Name: "pricing-negative", Mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", json.Number("-1"), "USD") }, Pointer: "/pricing/amount", Rule: RulePricingAmount},
	{Name: "pricing-amount-string", Mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", "5.00", "USD") }, Pointer: "/pricing/amount", Rule: RuleSchemaType},
	{Name: "pricing-currency-short", Mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", json.Number("5"), "U") }, Pointer: "/pricing/currency", Rule: RulePricingCurrency},
	{Name: "pricing-currency-long", Mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", json.Number("5"), "ABCDEFGHIJKLM") }, Pointer: "/pricing/currency", Rule: RulePricingCurrency},
	{Name: "pricing-extra", Mutate: func(m map[string]any) {
		p := pricing("per_task", json.Number("5"), "USD")
		p["rate_decimal"] = "5.00"
		m["pricing"] = p
	}, Pointer: "/pricing/rate_decimal", Rule: RuleSchemaAdditionalProperties},
	{Name: "pricing-array", Mutate: func(m map[string]any) { m["pricing"] = []any{} }, Pointer: "/pricing", Rule: RuleSchemaType},
	{Name: "extra-member", Mutate: func(m map[string]any) { m["coinpay_wallet"] = "wallet.coinpay" }, Pointer: "/coinpay_wallet", Rule: RuleSchemaAdditionalProperties},
	{Name: "webhook-relative", Mutate: func(m map[string]any) { m["webhook_url"] = "/hooks/agent" }, Pointer: "/webhook_url", Rule: RuleURLSyntax},
	{Name: "webhook-space", Mutate: func(m map[string]any) { m["webhook_url"] = "https://hooks.example.com/a b" }, Pointer: "/webhook_url", Rule: RuleURLSyntax},
	{Name: "webhook-non-ascii-host", Mutate: func(m map[string]any) { m["webhook_url"] = "https://hööks.example.com/" }, Pointer: "/webhook_url", Rule: RuleURLSyntax},
	{Name: "polling-string", Mutate: func(m map[string]any) { m["polling_mode"] = "yes" }, Pointer: "/polling_mode", Rule: RuleSchemaType},
	{Name: "public-string", Mutate: func(m map[string]any) { m["public"] = "true" }, Pointer: "/public", Rule: RuleSchemaType},
	{Name: "description-number", Mutate: func(m map[string]any) { m["description"] = json.Number("42") }, Pointer: "/description", Rule: RuleSchemaType},
	{Name: "compat-number", Mutate: func(m map[string]any) { m["logicsrc_compatibility_version"] = json.Number("1") }, Pointer: "/logicsrc_compatibility_version", Rule: RuleSchemaType},
	{Name: "root-array", Raw: func(seed []byte) []byte { return append(append([]byte("["), bytes.TrimSpace(seed)...), ']') }, Pointer: "", Rule: RuleSchemaType},
	{Name: "json-duplicate-member", Raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"name": "Research agent",`), []byte(`"name": "Research agent", "name": "Other agent",`), 1)
	}, Pointer: "/name", Rule: "json-duplicate-member"},
	{Name: "json-bom", Raw: func(seed []byte) []byte { return append([]byte("\xef\xbb\xbf"), seed...) }, Pointer: "", Rule: "json-bom"},
	{Name: "json-trailing-data", Raw: func(seed []byte) []byte { return append(bytes.Clone(seed), " {}"...) }, Pointer: "", Rule: "json-trailing-data"},
	{Name: "json-invalid-utf8", Raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"Research agent"`), []byte("\"Research \xff agent\""), 1)
	}, Pointer: "/name", Rule: "json-utf8"},
	{Name: "json-number-range", Raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"public": true`), []byte(`"public": true, "pricing": {"amount": 1e400}`), 1)
	}, Pointer: "/pricing/amount", Rule: "json-number-range"},
	{Name: "json-syntax", Raw: func(seed []byte) []byte { return bytes.TrimSuffix(bytes.TrimSpace(seed), []byte("}")) }, Pointer: "", Rule: "json-syntax"},
}

// invalidBytes builds the document of one corpus entry from the seed.
func invalidBytes(t testing.TB, c corpustest.Defect) []byte {
	t.Helper()
	seed := readFile(t, "openagent-example.json")
	if c.Raw != nil {
		return c.Raw(seed)
	}
	dec := json.NewDecoder(bytes.NewReader(seed))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	c.Mutate(m)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(m))
	return b.Bytes()
}

// TestInvalidCorpus parses every document under testdata/invalid and checks
// that it gives exactly its one problem. With -update the files are
// rewritten from the table above, and testdata/invalid.golden records every
// message.
func TestInvalidCorpus(t *testing.T) {
	require.GreaterOrEqual(t, len(invalidCases), 30)
	corpustest.Run(t, corpustest.Corpus{
		Name:   "invalid",
		Cases:  invalidCases,
		Update: *update,
		Build:  invalidBytes,
		Parse:  func(data []byte) (any, error) { return Parse(data) },
		Check: func(t *testing.T, c corpustest.Defect, err error) {
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Equal(t, c.Rule == RuleVersionUnsupported, errors.Is(err, ErrUnsupportedVersion))
		},
	})
}
