// Package benchratio times two operations alternately in one benchmark loop,
// so that the load of the machine falls on both alike, and reports the ratio
// of their times. The issues state several budgets as such ratios: a Parse
// within 4× of encoding/json decoding the same bytes, measured in the same
// run. Every package measures them the same way through [Run].
//
// It is imported by benchmarks only.
package benchratio

import (
	"testing"
	"time"
)

// Run calls ours and then baseline once per iteration of b.Loop and reports
// three metrics. They are "ratio" (the time spent in ours over the time
// spent in baseline), "ours-ns/op" and "baseline-ns/op". An error from
// either function stops the benchmark with b.Fatal.
func Run(b *testing.B, ours, baseline func() error) {
	b.Helper()
	var tOurs, tBase time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := ours(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := baseline(); err != nil {
			b.Fatal(err)
		}
		tBase += time.Since(t1)
		tOurs += t1.Sub(t0)
	}
	if tBase > 0 {
		b.ReportMetric(float64(tOurs)/float64(tBase), "ratio")
	}
	b.ReportMetric(float64(tOurs.Nanoseconds())/float64(b.N), "ours-ns/op")
	b.ReportMetric(float64(tBase.Nanoseconds())/float64(b.N), "baseline-ns/op")
}
