package benchratio

import (
	"runtime"
	"testing"
	"time"
)

// Batch measures a benchmark that runs one batch per iteration. It keeps
// the mean wall time of a round, the peak heap, and the goroutines and
// open files there were before the first round.
type Batch struct {
	b          *testing.B
	goroutines int
	files      int
	wall       time.Duration
	peak       uint64
}

// StartBatch records the goroutines and open files now and resets b's
// timer. Call it once the setup of the benchmark is done.
func StartBatch(b *testing.B) *Batch {
	m := &Batch{b: b, goroutines: runtime.NumGoroutine(), files: OpenFiles()}
	b.ResetTimer()
	return m
}

// Round runs one batch, adds its wall time and samples its heap with
// [HeapPeak] every 20 ms.
func (m *Batch) Round(batch func()) {
	stop := HeapPeak(20 * time.Millisecond)
	t := time.Now()
	batch()
	m.wall += time.Since(t)
	m.peak = max(m.peak, stop())
}

// Done stops the timer and calls idle to close what the batch kept open.
// It waits up to five seconds for the batch's goroutines to end. It then
// reports "x-ideal" (the mean wall time of a round over ideal),
// "MiB-peak-heap", "goroutines-left" and "files-left". It returns the
// peak heap in bytes.
func (m *Batch) Done(ideal time.Duration, idle func()) uint64 {
	b := m.b
	b.StopTimer()
	idle()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > m.goroutines && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	wall := m.wall / time.Duration(b.N)
	b.ReportMetric(float64(wall)/float64(ideal), "x-ideal")
	b.ReportMetric(float64(m.peak)/(1<<20), "MiB-peak-heap")
	b.ReportMetric(float64(runtime.NumGoroutine()-m.goroutines), "goroutines-left")
	b.ReportMetric(float64(OpenFiles()-m.files), "files-left")
	return m.peak
}
