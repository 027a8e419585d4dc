package readiness

import (
	"bytes"
	"fmt"
	"strings"
)

// Markdown renders the report as CommonMark with GFM tables. It shows the total
// and readiness, and what changed since the baseline and the trend when the
// report has them (Baseline, Trend). Then come the fix-first list, each entry
// linking to its check, and the ten requirements as a list. Each section has a
// heading and a table of its checks. Each receipt is an indented block,
// followed by its fix when it has one. The unverified checks are listed apart,
// then the observations beyond the method with their receipts, then the scope.
// It shows the same numbers as [Report.JSON].
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("# Agent readiness: %s\n\n", mdText(r.Site))
	p("- Score: **%s / 100**: %s\n", oneDecimal(r.Score), r.scoreBasis())
	p("- Ready: **%s**\n", readyWord(r.Ready))
	p("- Method: %s\n", mdText(r.Method))
	p("- Scanned at: %s\n", r.ScannedAt.Format("2006-01-02T15:04:05Z07:00"))
	if r.Scope.Development {
		p("- **%s**\n", mdText(developmentNotice))
	}
	if n := r.overCapNotice(); n != "" {
		p("- **%s**\n", mdText(n))
	}
	p("\n")
	if r.Baseline != nil {
		markdownDelta(p, "## Since the baseline", r.Baseline)
	}
	if r.Trend != nil {
		r.markdownTrend(p)
	}

	p("## Fix first\n\n")
	if len(r.Fixes) == 0 {
		p("Nothing: no check leaves points.\n\n")
	} else {
		p("Every check that leaves points and that the site can make pass, the most points first; points are the sections' points, as in the table below.\n\n")
		for i, f := range r.Fixes {
			req := ""
			if f.Requirement != "" {
				req = ", " + f.Requirement
			}
			p("%d. **+%s points** [`%s`](#%s)%s: %s\n", i+1, oneDecimal(f.Points), f.Check, f.Check, req, mdText(f.Fix))
		}
		p("\n")
	}

	p("## Sections\n\n")
	p("| Section | Score | Points |\n|---|---:|---:|\n")
	for _, s := range r.Sections {
		score := oneDecimal(s.Score)
		if !s.Scored {
			score = "does not apply"
		}
		p("| %s | %s | %s |\n", mdCell(s.Title), score, points(s.Points))
	}
	p("\n")

	p("## Requirements\n\n")
	for _, q := range r.Requirements {
		mark := "not met"
		if q.Met {
			mark = "met"
		}
		p("- **%s** (%s, %s): %s — %s\n", q.ID, mark, q.Status, mdText(q.Text), mdText(q.Why))
	}
	p("\n")

	for _, s := range r.Sections {
		p("## %s (%s / %s)\n\n", mdText(s.Title), sectionScoreText(s), points(s.Points))
		if !s.Scored {
			p("%s %s.\n\n", mdText(s.Title), sectionBasis(s))
		}
		checks := r.checksOf(s.ID)
		p("| Check | Requirement | Verdict | Earned | Weight |\n|---|---|---|---:|---:|\n")
		for _, c := range checks {
			req := c.Requirement
			if req == "" {
				req = "—"
			}
			p("| `%s` | %s | %s | %s | %s |\n", c.ID, req, verdictLabel(c.Verdict), points(c.Earned), points(c.Weight))
		}
		p("\n")
		for _, c := range checks {
			p("### %s\n\n", c.ID)
			for _, line := range strings.Split(strings.TrimRight(receiptText(c), "\n"), "\n") {
				p("    %s\n", line)
			}
			p("\n")
			if c.Fix != "" {
				p("Fix: %s\n\n", mdText(c.Fix))
			}
		}
	}

	if len(r.Observations) > 0 {
		p("## Observations beyond the method\n\n")
		p("Facts other scanners report. They change no verdict, section, requirement or score.\n\n")
		p("| Observation | Status | Text | Standing |\n|---|---|---|---|\n")
		for _, o := range r.Observations {
			p("| `%s` | %s | [%s](%s) | %s |\n", o.ID, o.Status, mdCell(o.Text.Title), o.Text.URL, mdCell(o.Text.Status))
		}
		p("\n")
		for _, o := range r.Observations {
			p("### %s\n\n", o.ID)
			p("%s\n\n", mdText(o.Meaning))
			for _, line := range strings.Split(strings.TrimRight(observationReceipt(o), "\n"), "\n") {
				p("    %s\n", line)
			}
			p("\n")
		}
	}

	p("## Unverified\n\n")
	if len(r.Unverified) == 0 {
		p("None: every check got an answer.\n\n")
	} else {
		p("These checks could not be answered. They keep their weight and earn nothing; they are neither passed nor failed.\n\n")
		for _, id := range r.Unverified {
			p("- `%s`\n", id)
		}
		p("\n")
	}

	p("## Scope\n\n")
	p("Routes read:\n\n")
	for _, u := range r.Scope.Routes {
		p("- %s\n", mdText(u))
	}
	p("\n")
	p("Budget: %d of %d attempts, %d of %d bytes, peak concurrency %d",
		r.Scope.Budget.Attempts, r.Scope.Budget.MaxAttempts, r.Scope.Budget.Bytes, r.Scope.Budget.MaxBytes, r.Scope.Budget.PeakConcurrency)
	if r.Scope.Budget.Exhausted != "" {
		p(", exhausted: %s", mdText(r.Scope.Budget.Exhausted))
	}
	p(".\n")
	return b.Bytes()
}

func sectionScoreText(s SectionResult) string {
	if !s.Scored {
		return "does not apply"
	}
	return oneDecimal(s.Score)
}

// mdText escapes the characters that would change the meaning of inline
// Markdown, so that text read from a site stays text.
func mdText(s string) string {
	s = clean(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()<>#+!|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func mdCell(s string) string { return mdText(s) }
