package readiness

import (
	"bytes"
	"fmt"
	"github.com/agentweb/agentweb/internal/plural"
	"strings"
)

// maxSummaryFixes is how many fix-first entries a job summary lists.
const maxSummaryFixes = 10

// JobSummary renders the report as a short Markdown page for a CI job's
// summary. GitHub Actions appends it to the file $GITHUB_STEP_SUMMARY names. It
// shows the score and readiness and the requirements not met. When Baseline is
// set, it shows what changed since the baseline: the score delta, the sections
// and every check that changed, both ways. When Trend is set, it shows the
// trend. Then come the section scores and the first entries of the fix-first
// list with their points. Last is one prompt for a coding agent with every fix,
// folded in a <details> element. It is far shorter than [Report.Markdown].
func (r *Report) JobSummary() []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("## Agent readiness: %s\n\n", mdText(r.Site))
	if r.Scope.Development {
		p("> **%s**\n\n", mdText(developmentNotice))
	}
	delta := ""
	if r.Baseline != nil {
		delta = fmt.Sprintf(" (%s since the baseline)", signed(r.Baseline.Delta))
	}
	unmet := strings.Join(r.unmet(), ", ")
	if unmet == "" {
		unmet = "none"
	}
	p("| Score | Ready | Requirements not met | Unverified |\n|---|---|---|---:|\n")
	p("| **%s** / 100%s | %s | %s | %d |\n\n", oneDecimal(r.Score), delta, readyWord(r.Ready), unmet, len(r.Unverified))
	if r.Baseline != nil {
		markdownDelta(p, "### Since the baseline", r.Baseline)
	}
	if r.Trend != nil {
		runs := r.trendRuns()
		p("### Trend\n\n%s %s from %s to %s", sparkline(runs), plural.N(len(runs), "run", "runs"),
			runs[0].ScannedAt.Format("2006-01-02"), runs[len(runs)-1].ScannedAt.Format("2006-01-02"))
		if c := r.sinceLast(); c != nil {
			p("; %s since the previous run, %s changed", signed(c.Delta), plural.N(len(c.Changes), "check", "checks"))
		}
		p(".\n\n")
	}
	p("### Sections\n\n| Section | Score | Points |\n|---|---:|---:|\n")
	for _, s := range r.Sections {
		p("| %s | %s | %s |\n", mdCell(s.Title), sectionScoreText(s), points(s.Points))
	}
	p("\n### Fix first\n\n")
	if len(r.Fixes) == 0 {
		p("Nothing: no check leaves points.\n")
		return b.Bytes()
	}
	p("| # | Points | Check | Requirement | Fix |\n|---:|---:|---|---|---|\n")
	for i, f := range r.Fixes[:min(len(r.Fixes), maxSummaryFixes)] {
		req := f.Requirement
		if req == "" {
			req = "—"
		}
		p("| %d | +%s | `%s` | %s | %s |\n", i+1, oneDecimal(f.Points), f.Check, req, mdCell(f.Fix))
	}
	if n := len(r.Fixes) - maxSummaryFixes; n > 0 {
		p("\n… and %d more in the full report.\n", n)
	}
	prompt := string(r.Prompt())
	fence := strings.Repeat("~", max(4, longestRun(prompt, '~')+1))
	p("\n<details><summary>Prompt for a coding agent (every fix)</summary>\n\n%smarkdown\n%s%s\n\n</details>\n", fence, prompt, fence)
	return b.Bytes()
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
