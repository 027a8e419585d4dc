package readiness

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/internal/strictjson"
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

// brokenScan is a real scan of a site with several defects.
func brokenScan(t *testing.T) *Report {
	r, _ := scanSite(t, &testSite{host: "broken.example", faults: []siteFault{noVary, spaShellOnly, sitemapIsHTML, brokenJSONLD}}, 3e9, nil)
	return r
}

func TestJUnit(t *testing.T) {
	for name, r := range map[string]*Report{"plain": fixedReport(), "baseline": trendReport(2), "scan": brokenScan(t)} {
		t.Run(name, func(t *testing.T) {
			data, err := r.JUnit()
			require.NoError(t, err)
			var doc junitSuites
			require.NoError(t, xml.Unmarshal(data, &doc), "parses with encoding/xml")
			require.Len(t, doc.Suites, 1)
			s := doc.Suites[0]
			assert.Len(t, s.Cases, len(Catalogue()), "a test case per check")
			var fails, skips int
			for _, c := range r.Checks {
				switch c.Verdict {
				case VerdictFail, VerdictPartial:
					fails++
				case VerdictNotApplicable, VerdictOptional, VerdictUnverified:
					skips++
				}
			}
			assert.Equal(t, fails, s.Failures)
			assert.Equal(t, skips, s.Skipped)
			assert.Equal(t, len(r.Checks), s.Tests)
			assert.Equal(t, doc.Tests, s.Tests)
			gotF, gotS := 0, 0
			for i, tc := range s.Cases {
				c := r.Checks[i]
				assert.Equal(t, c.ID, tc.Name)
				if tc.Failure != nil {
					gotF++
					assert.Contains(t, tc.Failure.Message, verdictLabel(c.Verdict))
					assert.Contains(t, tc.Failure.Text, "check: "+c.ID)
				}
				if tc.Skipped != nil {
					gotS++
					assert.Contains(t, tc.Skipped.Message, clean(c.Receipt.Received), "the reason")
				}
			}
			assert.Equal(t, fails, gotF)
			assert.Equal(t, skips, gotS)
			if r.Baseline != nil {
				out := map[string]string{}
				for _, tc := range s.Cases {
					out[tc.Name] = tc.SystemOut
				}
				for _, ch := range r.Baseline.Changes {
					assert.Contains(t, out[ch.Check], "since the baseline: ", ch.Check)
				}
			}
		})
	}
}

func TestJobSummary(t *testing.T) {
	golden(t, "job-summary.md", trendReport(4).JobSummary())
	md := string(fixedReport().JobSummary())
	assert.Contains(t, md, "| **62.2** / 100 | not ready | R2, R4, R7, R10 | 4 |")
	assert.NotContains(t, md, "Since the baseline")
	scan := brokenScan(t)
	assert.Less(t, len(scan.JobSummary()), len(scan.Markdown())/2, "a few kilobytes where the full report is tens")
	r := trendReport(2)
	md = string(r.JobSummary())
	for _, ch := range r.Baseline.Changes {
		assert.Contains(t, md, "| `"+ch.Check+"` |", "the delta lists every changed check")
	}
	assert.Contains(t, md, "~~~~markdown\n"+string(r.Prompt())+"~~~~\n")
	// A prompt holding a run of tildes gets a longer fence.
	r.Fixes[0].Prompt = "~~~~~~ site text"
	assert.Contains(t, string(r.JobSummary()), "~~~~~~~markdown\n")
}

func TestCIGoldens(t *testing.T) {
	for name, render := range map[string]func(*Report) ([]byte, error){"sarif.json": (*Report).SARIF, "junit.xml": (*Report).JUnit} {
		data, err := render(trendReport(2))
		require.NoError(t, err)
		golden(t, name, data)
	}
}
