package readiness

import (
	"encoding/json"
	"testing"
)

// BenchmarkSummaryLine is the cost of -summary and -history per site: the
// compact summary and its JSON line, against the full report's JSON line.
func BenchmarkSummaryLine(b *testing.B) {
	r := fixedReport()
	b.Run("summary", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(r.Summary()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("report", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.JSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCompareSummaries is the cost of -list -baseline per site.
func BenchmarkCompareSummaries(b *testing.B) {
	old, next := trendReport(2).Trend[0], fixedReport().Summary()
	for b.Loop() {
		CompareSummaries(&old, next)
	}
}

// BenchmarkCIForms renders each CI form of one report.
func BenchmarkCIForms(b *testing.B) {
	r := trendReport(50)
	for name, f := range map[string]func() error{
		"sarif":       func() error { _, err := r.SARIF(); return err },
		"junit":       func() error { _, err := r.JUnit(); return err },
		"job_summary": func() error { r.JobSummary(); return nil },
		"prompt":      func() error { r.Prompt(); return nil },
		"badge":       func() error { r.Badge(); return nil },
		"html_trend":  func() error { r.HTML(); return nil },
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
