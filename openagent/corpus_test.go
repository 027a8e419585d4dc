package openagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/corpustest"
)

// invalidCase is one invalid document of the corpus: the page's example
// profile (testdata/openagent-example.json) with exactly one defect, and the
// one problem (pointer and rule) it must give.
type invalidCase struct {
	name    string
	mutate  func(m map[string]any) // applied to the seed tree
	raw     func(seed []byte) []byte
	pointer string
	rule    string
}

func pricing(model string, amount any, currency string) map[string]any {
	return map[string]any{"model": model, "amount": amount, "currency": currency}
}

var invalidCases = []invalidCase{
	{name: "missing-type", mutate: func(m map[string]any) { delete(m, "type") }, pointer: "/type", rule: RuleSchemaRequired},
	{name: "missing-version", mutate: func(m map[string]any) { delete(m, "version") }, pointer: "/version", rule: RuleSchemaRequired},
	{name: "missing-name", mutate: func(m map[string]any) { delete(m, "name") }, pointer: "/name", rule: RuleSchemaRequired},
	{name: "missing-did", mutate: func(m map[string]any) { delete(m, "did") }, pointer: "/did", rule: RuleSchemaRequired},
	{name: "missing-owner-did", mutate: func(m map[string]any) { delete(m, "owner_did") }, pointer: "/owner_did", rule: RuleSchemaRequired},
	{name: "missing-skills", mutate: func(m map[string]any) { delete(m, "skills") }, pointer: "/skills", rule: RuleSchemaRequired},
	{name: "missing-permissions-requested", mutate: func(m map[string]any) { delete(m, "permissions_requested") }, pointer: "/permissions_requested", rule: RuleSchemaRequired},
	{name: "type-not-agent", mutate: func(m map[string]any) { m["type"] = "logicsrc.agents" }, pointer: "/type", rule: RuleType},
	{name: "version-0-2", mutate: func(m map[string]any) { m["version"] = "0.2" }, pointer: "/version", rule: RuleVersionUnsupported},
	{name: "version-1-2", mutate: func(m map[string]any) { m["version"] = "1.2" }, pointer: "/version", rule: RuleVersionUnsupported},
	{name: "version-v-prefix", mutate: func(m map[string]any) { m["version"] = "v0.1" }, pointer: "/version", rule: RuleVersionSyntax},
	{name: "version-number", mutate: func(m map[string]any) { m["version"] = json.Number("0.1") }, pointer: "/version", rule: RuleSchemaType},
	{name: "name-empty", mutate: func(m map[string]any) { m["name"] = "" }, pointer: "/name", rule: RuleNameLength},
	{name: "name-too-long", mutate: func(m map[string]any) { m["name"] = strings.Repeat("a", 121) }, pointer: "/name", rule: RuleNameLength},
	{name: "did-w3c-key", mutate: func(m map[string]any) { m["did"] = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK" }, pointer: "/did", rule: RuleDIDSyntax},
	{name: "did-uppercase", mutate: func(m map[string]any) { m["did"] = "Research.Coinpay" }, pointer: "/did", rule: RuleDIDSyntax},
	{name: "did-no-dot", mutate: func(m map[string]any) { m["did"] = "research" }, pointer: "/did", rule: RuleDIDSyntax},
	{name: "owner-did-url", mutate: func(m map[string]any) { m["owner_did"] = "https://operator.coinpay" }, pointer: "/owner_did", rule: RuleDIDSyntax},
	{name: "skills-empty", mutate: func(m map[string]any) { m["skills"] = []any{} }, pointer: "/skills", rule: RuleSkillsEmpty},
	{name: "skill-empty-string", mutate: func(m map[string]any) { m["skills"] = []any{"research", ""} }, pointer: "/skills/1", rule: RuleEmptyItem},
	{name: "skill-duplicate", mutate: func(m map[string]any) { m["skills"] = []any{"research", "research"} }, pointer: "/skills/1", rule: RuleDuplicateItem},
	{name: "skills-string", mutate: func(m map[string]any) { m["skills"] = "research" }, pointer: "/skills", rule: RuleSchemaType},
	{name: "task-type-duplicate", mutate: func(m map[string]any) { m["supported_task_types"] = []any{"research-brief", "research-brief"} }, pointer: "/supported_task_types/1", rule: RuleDuplicateItem},
	{name: "task-type-empty", mutate: func(m map[string]any) { m["supported_task_types"] = []any{""} }, pointer: "/supported_task_types/0", rule: RuleEmptyItem},
	{name: "permission-wildcard-action", mutate: func(m map[string]any) { m["permissions_requested"] = []any{"web:*"} }, pointer: "/permissions_requested/0", rule: RulePermissionSyntax},
	{name: "permission-wildcard", mutate: func(m map[string]any) { m["permissions_requested"] = []any{"*"} }, pointer: "/permissions_requested/0", rule: RulePermissionSyntax},
	{name: "permission-uppercase", mutate: func(m map[string]any) { m["permissions_requested"] = []any{"Web:Read"} }, pointer: "/permissions_requested/0", rule: RulePermissionSyntax},
	{name: "permission-two-colons", mutate: func(m map[string]any) { m["permissions_requested"] = []any{"web:read:all"} }, pointer: "/permissions_requested/0", rule: RulePermissionSyntax},
	{name: "permission-duplicate", mutate: func(m map[string]any) { m["permissions_requested"] = []any{"web:read", "web:read"} }, pointer: "/permissions_requested/1", rule: RuleDuplicateItem},
	{name: "permission-number", mutate: func(m map[string]any) { m["permissions_requested"] = []any{json.Number("7")} }, pointer: "/permissions_requested/0", rule: RuleSchemaType},
	{name: "pricing-model", mutate: func(m map[string]any) { m["pricing"] = pricing("weekly", json.Number("5"), "USD") }, pointer: "/pricing/model", rule: RulePricingModel},
	{name: "pricing-negative", mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", json.Number("-1"), "USD") }, pointer: "/pricing/amount", rule: RulePricingAmount},
	{name: "pricing-amount-string", mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", "5.00", "USD") }, pointer: "/pricing/amount", rule: RuleSchemaType},
	{name: "pricing-currency-short", mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", json.Number("5"), "U") }, pointer: "/pricing/currency", rule: RulePricingCurrency},
	{name: "pricing-currency-long", mutate: func(m map[string]any) { m["pricing"] = pricing("per_task", json.Number("5"), "ABCDEFGHIJKLM") }, pointer: "/pricing/currency", rule: RulePricingCurrency},
	{name: "pricing-extra", mutate: func(m map[string]any) {
		p := pricing("per_task", json.Number("5"), "USD")
		p["rate_decimal"] = "5.00"
		m["pricing"] = p
	}, pointer: "/pricing/rate_decimal", rule: RuleSchemaAdditionalProperties},
	{name: "pricing-array", mutate: func(m map[string]any) { m["pricing"] = []any{} }, pointer: "/pricing", rule: RuleSchemaType},
	{name: "extra-member", mutate: func(m map[string]any) { m["coinpay_wallet"] = "wallet.coinpay" }, pointer: "/coinpay_wallet", rule: RuleSchemaAdditionalProperties},
	{name: "webhook-relative", mutate: func(m map[string]any) { m["webhook_url"] = "/hooks/agent" }, pointer: "/webhook_url", rule: RuleURLSyntax},
	{name: "webhook-space", mutate: func(m map[string]any) { m["webhook_url"] = "https://hooks.example.com/a b" }, pointer: "/webhook_url", rule: RuleURLSyntax},
	{name: "webhook-non-ascii-host", mutate: func(m map[string]any) { m["webhook_url"] = "https://hööks.example.com/" }, pointer: "/webhook_url", rule: RuleURLSyntax},
	{name: "polling-string", mutate: func(m map[string]any) { m["polling_mode"] = "yes" }, pointer: "/polling_mode", rule: RuleSchemaType},
	{name: "public-string", mutate: func(m map[string]any) { m["public"] = "true" }, pointer: "/public", rule: RuleSchemaType},
	{name: "description-number", mutate: func(m map[string]any) { m["description"] = json.Number("42") }, pointer: "/description", rule: RuleSchemaType},
	{name: "compat-number", mutate: func(m map[string]any) { m["logicsrc_compatibility_version"] = json.Number("1") }, pointer: "/logicsrc_compatibility_version", rule: RuleSchemaType},
	{name: "root-array", raw: func(seed []byte) []byte { return append(append([]byte("["), bytes.TrimSpace(seed)...), ']') }, pointer: "", rule: RuleSchemaType},
	{name: "json-duplicate-member", raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"name": "Research agent",`), []byte(`"name": "Research agent", "name": "Other agent",`), 1)
	}, pointer: "/name", rule: "json-duplicate-member"},
	{name: "json-bom", raw: func(seed []byte) []byte { return append([]byte("\xef\xbb\xbf"), seed...) }, pointer: "", rule: "json-bom"},
	{name: "json-trailing-data", raw: func(seed []byte) []byte { return append(bytes.Clone(seed), " {}"...) }, pointer: "", rule: "json-trailing-data"},
	{name: "json-invalid-utf8", raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"Research agent"`), []byte("\"Research \xff agent\""), 1)
	}, pointer: "/name", rule: "json-utf8"},
	{name: "json-number-range", raw: func(seed []byte) []byte {
		return bytes.Replace(seed, []byte(`"public": true`), []byte(`"public": true, "pricing": {"amount": 1e400}`), 1)
	}, pointer: "/pricing/amount", rule: "json-number-range"},
	{name: "json-syntax", raw: func(seed []byte) []byte { return bytes.TrimSuffix(bytes.TrimSpace(seed), []byte("}")) }, pointer: "", rule: "json-syntax"},
}

// invalidBytes builds the document of one corpus entry from the seed.
func invalidBytes(t testing.TB, c invalidCase) []byte {
	t.Helper()
	seed := readFile(t, "openagent-example.json")
	if c.raw != nil {
		return c.raw(seed)
	}
	dec := json.NewDecoder(bytes.NewReader(seed))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	c.mutate(m)
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
	corpustest.Run(t, corpustest.Corpus[invalidCase]{
		Cases:  invalidCases,
		Name:   func(c invalidCase) string { return c.name },
		Dir:    filepath.Join("testdata", "invalid"),
		Golden: filepath.Join("testdata", "invalid.golden"),
		Update: *update,
		Build:  invalidBytes,
		Check: func(t *testing.T, c invalidCase, data []byte) []string {
			p, err := Parse(data)
			require.Error(t, err)
			assert.Nil(t, p, "no usable value for an invalid document")
			assert.ErrorIs(t, err, ErrInvalid)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, 1, "one defect gives one problem: %v", ve.Problems)
			assert.Equal(t, c.pointer, ve.Problems[0].Pointer)
			assert.Equal(t, c.rule, ve.Problems[0].Rule)
			assert.NotEmpty(t, ve.Problems[0].Message)
			assert.Equal(t, c.rule == RuleVersionUnsupported, errors.Is(err, ErrUnsupportedVersion))
			return []string{fmt.Sprintf("%s", ve.Problems[0])}
		},
	})
}
