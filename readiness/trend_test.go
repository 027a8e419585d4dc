package readiness

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// trendReport is the golden report with n runs in its trend, this one
// included (n−1 earlier ones, a day apart, with scores that wander), and
// the first run as its baseline. The run before this one had sitemap
// failing and llms_txt passing, so the change since it shows both ways.
func trendReport(n int) *Report {
	r := fixedReport()
	now := r.Summary()
	r.Trend = []Summary{}
	for i := range n - 1 {
		s := *now
		s.Checks = maps.Clone(now.Checks)
		s.Sections = maps.Clone(now.Sections)
		s.ScannedAt = now.ScannedAt.Add(-time.Duration(n-1-i) * 24 * time.Hour)
		s.Score = math.Round((45+25*math.Sin(float64(i)/3)+float64(i)*0.6)*10) / 10
		s.Sections[SectionDiscover] = now.Sections[SectionDiscover] - 1
		if i == n-2 {
			s.Checks["sitemap"] = "fail"
			s.Checks["llms_txt"] = "pass"
		}
		r.Trend = append(r.Trend, s)
	}
	if len(r.Trend) > 0 {
		r.Baseline = CompareSummaries(&r.Trend[0], now)
	}
	return r
}

func TestTrendGolden(t *testing.T) {
	r := trendReport(5)
	golden(t, "report-trend.md", r.Markdown())
	golden(t, "report-trend.html", r.HTML())
}

func TestTrendForms(t *testing.T) {
	for _, n := range []int{1, 2, 50} {
		t.Run("runs="+strconv.Itoa(n), func(t *testing.T) {
			r := trendReport(n)
			r.Baseline = nil // the trend alone
			page := r.HTML()
			assertSelfContained(t, r, page)
			doc, err := html.Parse(bytes.NewReader(page))
			require.NoError(t, err)
			points := 0
			var last string
			for el := range doc.Descendants() {
				if el.Type == html.ElementNode && el.Data == "circle" {
					for _, a := range el.Attr {
						if a.Key == "data-run" {
							points++
						}
						if a.Key == "data-score" {
							last = a.Val
						}
					}
				}
			}
			assert.Equal(t, n, points, "one point per run, this one included")
			assert.Equal(t, oneDecimal(r.Score), last, "the last point is this run")
			md := string(r.Markdown())
			assert.Contains(t, md, "## Trend\n")
			assert.Contains(t, md, sparkline(r.trendRuns())+" "+plural.N(n, "run", "runs")+" from")
			if n == 1 {
				assert.NotContains(t, md, "### Since the previous run")
				assert.NotContains(t, string(page), "Since the previous run")
				return
			}
			assert.Contains(t, md, "### Since the previous run")
			assert.Contains(t, md, "| `sitemap` | R3 | fail | pass | better |")
			assert.Contains(t, md, "| `llms_txt` | R4 | pass | partial | worse |")
			assert.Contains(t, string(page), `data-change="sitemap" data-direction="better"`)
			assert.Contains(t, string(page), `data-change="llms_txt" data-direction="worse"`)
			assert.Contains(t, md, "Discover +1.0", "the section deltas of the last run")
		})
	}
}

func TestBaselineInForms(t *testing.T) {
	r := trendReport(3)
	md := string(r.Markdown())
	require.Contains(t, md, "## Since the baseline\n")
	assert.Contains(t, md, "- Score: "+oneDecimal(r.Baseline.Before)+" → "+oneDecimal(r.Score))
	page := string(r.HTML())
	assert.Contains(t, page, `<h2 id="baseline">Since the baseline</h2>`)
	assert.Contains(t, page, "(<strong>"+strings.ReplaceAll(signed(r.Baseline.Delta), "+", "&#43;")+"</strong>)")
	plain := fixedReport()
	assert.NotContains(t, string(plain.Markdown()), "Since the baseline")
	assert.NotContains(t, string(plain.Markdown()), "## Trend")
	assert.NotContains(t, string(plain.HTML()), `class="trend"`)
}

// When the baseline is the run before this one, the forms show the
// comparison once, as the baseline's.
func TestBaselineThatIsThePreviousRun(t *testing.T) {
	r := trendReport(2)
	r.Baseline = CompareSummaries(&r.Trend[0], r.Summary())
	md := string(r.Markdown())
	assert.Contains(t, md, "## Since the baseline")
	assert.NotContains(t, md, "### Since the previous run")
	assert.NotContains(t, string(r.HTML()), "Since the previous run")
	assert.Contains(t, string(r.HTML()), `class="trend"`)
}

func TestTrendAndBaselineRoundTrip(t *testing.T) {
	r := fixedReport()
	old := *r.Summary()
	old.ScannedAt = old.ScannedAt.Add(-24 * time.Hour)
	old.Score -= 5
	r.Trend = []Summary{old}
	r.Baseline = CompareSummaries(&old, r.Summary())
	js, err := r.JSON()
	require.NoError(t, err)
	var back Report
	require.NoError(t, json.Unmarshal(js, &back))
	assert.Equal(t, *r, back)
	plain, err := fixedReport().JSON()
	require.NoError(t, err)
	assert.NotContains(t, string(plain), `"trend"`, "left out when not set")
	assert.NotContains(t, string(plain), `"baseline"`)
}
