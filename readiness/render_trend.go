package readiness

import (
	"fmt"
	"github.com/agentweb/agentweb/internal/plural"
	"math"
	"strings"
)

// trendRuns returns the runs a trend shows: the report's Trend, oldest
// first, then the report itself.
func (r *Report) trendRuns() []Summary {
	runs := make([]Summary, 0, len(r.Trend)+1)
	runs = append(runs, r.Trend...)
	return append(runs, *r.Summary())
}

// sinceLast compares the run before this one with this one. It is nil when the
// report has no earlier run. It is nil too when that run is the baseline, whose
// comparison the forms show already.
func (r *Report) sinceLast() *Comparison {
	if len(r.Trend) == 0 {
		return nil
	}
	prev := &r.Trend[len(r.Trend)-1]
	if b := r.Baseline; b != nil && b.From.Equal(prev.ScannedAt) && b.Before == prev.Score {
		return nil
	}
	return CompareSummaries(prev, r.Summary())
}

// The geometry of the trend chart, in SVG user units.
const (
	chartW, chartH   = 640, 200
	plotL, plotR     = 44, 600 // left and right edges of the plot
	plotT, plotB     = 16, 160 // top (score 100) and bottom (score 0)
	maxDateLabels    = 6
	denseRunsAtLeast = 30 // from this many runs the points are drawn smaller
)

// trendSVG draws the score of each run by date as an inline SVG. It has one
// point per run in order, oldest left, on a 0–100 axis. The gauge's bands (50,
// 90) are drawn as lines. Each point has a tooltip with its date and score, and
// the last is labelled. At most maxDateLabels dates are written under the axis.
// It holds numbers and dates only, never text from a site.
func trendSVG(runs []Summary) string {
	var b strings.Builder
	n := len(runs)
	y := func(score float64) float64 {
		score = math.Max(0, math.Min(100, score))
		return plotB - (plotB-plotT)*score/100
	}
	x := func(i int) float64 {
		if n == 1 {
			return (plotL + plotR) / 2
		}
		return plotL + float64(i)*float64(plotR-plotL)/float64(n-1)
	}
	fmt.Fprintf(&b, `<svg class="trend" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="Score by date, %s, last %s">`, chartW, chartH, chartW, chartH, plural.N(n, "run", "runs"), oneDecimal(runs[n-1].Score))
	b.WriteString("\n")
	for _, g := range []struct {
		score float64
		color string
	}{{100, "#ddd"}, {90, "#0a7d32"}, {50, "#b35c00"}, {0, "#999"}} {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="1" stroke-dasharray="%s"/><text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#555">%g</text>`+"\n",
			plotL, y(g.score), plotR, y(g.score), g.color, map[bool]string{true: "4 3", false: "none"}[g.score == 90 || g.score == 50], plotL-6, y(g.score)+4, g.score)
	}
	if n > 1 {
		pts := make([]string, n)
		for i, s := range runs {
			pts[i] = fmt.Sprintf("%.1f,%.1f", x(i), y(s.Score))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#3367d6" stroke-width="2" stroke-linejoin="round"/>`+"\n", strings.Join(pts, " "))
	}
	radius := 4.0
	if n >= denseRunsAtLeast {
		radius = 2.5
	}
	for i, s := range runs {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="%s" data-run="%d" data-score="%s"><title>%s: %s, %s</title></circle>`+"\n",
			x(i), y(s.Score), radius, scoreColor(s.Score/100), i, oneDecimal(s.Score), s.ScannedAt.Format("2006-01-02 15:04 UTC"), oneDecimal(s.Score), readyWord(s.Ready))
	}
	last := runs[n-1]
	anchor := "end"
	if n == 1 {
		anchor = "middle"
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="12" font-weight="700" text-anchor="%s" fill="#1b1b1b">%s</text>`+"\n", x(n-1), y(last.Score)-8, anchor, oneDecimal(last.Score))
	// Dates under the axis: the first and the last, and evenly spaced runs
	// between them.
	labels := min(n, maxDateLabels)
	seen := map[int]bool{}
	for k := range labels {
		i := 0
		if labels > 1 {
			i = int(math.Round(float64(k) * float64(n-1) / float64(labels-1)))
		}
		if seen[i] {
			continue
		}
		seen[i] = true
		a := "middle"
		switch {
		case n > 1 && i == 0:
			a = "start"
		case n > 1 && i == n-1:
			a = "end"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11" text-anchor="%s" fill="#555">%s</text>`+"\n", x(i), plotB+18, a, runs[i].ScannedAt.Format("2006-01-02"))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#555">one point per run, oldest left; dashed lines at 90 and 50</text>`+"\n", plotL, plotB+34)
	b.WriteString("</svg>")
	return b.String()
}

// sparkline draws scores as a line of block characters, for the Markdown
// forms.
func sparkline(runs []Summary) string {
	const blocks = "▁▂▃▄▅▆▇█"
	bs := []rune(blocks)
	var b strings.Builder
	for _, s := range runs {
		i := int(math.Round(math.Max(0, math.Min(100, s.Score)) / 100 * float64(len(bs)-1)))
		b.WriteRune(bs[i])
	}
	return b.String()
}

// directionWord is how a change's direction reads in a sentence.
func changeLine(ch CheckChange) string {
	from, to := ch.From, ch.To
	if from == "" {
		from = "(none)"
	}
	if to == "" {
		to = "(none)"
	}
	return fmt.Sprintf("%s → %s (%s)", from, to, ch.Direction)
}

// maxTrendRows is how many of the latest runs the Markdown trend lists.
const maxTrendRows = 10

// markdownDelta writes a comparison in Markdown: the total, readiness,
// each section's delta and a table of the checks that changed.
func markdownDelta(p func(string, ...any), heading string, c *Comparison) {
	p("%s\n\n", heading)
	p("- Score: %s → %s (**%s**), from %s to %s\n", oneDecimal(c.Before), oneDecimal(c.After), signed(c.Delta),
		c.From.Format("2006-01-02T15:04:05Z07:00"), c.To.Format("2006-01-02T15:04:05Z07:00"))
	p("- Ready: %s → %s\n", readyWord(c.ReadyBefore), readyWord(c.ReadyAfter))
	var secs []string
	for _, s := range sectionTable {
		secs = append(secs, fmt.Sprintf("%s %s", s.Title, signed(c.Sections[s.ID])))
	}
	p("- Sections: %s\n\n", strings.Join(secs, ", "))
	if len(c.Changes) == 0 {
		p("No check changed.\n\n")
		return
	}
	p("| Check | Requirement | Before | After | Change |\n|---|---|---|---|---|\n")
	for _, ch := range c.Changes {
		req := ch.Requirement
		if req == "" {
			req = "—"
		}
		p("| `%s` | %s | %s | %s | %s |\n", strings.ReplaceAll(clean(ch.Check), "`", "'"), req, stateLabel(ch.From), stateLabel(ch.To), ch.Direction)
	}
	p("\n")
}

// stateLabel is a check state as the renderings show it.
func stateLabel(s string) string {
	if s == "" {
		return "—"
	}
	return verdictLabel(Verdict(s))
}

// markdownTrend writes the trend in Markdown: a sparkline of every run,
// the latest runs in a table, and the change since the previous run.
func (r *Report) markdownTrend(p func(string, ...any)) {
	runs := r.trendRuns()
	p("## Trend\n\n")
	p("%s %s from %s to %s (one block per run, oldest first).\n\n", sparkline(runs), plural.N(len(runs), "run", "runs"),
		runs[0].ScannedAt.Format("2006-01-02"), runs[len(runs)-1].ScannedAt.Format("2006-01-02"))
	p("| Scanned at | Score | Ready |\n|---|---:|---|\n")
	for _, s := range runs[max(0, len(runs)-maxTrendRows):] {
		p("| %s | %s | %s |\n", s.ScannedAt.Format("2006-01-02T15:04:05Z07:00"), oneDecimal(s.Score), readyWord(s.Ready))
	}
	p("\n")
	if c := r.sinceLast(); c != nil {
		markdownDelta(p, "### Since the previous run", c)
	}
}
