package demosite_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/agentweb/agentweb/examples/demo/demosite"
	"github.com/agentweb/agentweb/internal/benchratio"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// BenchmarkScanAllDemo scans N distinct Example Shops (Options.Host
// shop000.example, shop001.example, ..., each with its peer and broker) on
// one network with readiness.ScanAll at concurrency 64 and 20 ms of
// latency on every host, and reports the wall time as a ratio of the ideal
// (N ÷ 64 × one shop's wall time at that latency, measured in the same
// run), the peak heap (sampled HeapInuse), the goroutines and open files
// left after the batch, and how many shops scored other than one shop
// alone (a scan starved of CPU on a loaded machine can run out of time).
func BenchmarkScanAllDemo(b *testing.B) {
	const conc, latency = 64, 20 * time.Millisecond
	now := func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
	for _, n := range []int{100, 500} {
		b.Run(fmt.Sprintf("shops=%d", n), func(b *testing.B) {
			net := fetchtest.New()
			b.Cleanup(net.Close)
			sites := make([]string, n)
			for i := range sites {
				s, err := demosite.Start(&demosite.Options{Host: fmt.Sprintf("shop%03d.example", i), Network: net, Now: now})
				if err != nil {
					b.Fatal(err)
				}
				for _, h := range []string{s.Host, s.PeerHost, s.BrokerHost} {
					net.SetLatency(h, latency)
				}
				sites[i] = s.URL
			}
			client := net.Client()
			opts := readiness.Options{Client: client, Now: now}
			// One shop alone, at the same latency, on a warm client.
			if _, err := readiness.Scan(context.Background(), sites[0], &opts); err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			one, err := readiness.Scan(context.Background(), sites[1], &opts)
			if err != nil {
				b.Fatal(err)
			}
			oneWall := time.Since(t0)
			ideal := time.Duration(float64(n) / conc * float64(oneWall))
			client.CloseIdleConnections()
			time.Sleep(100 * time.Millisecond)
			runtime.GC()
			m := benchratio.StartBatch(b)
			off := 0
			for range b.N {
				count := 0
				m.Round(func() {
					for r := range readiness.ScanAll(context.Background(), slices.Values(sites), &readiness.BatchOptions{Options: opts, Concurrency: conc}) {
						if r.Err != nil {
							b.Fatal(r.Err)
						}
						if r.Report.Score != one.Score {
							// A scan starved of CPU can run out of time; count
							// it and say why, rather than hide it.
							off++
							for i, c := range r.Report.Checks {
								if c.Verdict != one.Checks[i].Verdict && off <= 3 {
									b.Logf("%s %s: %s, %s", r.Site, c.ID, c.Verdict, c.Receipt.Received)
								}
							}
						}
						count++
					}
				})
				if count != n {
					b.Fatalf("%d results for %d shops", count, n)
				}
			}
			m.Done(ideal, client.CloseIdleConnections)
			b.ReportMetric(float64(oneWall)/1e6, "ms-one-shop")
			b.ReportMetric(float64(off)/float64(b.N), "shops-off-score")
		})
	}
}
