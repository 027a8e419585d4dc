package main

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/readiness"
)

// listSummary is the job summary of a -list run: one table row per site
// scanned, in the order the scans finished. It is appended to the file
// $GITHUB_STEP_SUMMARY names once the run ends.
type listSummary struct {
	rows []string
}

// add records one finished site: its score and readiness, or why it could
// not be scanned, and, against a baseline, the score delta and every check
// that got worse.
func (s *listSummary) add(r readiness.BatchResult) {
	if r.Err != nil {
		s.rows = append(s.rows, fmt.Sprintf("| %s | | could not scan: %s | |", mdCode(r.Site), mdCode(r.Err.Error())))
		return
	}
	ready := "not ready"
	if r.Report.Ready {
		ready = "ready"
	}
	since := ""
	if b := r.Report.Baseline; b != nil {
		since = fmt.Sprintf("%+.1f", b.Delta)
		var worse []string
		for _, ch := range b.Changes {
			if ch.Direction == "worse" {
				worse = append(worse, mdCode(ch.Check))
			}
		}
		if len(worse) > 0 {
			since += fmt.Sprintf(", %s worse: %s", count(len(worse), "check", "checks"), strings.Join(worse, " "))
		}
	}
	s.rows = append(s.rows, fmt.Sprintf("| %s | %.1f | %s | %s |", mdCode(r.Report.Site), r.Report.Score, ready, since))
}

// markdown is the summary: a heading with the counts, then the table.
func (s *listSummary) markdown(total, failed, worse int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "## Agent readiness: %s\n\n", count(total, "site", "sites"))
	if failed > 0 || worse > 0 {
		fmt.Fprintf(&b, "%s could not be scanned; %s worse than in the baseline.\n\n", count(failed, "site", "sites"), count(worse, "site got", "sites got"))
	}
	b.WriteString("| Site | Score | Ready | Since the baseline |\n|---|---|---|---|\n")
	for _, r := range s.rows {
		b.WriteString(r + "\n")
	}
	b.WriteString("\n")
	return []byte(b.String())
}

// mdCode is s as a Markdown code span that no backtick or pipe in s can end
// or split: site text is data, never markup.
func mdCode(s string) string {
	return "`" + mdCell(strings.ReplaceAll(s, "`", "'")) + "`"
}

// mdCell is s on one line with its pipes escaped, so that it stays one table
// cell.
func mdCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}
