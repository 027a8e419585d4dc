package readiness

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/benchratio"
)

// BenchmarkScanAll scans N distinct sites (the test site under N names)
// at concurrency 64 with 20 ms of latency on every response, and reports
// the wall time as a ratio of the ideal (N ÷ 64 × one site's wall time at
// that latency, measured in the same run), the peak heap, and the
// goroutines and open files left after the batch.
func BenchmarkScanAll(b *testing.B) {
	const conc, latency = 64, 20 * time.Millisecond
	for _, n := range []int{100, 500} {
		b.Run(fmt.Sprintf("sites=%d", n), func(b *testing.B) {
			hosts := make([]string, n)
			for i := range hosts {
				hosts[i] = fmt.Sprintf("shop%03d.example", i)
			}
			bn := newBatchNet(b, hosts, latency)
			client := bn.Client()
			opts := Options{Client: client, Now: batchNow}
			sites := make([]string, n)
			for i, h := range hosts {
				sites[i] = "https://" + h + "/"
			}
			// One site alone, at the same latency, on a warm client.
			t0 := time.Now()
			if _, err := Scan(context.Background(), sites[0], &opts); err != nil {
				b.Fatal(err)
			}
			one := time.Since(t0)
			ideal := time.Duration(float64(n) / conc * float64(one))
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			network := ms.HeapInuse // the fake internet itself: servers, certificates, test sites
			m := benchratio.StartBatch(b)
			for range b.N {
				count := 0
				m.Round(func() {
					for r := range ScanAll(context.Background(), slices.Values(sites), &BatchOptions{Options: opts, Concurrency: conc}) {
						if r.Err != nil {
							b.Fatal(r.Err)
						}
						count++
					}
				})
				if count != n {
					b.Fatalf("%d results for %d sites", count, n)
				}
			}
			peak := m.Done(ideal, client.CloseIdleConnections)
			b.ReportMetric(float64(one)/1e6, "ms-one-site")
			// What the batch adds over the network it scans: the figure that
			// must not grow with the number of sites.
			b.ReportMetric(float64(peak-min(peak, network))/(1<<20), "MiB-over-network")
		})
	}
}
