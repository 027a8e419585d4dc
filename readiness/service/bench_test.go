package service_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/service"
)

// BenchmarkCachedAnswer is the API's overhead for a site scanned within
// the cache's time: one POST /api/scans over HTTP answered 200 from the
// store with the report (about 60 KB of JSON).
func BenchmarkCachedAnswer(b *testing.B) {
	e := newEnv(b, func(o *service.Options) { o.CallerLimit.Count = -1 }, "shop.example")
	_, s := e.post(b, "https://shop.example/", nil)
	e.wait(b, s.ID, 30*time.Second)
	client := e.srv.Client()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := client.Post(e.srv.URL+"/api/scans", "application/json", strings.NewReader(`{"url": "https://shop.example/"}`))
		if err != nil {
			b.Fatal(err)
		}
		drain(resp)
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

func drain(resp *http.Response) {
	buf := make([]byte, 32<<10)
	for {
		if _, err := resp.Body.Read(buf); err != nil {
			break
		}
	}
	resp.Body.Close()
}

// BenchmarkThroughput is scans per second through the service (queued over
// the API, run by its workers, stored, polled until done) beside
// readiness.ScanAll on the same 20 sites with as many scans at once.
func BenchmarkThroughput(b *testing.B) {
	const sites, workers = 20, 4
	w := newLoadWorld(b, sites, 2*time.Millisecond)
	b.Cleanup(w.net.Close)
	urls := make([]string, len(w.hosts))
	for i, h := range w.hosts {
		urls[i] = "https://" + h + "/"
	}
	b.Run("service", func(b *testing.B) {
		e := newEnv(b, func(o *service.Options) {
			o.Client = w.net.Client()
			o.Workers = workers
			o.CacheTTL = -1
			o.CallerLimit.Count, o.TargetLimit.Count = -1, -1
		})
		start := time.Now()
		for b.Loop() {
			ids := make([]string, 0, sites)
			for _, u := range urls {
				resp, s := e.post(b, u, nil)
				require.Equal(b, http.StatusAccepted, resp.StatusCode)
				ids = append(ids, s.ID)
			}
			for _, id := range ids {
				if s := e.wait(b, id, time.Minute); s.Status != "done" {
					b.Fatalf("%s: %s", id, s.Status)
				}
			}
		}
		b.ReportMetric(float64(b.N*sites)/time.Since(start).Seconds(), "scans/s")
	})
	b.Run("ScanAll", func(b *testing.B) {
		client := w.net.Client()
		start := time.Now()
		for b.Loop() {
			n := 0
			for r := range readiness.ScanAll(context.Background(), slices.Values(urls), &readiness.BatchOptions{
				Options: readiness.Options{Client: client}, Concurrency: workers}) {
				if r.Err != nil {
					b.Fatal(r.Err)
				}
				n++
			}
			if n != sites {
				b.Fatal(fmt.Sprint(n, " reports"))
			}
		}
		b.ReportMetric(float64(b.N*sites)/time.Since(start).Seconds(), "scans/s")
	})
}
