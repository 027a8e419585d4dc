package readiness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// brokenScan is a real scan of a site with several defects.
func brokenScan(t *testing.T) *Report {
	r, _ := scanSite(t, &testSite{host: "broken.example", faults: []siteFault{noVary, spaShellOnly, sitemapIsHTML, brokenJSONLD}}, 3e9, nil)
	return r
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
