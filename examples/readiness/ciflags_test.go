package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
)

// TestEveryOutputAndTheJobSummary: one scan writes SARIF, JUnit, the
// prompt, the badge and the summary; -history appends a line a run and
// draws the trend, the run being written included; $GITHUB_STEP_SUMMARY
// gets the job summary appended.
func TestEveryOutputAndTheJobSummary(t *testing.T) {
	n := listNet(t, "shop.example")
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	step := path("step-summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", step)
	args := []string{"scan", "https://shop.example/", "-sarif", path("r.sarif"), "-junit", path("r.xml"), "-prompt", path("prompt.md"),
		"-badge", path("badge.svg"), "-summary", path("summary.jsonl"), "-history", path("history.jsonl"), "-html", path("r.html"), "-json", path("r.json")}
	for run1 := 1; run1 <= 2; run1++ {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 1, run(context.Background(), args, &stdout, &stderr, n.Client()), stderr.String())
	}
	var rep readiness.Report
	require.NoError(t, json.Unmarshal(mustRead(t, path("r.json")), &rep))
	require.NotNil(t, rep.Trend)
	assert.Len(t, rep.Trend, 1, "the second run's trend holds the first")

	var sarif map[string]any
	require.NoError(t, json.Unmarshal(mustRead(t, path("r.sarif")), &sarif))
	assert.Equal(t, "2.1.0", sarif["version"])
	var junit struct {
		Tests int `xml:"tests,attr"`
	}
	require.NoError(t, xml.Unmarshal(mustRead(t, path("r.xml")), &junit))
	assert.Equal(t, len(readiness.Catalogue()), junit.Tests)
	assert.Equal(t, string(rep.Prompt()), string(mustRead(t, path("prompt.md"))))
	assert.True(t, bytes.HasPrefix(mustRead(t, path("badge.svg")), []byte("<svg ")))

	hist := readLines(t, path("history.jsonl"))
	assert.Len(t, hist, 2, "one line a run")
	assert.Len(t, readLines(t, path("summary.jsonl")), 1, "-summary writes this run's line")
	html := string(mustRead(t, path("r.html")))
	assert.Equal(t, 2, strings.Count(html, `data-run="`), "the chart draws both runs")

	md := string(mustRead(t, step))
	assert.Equal(t, 2, strings.Count(md, "## Agent readiness: https://shop.example/"), "appended once a run")
	assert.Contains(t, md, "### Fix first")
	assert.Contains(t, md, "### Trend")
}

// TestBaselineInEveryForm: with -baseline the delta is in every form, and
// a summary line works as a baseline as a full report does.
func TestBaselineInEveryForm(t *testing.T) {
	n := listNet(t, "shop.example")
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"scan", "https://shop.example/", "-summary", path("base.jsonl")}, &stdout, &stderr, n.Client())
	// A baseline in which the site's llms_txt passed.
	var base readiness.Summary
	require.NoError(t, json.Unmarshal(mustRead(t, path("base.jsonl")), &base))
	require.NotEqual(t, "pass", base.Checks["llms_txt"])
	base.Checks["llms_txt"] = "pass"
	line, err := json.Marshal(base)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path("base.jsonl"), append(line, '\n'), 0o644))

	step := path("step.md")
	t.Setenv("GITHUB_STEP_SUMMARY", step)
	stdout.Reset()
	code := run(context.Background(), []string{"scan", "https://shop.example/", "-baseline", path("base.jsonl"),
		"-json", path("r.json"), "-md", path("r.md"), "-html", path("r.html"), "-sarif", path("r.sarif"), "-junit", path("r.xml")}, &stdout, &stderr, n.Client())
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout.String(), "gate: llms_txt got worse: pass -> ")
	assert.Contains(t, string(mustRead(t, path("r.json"))), `"baseline": {`)
	assert.Contains(t, string(mustRead(t, path("r.md"))), "## Since the baseline")
	assert.Contains(t, string(mustRead(t, path("r.html"))), `data-change="llms_txt" data-direction="worse"`)
	assert.Contains(t, string(mustRead(t, path("r.sarif"))), `"baselineState": "new"`)
	assert.Contains(t, string(mustRead(t, path("r.xml"))), `name="baseline_delta"`)
	assert.Contains(t, string(mustRead(t, step)), "| `llms_txt` |")
}

// TestListBaselineAndSummary: -list compares each site with its own line
// of the baseline, lists every check that got worse and exits 1; -summary
// writes one compact line per site.
func TestListBaselineAndSummary(t *testing.T) {
	n := listNet(t, "a.example", "b.example")
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	require.NoError(t, os.WriteFile(path("sites.txt"), []byte("https://a.example/\nhttps://b.example/\n"), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"scan", "-list", path("sites.txt"), "-out", path("old.jsonl"), "-summary", path("sum.jsonl")}, &stdout, &stderr, n.Client()), stderr.String())
	sums := readLines(t, path("sum.jsonl"))
	assert.Equal(t, []string{"https://a.example/", "https://b.example/"}, sitesOf(sums))
	for _, s := range sums {
		assert.Contains(t, s, "checks")
	}
	full, err := os.Stat(path("old.jsonl"))
	require.NoError(t, err)
	small, err := os.Stat(path("sum.jsonl"))
	require.NoError(t, err)
	assert.Less(t, small.Size()*10, full.Size(), "a summary line is a small part of a full one")

	// The same sites against themselves: nothing got worse.
	stderr.Reset()
	step := path("step.md")
	t.Setenv("GITHUB_STEP_SUMMARY", step)
	assert.Equal(t, 0, run(context.Background(), []string{"scan", "-list", path("sites.txt"), "-out", path("new.jsonl"), "-baseline", path("old.jsonl")}, &stdout, &stderr, n.Client()), stderr.String())
	md := string(mustRead(t, step))
	assert.Contains(t, md, "## Agent readiness: 2 sites\n")
	assert.Contains(t, md, "| Site | Score | Ready | Since the baseline |")
	assert.Regexp(t, "(?m)^\\| `https://a\\.example/` \\| [0-9.]+ \\| (ready|not ready) \\| \\+0\\.0 \\|$", md)
	assert.Regexp(t, "(?m)^\\| `https://b\\.example/` \\| [0-9.]+ \\| (ready|not ready) \\| \\+0\\.0 \\|$", md)
	for _, l := range readLines(t, path("new.jsonl")) {
		assert.Contains(t, l, "baseline", "each line carries its delta")
	}

	// b's baseline line, from the summary file, had llms_txt passing.
	var lines []string
	for _, l := range rawLines(t, path("sum.jsonl")) {
		if strings.Contains(l, `"site":"https://b.example/"`) {
			l = strings.Replace(l, `"llms_txt":"fail"`, `"llms_txt":"pass"`, 1)
		}
		lines = append(lines, l)
	}
	require.NoError(t, os.WriteFile(path("better.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	stderr.Reset()
	assert.Equal(t, 1, run(context.Background(), []string{"scan", "-list", path("sites.txt"), "-out", path("new.jsonl"), "-baseline", path("better.jsonl")}, &stdout, &stderr, n.Client()))
	assert.Contains(t, stderr.String(), "gate: https://b.example/: llms_txt got worse: pass -> fail")
	assert.NotContains(t, stderr.String(), "gate: https://a.example/")
	assert.Contains(t, stderr.String(), "gate: 1 site got worse than in the baseline")
	md = string(mustRead(t, step))
	assert.Contains(t, md, "1 site got worse than in the baseline", "each run appends its own table")
	assert.Contains(t, md, "1 check worse: `llms_txt` |", "b's row names the check that got worse")

	// -summary - with -list needs -out FILE.
	assert.Equal(t, 2, run(context.Background(), []string{"scan", "-list", path("sites.txt"), "-summary", "-"}, &stdout, &stderr, n.Client()))
	assert.Equal(t, 2, run(context.Background(), []string{"scan", "-list", path("sites.txt"), "-sarif", path("x")}, &stdout, &stderr, n.Client()))
}

// TestListSummaryCellsStayCells: an error or a site with pipes, backticks
// or line breaks stays one table cell of the job summary.
func TestListSummaryCellsStayCells(t *testing.T) {
	var s listSummary
	s.add(readiness.BatchResult{Site: "https://a.example/`x`|y", Err: errors.New("boom | `bang`\nsecond line")})
	md := string(s.markdown(1, 1, 0))
	assert.Contains(t, md, "1 site could not be scanned; 0 sites got worse than in the baseline.")
	assert.Contains(t, md, "| `https://a.example/'x'\\|y` | | could not scan: `boom \\| 'bang' second line` | |\n")
}

// TestReadHistoryKeepsTheLastRuns: -history draws the last maxTrend runs
// of the site, oldest first, from a file of many more and of other sites.
func TestReadHistoryKeepsTheLastRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	var b bytes.Buffer
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3*maxTrend + 7 {
		for _, site := range []string{"https://shop.example/", "https://other.example/"} {
			line, err := json.Marshal(readiness.Summary{Site: site, ScannedAt: start.Add(time.Duration(i) * time.Hour), Score: float64(i % 100), Checks: map[string]string{"R1-1": "pass"}})
			require.NoError(t, err)
			b.Write(append(line, '\n'))
		}
	}
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	runs, err := readHistory(path, "https://shop.example/")
	require.NoError(t, err)
	require.Len(t, runs, maxTrend)
	for i, r := range runs {
		assert.Equal(t, "https://shop.example/", r.Site)
		assert.Equal(t, start.Add(time.Duration(2*maxTrend+7+i)*time.Hour), r.ScannedAt, "run %d", i)
	}
}
