package browser

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/benchratio"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// needChromium skips the test unless AGENTWEB_BROWSER=1: the tests of this
// package run the system's Chromium, which go test ./... does not need.
func needChromium(tb testing.TB) {
	tb.Helper()
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		tb.Skip("set AGENTWEB_BROWSER=1 to run the tests with a real Chromium (apt-get install chromium)")
	}
}

// treeRSS sums the resident memory (VmRSS) of the process pid and of every
// process descended from it: Chromium's browser, zygotes, renderers and
// utility processes. Pages shared between them (the executable, shared
// memory) count once per process, so the sum overstates what the tree
// costs; treePSS gives each shared page its share.
func treeRSS(pid int) uint64 { return treeSum(pid, "status", "VmRSS:") }

// treePSS sums the proportional set size (Pss) of the same tree.
func treePSS(pid int) uint64 { return treeSum(pid, "smaps_rollup", "Pss:") }

func treeSum(pid int, file, field string) uint64 {
	parent := map[int]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 {
			continue
		}
		p, _ := strconv.Atoi(filepath.Base(d))
		pp, _ := strconv.Atoi(f[1])
		parent[p] = pp
	}
	inTree := func(p int) bool {
		for range 64 {
			if p == pid {
				return true
			}
			if p <= 1 {
				return false
			}
			p = parent[p]
		}
		return false
	}
	var sum uint64
	for p := range parent {
		if !inTree(p) {
			continue
		}
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", p, file))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, field); ok {
				kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				sum += kb << 10
				break
			}
		}
	}
	return sum
}

// rssPeak samples the browser's process tree every interval until stop is
// called, and returns the peaks of its RSS and PSS sums.
func (b *Browser) rssPeak(interval time.Duration) (stop func() (rss, pss uint64)) {
	pid := b.pid()
	var mu sync.Mutex
	var peak, peakPSS uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			v, w := treeRSS(pid), treePSS(pid)
			mu.Lock()
			peak, peakPSS = max(peak, v), max(peakPSS, w)
			mu.Unlock()
			select {
			case <-t.C:
			case <-done:
				return
			}
		}
	})
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return peak, peakPSS
	}
}

// current is the running Chromium.
func (b *Browser) current() *instance {
	b.instMu.Lock()
	defer b.instMu.Unlock()
	return b.inst
}

// pid is the running Chromium's browser process.
func (b *Browser) pid() int { return b.current().pid }

// pagesOpen counts the browser's open page targets.
func (b *Browser) pagesOpen(tb testing.TB) int {
	infos, err := chromedp.Targets(b.current().ctx)
	require.NoError(tb, err)
	n := 0
	for _, i := range infos {
		if i.Type == "page" {
			n++
		}
	}
	return n
}

// benchSite is a shop whose page registers a tool from a script on a CDN
// and has a declared form: what a rendering must find.
func benchSite() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title><script src="https://cdn.example/tools.js"></script></head><body><h1>Shop</h1><p>`+
			strings.Repeat("Tents, stoves and boots for every season, shipped in two days. ", 5)+
			`</p><form action="/book" method="post" toolname="book" tooldescription="Book a fitting."><input name="day" toolparamdescription="The day."></form></body></html>`)
	})
	return mux
}

func cdnSite() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/tools.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `document.modelContext.registerTool({name: "add_to_cart", description: "Put a product in the cart.", execute: async () => ({content: []})});`)
	})
	return mux
}

// BenchmarkScanRendered scans the same site with and without a rendering,
// alternately: "ratio" is the rendered scan's time over the static one's.
// It reports Chromium's peak memory over the run, the resident memory of
// its whole process tree. On a loaded 2-core machine, a rendered scan
// took about 1.2 s against 12 ms static. Chromium's process tree peaked at
// about 0.4 GiB (proportional set size).
func BenchmarkScanRendered(b *testing.B) {
	needChromium(b)
	br, err := New(context.Background(), nil)
	require.NoError(b, err)
	defer br.Close()
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", benchSite())
	n.Site("cdn.example", cdnSite())
	client := n.Client()
	static := readiness.Options{Client: client}
	rendered := readiness.Options{Client: client, Renderer: br}
	idle := treeRSS(br.pid())
	stop := br.rssPeak(50 * time.Millisecond)
	var attStatic, attRendered int
	benchratio.Run(b, func() error {
		r, err := readiness.Scan(context.Background(), "https://shop.example/", &rendered)
		if err == nil {
			attRendered = r.Scope.Budget.Attempts
		}
		return err
	}, func() error {
		r, err := readiness.Scan(context.Background(), "https://shop.example/", &static)
		if err == nil {
			attStatic = r.Scope.Budget.Attempts
		}
		return err
	})
	peak, peakPSS := stop()
	b.ReportMetric(float64(idle)/(1<<20), "MiB-chromium-idle-rss")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-chromium-peak-rss")
	b.ReportMetric(float64(peakPSS)/(1<<20), "MiB-chromium-peak-pss")
	b.ReportMetric(float64(attRendered-attStatic), "attempts-added")
}

// BenchmarkScanAllOneBrowser scans 50 and 150 sites with ScanAll and one
// shared browser. It reports Chromium's peak memory, its memory after the
// batch and the Go heap's peak. It reports the page targets left open
// beside the one Chromium starts with (none) and the goroutines left.
// Memory stays flat with the number of sites. On a loaded 2-core
// machine, Chromium's process tree peaked at 0.50 and 0.54 GiB
// (proportional set size) over batches of 50 and 150 sites.
func BenchmarkScanAllOneBrowser(b *testing.B) {
	needChromium(b)
	for _, count := range []int{50, 150} {
		b.Run(fmt.Sprintf("sites=%d", count), func(b *testing.B) {
			br, err := New(context.Background(), &Options{Tabs: 4})
			require.NoError(b, err)
			defer br.Close()
			n := fetchtest.New()
			defer n.Close()
			n.Site("cdn.example", cdnSite())
			sites := make([]string, count)
			for i := range sites {
				host := fmt.Sprintf("shop%03d.example", i)
				n.Site(host, benchSite())
				sites[i] = "https://" + host + "/"
			}
			client := n.Client()
			opts := readiness.BatchOptions{Options: readiness.Options{Client: client, Renderer: br}, Concurrency: 8}
			g0, tabs0 := runtime.NumGoroutine(), br.pagesOpen(b)
			b.ResetTimer()
			var chromiumPeak, chromiumPSS, heapPeak uint64
			rendered := 0
			for range b.N {
				stopRSS := br.rssPeak(100 * time.Millisecond)
				stopHeap := benchratio.HeapPeak(50 * time.Millisecond)
				for r := range readiness.ScanAll(context.Background(), slices.Values(sites), &opts) {
					if r.Err != nil {
						b.Fatal(r.Err)
					}
					for _, c := range r.Report.Checks {
						if c.ID == "page_actions_declared" && strings.Contains(c.Receipt.Received, "rendered in") {
							rendered++
						}
					}
				}
				rss, pss := stopRSS()
				chromiumPeak, chromiumPSS = max(chromiumPeak, rss), max(chromiumPSS, pss)
				heapPeak = max(heapPeak, stopHeap())
			}
			b.StopTimer()
			client.CloseIdleConnections()
			end := treeRSS(br.pid())
			b.ReportMetric(float64(chromiumPeak)/(1<<20), "MiB-chromium-peak-rss")
			b.ReportMetric(float64(chromiumPSS)/(1<<20), "MiB-chromium-peak-pss")
			b.ReportMetric(float64(end)/(1<<20), "MiB-chromium-after-rss")
			b.ReportMetric(float64(heapPeak)/(1<<20), "MiB-go-heap-peak")
			b.ReportMetric(float64(br.pagesOpen(b)-tabs0), "tabs-left")
			b.ReportMetric(float64(rendered)/float64(b.N*count), "share-rendered")
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > g0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			b.ReportMetric(float64(runtime.NumGoroutine()-g0), "goroutines-left")
		})
	}
}

// After a batch of scans sharing one browser, no tab is left open.
func TestNoTabLeftAfterABatch(t *testing.T) {
	needChromium(t)
	br, err := New(context.Background(), &Options{Tabs: 3})
	require.NoError(t, err)
	defer br.Close()
	n := fetchtest.New()
	defer n.Close()
	n.Site("cdn.example", cdnSite())
	var sites []string
	for i := range 6 {
		host := fmt.Sprintf("shop%d.example", i)
		n.Site(host, benchSite())
		sites = append(sites, "https://"+host+"/")
	}
	base := br.pagesOpen(t)
	for r := range readiness.ScanAll(context.Background(), slices.Values(sites), &readiness.BatchOptions{Options: readiness.Options{Client: n.Client(), Renderer: br}}) {
		require.NoError(t, r.Err)
	}
	require.Equal(t, base, br.pagesOpen(t), "every tab of the batch is closed")
}

// batchTimeout is the page deadline of the batch with hostile pages.
const batchTimeout = 5 * time.Second

// A ScanAll of 50 sites of which 10 are hostile pages takes no more than
// the 40 harmless ones plus 10 deadlines, each with its margin. The
// hostile pages are floods, and pages that take memory in Chromium or try
// to in this process. The harmless sites are rendered and judged beside
// them. The figures are logged. On a loaded 2-core machine, with 5 s
// deadlines and two tabs, the batch took 51 s against 29 s for its 40
// harmless sites alone. The bound was 109 s: the harmless sites' time
// plus 10 deadlines.
func TestABatchWithHostilePagesTakesNoMoreThanItsDeadlines(t *testing.T) {
	needChromium(t)
	skipUnderRace(t)
	var hostile []string
	for _, m := range []map[string]string{floods, memoryHogs, goHogs} {
		for _, body := range m {
			hostile = append(hostile, body)
		}
	}
	slices.Sort(hostile)
	require.GreaterOrEqual(t, len(hostile), 10)
	hostile = hostile[:10]

	br, err := New(context.Background(), &Options{Timeout: batchTimeout})
	require.NoError(t, err)
	defer br.Close()
	n := fetchtest.New()
	defer n.Close()
	n.Site("cdn.example", cdnSite())
	var harmless, mixed []string
	for i := range 40 {
		host := fmt.Sprintf("shop%02d.example", i)
		n.Site(host, benchSite())
		harmless = append(harmless, "https://"+host+"/")
	}
	for i, body := range hostile {
		host := fmt.Sprintf("hostile%02d.example", i)
		n.Site(host, hogPage(`<h1>Hostile</h1>`+body))
		mixed = append(mixed, "https://"+host+"/")
	}
	// The hostile sites spread through the batch.
	for i, h := range harmless {
		mixed = append(mixed, h)
		if i%4 == 3 {
			mixed[i/4], mixed[len(mixed)-1] = mixed[len(mixed)-1], mixed[i/4]
		}
	}
	client := n.Client()
	opts := readiness.BatchOptions{Options: readiness.Options{Client: client, Renderer: br}}
	batch := func(sites []string) (time.Duration, int) {
		start := time.Now()
		rendered := 0
		for r := range readiness.ScanAll(context.Background(), slices.Values(sites), &opts) {
			require.NoError(t, r.Err)
			for _, c := range r.Report.Checks {
				if c.ID != "page_actions_declared" {
					continue
				}
				if strings.Contains(c.Receipt.Received, `"add_to_cart" (imperative`) {
					rendered++
				} else if strings.Contains(r.Site, "shop") {
					t.Logf("%s was not rendered: %s %q", r.Site, c.Receipt.Received, c.Receipt.Notes)
				}
			}
		}
		return time.Since(start), rendered
	}
	alone, renderedAlone := batch(harmless)
	withHostile, rendered := batch(mixed)
	bound := alone + 10*(batchTimeout+DeadlineMargin)
	t.Logf("40 harmless sites: %s, %d rendered; with 10 hostile pages: %s, %d of the 40 rendered (bound: %s, 10 deadlines of %s each with its margin of %s)",
		alone.Round(100*time.Millisecond), renderedAlone, withHostile.Round(100*time.Millisecond), rendered, bound.Round(100*time.Millisecond), batchTimeout, DeadlineMargin)
	assert.LessOrEqual(t, withHostile, bound)
	// On a loaded machine a harmless page can miss its own deadline; the
	// hostile ones take none of the others with them.
	assert.GreaterOrEqual(t, renderedAlone, 36, "harmless sites rendered")
	assert.GreaterOrEqual(t, rendered, 36, "harmless sites rendered beside the hostile ones")
}
