package readiness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sarifSchemaFile is the OASIS SARIF 2.1.0 schema (errata 01), kept in
// testdata with its source.
func sarifValidator(t *testing.T) *schema.Schema {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	require.NoError(t, err)
	s, err := schema.Compile(sarifSchema, src)
	require.NoError(t, err)
	return s
}

// sarifOf decodes a SARIF log into the generic tree the validator reads
// and into a typed view for the checks below.
func sarifOf(t *testing.T, r *Report) (any, sarifLog) {
	t.Helper()
	data, err := r.SARIF()
	require.NoError(t, err)
	tree, err := strictjson.Decode(data)
	require.NoError(t, err)
	var log sarifLog
	require.NoError(t, json.Unmarshal(data, &log))
	return tree, log
}

func TestSARIF(t *testing.T) {
	v := sarifValidator(t)
	for name, r := range map[string]*Report{"plain": fixedReport(), "baseline": trendReport(3), "scan": brokenScan(t)} {
		t.Run(name, func(t *testing.T) {
			tree, log := sarifOf(t, r)
			assert.Empty(t, v.Validate(tree), "valid against the SARIF 2.1.0 schema")
			require.Len(t, log.Runs, 1)
			run := log.Runs[0]
			require.Len(t, run.Tool.Driver.Rules, len(Catalogue()), "one rule per catalogue check")
			for i, rule := range run.Tool.Driver.Rules {
				assert.Equal(t, Catalogue()[i].ID, rule.ID)
				assert.NotEmpty(t, rule.Help.Text)
				assert.True(t, strings.HasPrefix(rule.HelpURI, "https://"), rule.HelpURI)
			}
			levels := map[Verdict]string{VerdictFail: "error", VerdictPartial: "warning", VerdictUnverified: "note"}
			byID := map[string]CheckResult{}
			for _, c := range r.Checks {
				byID[c.ID] = c
			}
			var current []string
			for _, res := range run.Results {
				if res.BaselineState == "absent" {
					continue
				}
				current = append(current, res.RuleID)
				c := byID[res.RuleID]
				assert.Equal(t, levels[c.Verdict], res.Level, res.RuleID)
				assert.Equal(t, res.RuleID, run.Tool.Driver.Rules[res.RuleIndex].ID)
				require.Len(t, res.Locations, 1)
				uri := res.Locations[0].PhysicalLocation.ArtifactLocation.URI
				assert.True(t, strings.HasPrefix(uri, "https://"), uri)
				if len(c.Receipt.Requests) > 0 {
					assert.Equal(t, c.Receipt.Requests[0].URL, uri)
				}
			}
			var fixes []string
			for _, f := range r.Fixes {
				fixes = append(fixes, f.Check)
			}
			assert.Equal(t, fixes, current, "one result per check that leaves points, in fix-first order")
		})
	}
	t.Run("baseline states", func(t *testing.T) {
		_, log := sarifOf(t, trendReport(2))
		states := map[string]string{}
		for _, res := range log.Runs[0].Results {
			states[res.RuleID] = res.BaselineState
		}
		assert.Equal(t, "new", states["llms_txt"], "passed in the baseline, partial now")
		assert.Equal(t, "absent", states["sitemap"], "failed in the baseline, passes now")
		assert.Equal(t, "unchanged", states["structured_business_data"])
		assert.Contains(t, log.Runs[0].Properties, "baseline")
	})
}
