package readiness

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSummary(t *testing.T) {
	r := fixedReport()
	s := r.Summary()
	js, err := json.Marshal(s)
	require.NoError(t, err)
	golden(t, "summary.json", append(js, '\n'))
	full, err := r.JSON()
	require.NoError(t, err)
	assert.Less(t, len(js), 2000, "a summary is about 1.5 KB")
	assert.Less(t, len(js)*10, len(full))

	assert.Equal(t, r.Score, s.Score)
	assert.Equal(t, r.Ready, s.Ready)
	assert.Len(t, s.Checks, len(Catalogue()))
	assert.Equal(t, "absent", s.Checks["mcp_server_card"])
	assert.Equal(t, "found", s.Checks["agentic_site_profile"], "found with problems is found")
	assert.Equal(t, "found", s.Checks["openagent_profile"])
	assert.Equal(t, "unverified", s.Checks["agent_signup"])
	assert.Equal(t, "not_applicable", s.Checks["manifest_twins"])
	assert.NotContains(t, s.Sections, SectionAct, "a section that left the denominator")
	assert.Contains(t, s.Unmet, "R7")
	for _, q := range r.Requirements {
		assert.Equal(t, !q.Met, slices.Contains(s.Unmet, q.ID), q.ID)
	}
	var back Summary
	require.NoError(t, json.Unmarshal(js, &back))
	assert.Equal(t, *s, back)
}

// TestOptionalStatesOfAScan keeps the receipts of the optional conventions
// saying found or absent first, which a summary reads.
func TestOptionalStatesOfAScan(t *testing.T) {
	r, _ := scanSite(t, &testSite{host: "shop.example"}, 3*time.Second, nil)
	s := r.Summary()
	for _, c := range r.Checks {
		if c.Verdict != VerdictOptional {
			continue
		}
		assert.True(t, strings.HasPrefix(c.Receipt.Received, "found") || strings.HasPrefix(c.Receipt.Received, "absent"), "%s: %q", c.ID, c.Receipt.Received)
		assert.Contains(t, []string{"found", "absent"}, s.Checks[c.ID])
	}
}

func TestCompare(t *testing.T) {
	base := fixedReport().Summary()
	tests := []struct {
		name      string
		change    map[string]string
		direction string
	}{
		{"pass to partial", map[string]string{"sitemap": "partial"}, "worse"},
		{"pass to fail", map[string]string{"sitemap": "fail"}, "worse"},
		{"pass to unverified", map[string]string{"sitemap": "unverified"}, "worse"},
		{"pass to not applicable", map[string]string{"sitemap": "not_applicable"}, "sideways"},
		{"not applicable to pass", map[string]string{"manifest_twins": "pass"}, "sideways"},
		{"not applicable to fail", map[string]string{"manifest_twins": "fail"}, "worse"},
		{"partial to pass", map[string]string{"llms_txt": "pass"}, "better"},
		{"fail to unverified", map[string]string{"structured_business_data": "unverified"}, "better"},
		{"unverified to fail", map[string]string{"discovery_links": "fail"}, "worse"},
		{"optional document vanished", map[string]string{"openagent_profile": "absent"}, "worse"},
		{"optional document appeared", map[string]string{"mcp_server_card": "found"}, "better"},
		{"optional unanswered", map[string]string{"openagent_profile": "unverified"}, "worse"},
		{"optional answered again", map[string]string{"agent_signup": "absent"}, "worse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			next := *base
			next.Checks = map[string]string{}
			for k, v := range base.Checks {
				next.Checks[k] = v
			}
			for k, v := range tc.change {
				next.Checks[k] = v
			}
			c := CompareSummaries(base, &next)
			require.Len(t, c.Changes, 1)
			ch := c.Changes[0]
			for k, v := range tc.change {
				assert.Equal(t, k, ch.Check)
				assert.Equal(t, base.Checks[k], ch.From)
				assert.Equal(t, v, ch.To)
			}
			assert.Equal(t, tc.direction, ch.Direction)
			assert.Equal(t, tc.direction == "worse", c.Worse)
			// And the other way round.
			back := CompareSummaries(&next, base)
			require.Len(t, back.Changes, 1)
			want := map[string]string{"worse": "better", "better": "worse", "sideways": "sideways"}[tc.direction]
			assert.Equal(t, want, back.Changes[0].Direction)
		})
	}
	t.Run("unchanged", func(t *testing.T) {
		c := Compare(fixedReport(), fixedReport())
		assert.Empty(t, c.Changes)
		assert.False(t, c.Worse)
		assert.Zero(t, c.Delta)
		assert.Len(t, c.Sections, 6)
	})
}

// TestCompareReports compares two scans of a site, one with a page that
// broke, and finds every changed check with the score and section deltas.
func TestCompareReports(t *testing.T) {
	good, _ := scanSite(t, &testSite{host: "shop.example"}, 3*time.Second, nil)
	bad, _ := scanSite(t, &testSite{host: "shop.example", faults: []siteFault{noVary, brokenJSONLD}}, 3*time.Second, nil)
	c := Compare(good, bad)
	assert.InDelta(t, bad.Score-good.Score, c.Delta, 1e-9)
	assert.Less(t, c.Delta, 0.0)
	assert.True(t, c.Worse)
	var sum float64
	for _, sec := range good.Sections {
		sum += c.Sections[sec.ID]
	}
	assert.InDelta(t, c.Delta, sum, 1e-9, "with every section scored, the section deltas add up to the total's")
	want := []string{}
	for i := range good.Checks {
		if checkState(good.Checks[i]) != checkState(bad.Checks[i]) {
			want = append(want, good.Checks[i].ID)
		}
	}
	got := []string{}
	for _, ch := range c.Changes {
		got = append(got, ch.Check)
	}
	assert.Equal(t, want, got, "every changed check, in catalogue order")
	assert.Contains(t, got, "vary_accept")
	assert.Contains(t, got, "structured_business_data")
}
