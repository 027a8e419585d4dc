package openagent

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

func TestParseSpecExample(t *testing.T) {
	p, err := Parse(readFile(t, "openagent-example.json"))
	require.NoError(t, err)
	assert.Equal(t, Type, p.Type)
	assert.Equal(t, "0.1", p.Version)
	assert.Equal(t, "Research agent", p.Name)
	assert.Equal(t, "research.coinpay", p.DID)
	assert.Equal(t, "operator.coinpay", p.OwnerDID)
	assert.Equal(t, "Find primary sources and prepare a cited research brief.", p.Description)
	assert.Equal(t, []string{"research", "source-verification"}, p.Skills)
	assert.Equal(t, []string{"research-brief"}, p.SupportedTaskTypes)
	assert.Equal(t, []string{"web:read"}, p.PermissionsRequested)
	require.NotNil(t, p.PollingMode)
	assert.True(t, *p.PollingMode)
	require.NotNil(t, p.Public)
	assert.True(t, p.IsPublic())
	assert.Nil(t, p.Pricing)
	assert.Empty(t, p.WebhookURL)
}

func TestParseValidCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "valid", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			p, err := Parse(data)
			require.NoError(t, err)
			// The typed profile agrees with encoding/json's reading.
			var want Profile
			require.NoError(t, json.Unmarshal(data, &want))
			assert.Equal(t, &want, p)
		})
	}
}

func TestParseReportsEveryProblem(t *testing.T) {
	doc := `{"type":"agent","version":"1.2","name":"","did":"did:key:z6Mk","owner_did":"Operator",
		"skills":["a","a",""],"permissions_requested":["repo:*"],"pricing":{"model":"weekly","amount":-2,"extra":1},
		"platform_id":"x","webhook_url":"relative"}`
	_, err := Parse([]byte(doc))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	got := make([]string, 0, len(ve.Problems))
	for _, p := range ve.Problems {
		got = append(got, p.Pointer+" "+p.Rule)
	}
	assert.Equal(t, []string{
		"/did did-syntax",
		"/name name-length",
		"/owner_did did-syntax",
		"/permissions_requested/0 permission-syntax",
		"/platform_id schema-additionalProperties",
		"/pricing/amount pricing-amount",
		"/pricing/extra schema-additionalProperties",
		"/pricing/model pricing-model",
		"/skills/1 duplicate-item",
		"/skills/2 empty-item",
		"/type type-value",
		"/version version-unsupported",
		"/webhook_url url-syntax",
	}, got)
	assert.ErrorIs(t, err, ErrUnsupportedVersion)
	assert.True(t, ve.Has(RuleDIDSyntax))
	assert.False(t, ve.Has(RuleSchemaRequired))
}

func TestParseMessages(t *testing.T) {
	base := string(readFile(t, "openagent-example.json"))
	tests := []struct {
		name, from, to string
		want           []string
	}{
		{"did:key is not a LogicSRC identity", `"research.coinpay"`, `"did:key:z6MkhaXgBZDvot"`,
			[]string{"not a LogicSRC identity", "did:key:z6MkhaXgBZDvot"}},
		{"extra property points to a separate record", `"public": true`, `"public": true, "stripe_account": "acct_1"`,
			[]string{"stripe_account", "separate record"}},
		{"unsupported version is named, not rewritten", `"version": "0.1"`, `"version": "1.2"`,
			[]string{`"1.2"`, "not supported", "does not rewrite"}},
		{"wildcards are named", `["web:read"]`, `["web:*"]`, []string{"wildcard"}},
		{"root must be one profile", "", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.from == "" {
				_, err := Parse([]byte("[" + base + "]"))
				require.Error(t, err)
				assert.Contains(t, err.Error(), "not an array")
				return
			}
			doc := strings.Replace(base, tc.from, tc.to, 1)
			require.NotEqual(t, base, doc)
			_, err := Parse([]byte(doc))
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, 1)
			for _, w := range tc.want {
				assert.Contains(t, ve.Problems[0].Message, w)
			}
			assert.True(t, strings.HasPrefix(err.Error(), "openagent: "))
		})
	}
}

func TestMarshalGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "valid", "*.json"))
	require.NoError(t, err)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			p, err := Parse(data)
			require.NoError(t, err)
			out, err := p.Marshal()
			require.NoError(t, err)
			golden := filepath.Join("testdata", "golden", name+".json")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, out, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(out))
			// Parse accepts what Marshal wrote, and reads the same profile
			// (an empty optional string is dropped).
			back, err := Parse(out)
			require.NoError(t, err)
			assert.Equal(t, p, back)
			// Stable: marshalling again gives the same bytes.
			again, err := back.Marshal()
			require.NoError(t, err)
			assert.Equal(t, out, again)
		})
	}
}

func TestMarshalRefusesInvalid(t *testing.T) {
	p, err := Parse(readFile(t, "openagent-example.json"))
	require.NoError(t, err)
	p.Version = "0.2"
	p.Skills = nil
	p.PermissionsRequested = []string{"*"}
	out, err := p.Marshal()
	assert.Nil(t, out)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has(RuleVersionUnsupported))
	assert.True(t, ve.Has(RuleSkillsEmpty))
	assert.True(t, ve.Has(RulePermissionSyntax))

	var nilProfile *Profile
	_, err = nilProfile.Marshal()
	assert.Error(t, err)
}

func TestMarshalEmptyPermissions(t *testing.T) {
	p := &Profile{Type: Type, Version: Version, Name: "n", DID: "a.b", OwnerDID: "c.d", Skills: []string{"s"}}
	out, err := p.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(out), `"permissions_requested": []`)
}

func TestPricing(t *testing.T) {
	five := 5.0
	zero := 0.0
	tests := []struct {
		name       string
		p          *Pricing
		incomplete bool
		missing    []string
		text       string
	}{
		{"nil", nil, true, []string{"model", "amount", "currency"}, "no pricing given"},
		{"empty object", &Pricing{}, true, []string{"model", "amount", "currency"}, "incomplete pricing (missing model, amount, currency)"},
		{"model only", &Pricing{Model: PricingHourly}, true, []string{"amount", "currency"}, "incomplete pricing (missing amount, currency): hourly"},
		{"no model is not free", &Pricing{Amount: &zero, Currency: "USD"}, true, []string{"model"}, "incomplete pricing (missing model): 0 USD"},
		{"complete", &Pricing{Model: PricingPerTask, Amount: &five, Currency: "USD"}, false, nil, "per_task 5 USD"},
		{"complete free", &Pricing{Model: PricingFree, Amount: &zero, Currency: "EUR"}, false, nil, "free 0 EUR"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.incomplete, tc.p.Incomplete())
			assert.Equal(t, tc.missing, tc.p.Missing())
			assert.Equal(t, tc.text, tc.p.String())
		})
	}
}

func TestParsePartialPricingIsIncomplete(t *testing.T) {
	p, err := Parse(readFile(t, filepath.Join("valid", "partial-pricing.json")))
	require.NoError(t, err)
	require.NotNil(t, p.Pricing)
	assert.True(t, p.Pricing.Incomplete())
	assert.Nil(t, p.Pricing.Amount, "a missing amount is not zero")
}

func TestIsPublicDefault(t *testing.T) {
	f, tr := false, true
	assert.True(t, (&Profile{}).IsPublic())
	assert.True(t, (&Profile{Public: &tr}).IsPublic())
	assert.False(t, (&Profile{Public: &f}).IsPublic())
}

func TestClone(t *testing.T) {
	p, err := Parse(readFile(t, filepath.Join("valid", "full.json")))
	require.NoError(t, err)
	q := p.Clone()
	assert.Equal(t, p, q)
	q.Skills[0] = "changed"
	*q.Pricing.Amount = 99
	*q.Public = true
	assert.NotEqual(t, p.Skills[0], q.Skills[0])
	assert.NotEqual(t, *p.Pricing.Amount, *q.Pricing.Amount)
	assert.False(t, *p.Public)
}

func TestSchemaIsACopy(t *testing.T) {
	s := Schema()
	require.True(t, json.Valid(s))
	s[0] = 'x'
	assert.Equal(t, byte('{'), Schema()[0])
}

// TestSchemaMatchesAgreementCopy checks that internal/schema's agreement
// tests, which check its fast checker on this schema, test this schema.
func TestSchemaMatchesAgreementCopy(t *testing.T) {
	cp, err := os.ReadFile(filepath.Join("..", "internal", "schema", "testdata", "agreement", "openagent.schema.json"))
	require.NoError(t, err)
	assert.Equal(t, string(schemaJSON), string(cp), "copy agent-0.1.schema.json to internal/schema/testdata/agreement/openagent.schema.json and add documents for the change to openagent.docs.json")
}
