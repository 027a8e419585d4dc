package readiness

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/benchratio"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The load test's sizes. Measured on two cores, the 200 sites take about
// 6 s alone and 2 to 5 s together over each protocol, 20 to 35 s each
// under the race detector.
const (
	// loadSitesPerCPU and loadMaxSites size the test to the machine: 50
	// sites per core the test may use, at most 200.
	loadSitesPerCPU = 50
	loadMaxSites    = 200
	// loadAloneWorkers is how many sites are scanned alone at a time, each
	// on a fresh client of its own.
	loadAloneWorkers = 4
	// loadRequestTimeout is the clients' per-request and per-lookup
	// deadline, and loadScanTimeout each scan's budget deadline, on an
	// idle machine: generous, since the scans share the cores with their
	// servers (and, in CI, with the tests of every other package); a scan
	// that ran out of either would show as unverified checks, and fail the
	// test. The lookup needs it too: the fake resolver answers from memory
	// behind the Network's one lock, which the servers' thousands of
	// handlers also take. loadPlan scales both by the machine's load.
	loadRequestTimeout = 30 * time.Second
	loadScanTimeout    = 55 * time.Second
	// loadMaxScale bounds the scaling, so that a wedged scan still fails
	// within the test binary's default ten minutes.
	loadMaxScale = 4.0
)

// loadPlan sizes the load test to a machine with cpus cores whose load
// average is load: the sites (loadSitesPerCPU per core, at most
// loadMaxSites, at least 20) and the deadlines, scaled by how many runnable
// tasks share each core beyond the first (at least 1, at most
// loadMaxScale). At load 15 to 25 on two cores the unscaled test saw 180
// sites run out of time; the scaled one waits as long as the machine is
// slow.
func loadPlan(cpus int, load float64) (sites int, request, scan time.Duration) {
	sites = min(max(loadSitesPerCPU*cpus, 20), loadMaxSites)
	scale := min(max(load/float64(max(cpus, 1)), 1), loadMaxScale)
	return sites, time.Duration(float64(loadRequestTimeout) * scale), time.Duration(float64(loadScanTimeout) * scale)
}

// loadAverage is the one-minute load average, or 0 where /proc/loadavg
// cannot be read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _, _ := strings.Cut(string(b), " ")
	v, err := strconv.ParseFloat(f, 64)
	if err != nil {
		return 0
	}
	return v
}

// TestLoadPlanFollowsTheMachine: the load test scans fewer sites on fewer
// cores and waits longer on a loaded machine, within bounds.
func TestLoadPlanFollowsTheMachine(t *testing.T) {
	sites, req, scan := loadPlan(2, 0.5)
	assert.Equal(t, 100, sites)
	assert.Equal(t, loadRequestTimeout, req)
	assert.Equal(t, loadScanTimeout, scan)
	sites, req, scan = loadPlan(2, 6)
	assert.Equal(t, 100, sites)
	assert.Equal(t, 3*loadRequestTimeout, req, "load 6 on two cores: three times as long")
	assert.Equal(t, 3*loadScanTimeout, scan)
	_, req, _ = loadPlan(2, 25)
	assert.Equal(t, time.Duration(loadMaxScale*float64(loadRequestTimeout)), req, "bounded")
	sites, _, _ = loadPlan(16, 0)
	assert.Equal(t, loadMaxSites, sites)
	sites, _, _ = loadPlan(0, 0)
	assert.Equal(t, 20, sites)
}

// loadSite is the i-th site of the load test: the well-made test site with a
// few faults turned on a pattern of i, so that verdicts differ between sites.
func loadSite(i int) *testSite {
	ts := &testSite{host: fmt.Sprintf("shop%03d.example", i)}
	for _, f := range []struct {
		fault     siteFault
		every, at int
	}{
		{ignoresAccept, 7, 3}, {brokenJSONLD, 11, 5}, {noVary, 13, 2}, {twinsDiffer, 17, 4},
		{sitemapIsHTML, 19, 6}, {frontMatterNoDay, 23, 8}, {markdownAlternateOnly, 29, 9}, {sitemapForeign, 37, 10},
		// Sites without an MCP endpoint, or with nothing but redirects: the
		// Connect checks do not apply, or nothing is verified.
		{spaShellOnly, 41, 14}, {redirectsForever, 53, 15},
	} {
		if i%f.every == f.at {
			ts.faults = append(ts.faults, f.fault)
		}
	}
	if i%31 == 12 {
		ts.robots = "User-agent: *\nDisallow: /\n"
	}
	return ts
}

// plain reports whether ts is the well-made site, with no fault and the
// kit's robots.txt.
func (ts *testSite) plain() bool { return len(ts.faults) == 0 && ts.robots == "" }

// loadVerdicts is what the load test compares: every check's verdict, and
// the score.
type loadVerdicts struct {
	verdicts map[string]Verdict
	score    float64
	report   *Report
}

func verdictsOf(r *Report) loadVerdicts {
	v := loadVerdicts{verdicts: map[string]Verdict{}, score: r.Score, report: r}
	for _, c := range r.Checks {
		v.verdicts[c.ID] = c.Verdict
	}
	return v
}

// key is a canonical form of the verdicts, to count distinct outcomes.
func (v loadVerdicts) key() string {
	ids := make([]string, 0, len(v.verdicts))
	for id := range v.verdicts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "%s=%s;", id, v.verdicts[id])
	}
	fmt.Fprintf(&b, "score=%g", v.score)
	return b.String()
}

// describeCheck says why one check of a report got its verdict.
func describeCheck(r *Report, id string) string {
	c := checkByID(r, id)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: received %q", c.Verdict, c.Receipt.Received)
	if len(c.Receipt.Notes) > 0 {
		fmt.Fprintf(&b, ", notes %q", c.Receipt.Notes)
	}
	for _, q := range c.Receipt.Requests {
		if q.Error != "" {
			fmt.Fprintf(&b, "; %s %s: %s", q.Method, q.URL, q.Error)
		}
	}
	if m := c.Receipt.MCP; m != nil {
		fmt.Fprintf(&b, "; MCP outcome %s (%s)", m.Outcome, m.Reason)
		for _, e := range m.Handshake {
			if e.Error != "" {
				fmt.Fprintf(&b, "; MCP %s %s: %s", e.Method, e.URL, e.Error)
			}
		}
	}
	return b.String()
}

// loadSnapshot is the process's goroutines and open descriptors.
type loadSnapshot struct{ goroutines, fds int }

func (s loadSnapshot) String() string {
	return fmt.Sprintf("%d goroutines, %d fds", s.goroutines, s.fds)
}

func snapshot() loadSnapshot { return loadSnapshot{runtime.NumGoroutine(), benchratio.OpenFiles()} }

// settle waits, up to limit, until the goroutines and descriptors are at most
// want plus slack, and returns what it last saw. A zero want waits for the
// counts to stop changing instead (a baseline).
func settle(want loadSnapshot, slack int, limit time.Duration) loadSnapshot {
	deadline := time.Now().Add(limit)
	prev := snapshot()
	for {
		time.Sleep(50 * time.Millisecond)
		runtime.GC()
		s := snapshot()
		if want.goroutines == 0 {
			if s == prev {
				return s
			}
		} else if s.goroutines <= want.goroutines+slack && s.fds <= want.fds+slack {
			return s
		}
		if time.Now().After(deadline) {
			return s
		}
		prev = s
	}
}

// loadPeaks samples the heap, goroutines and descriptors while a phase runs.
type loadPeaks struct {
	heap            uint64
	goroutines, fds int
	stop            chan struct{}
	wg              sync.WaitGroup
}

func startPeaks() *loadPeaks {
	p := &loadPeaks{stop: make(chan struct{})}
	p.wg.Go(func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			p.heap = max(p.heap, ms.HeapInuse)
			p.goroutines = max(p.goroutines, runtime.NumGoroutine())
			p.fds = max(p.fds, benchratio.OpenFiles())
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	})
	return p
}

func (p *loadPeaks) end() { close(p.stop); p.wg.Wait() }

// TestLoadSharedClient scans many sites at once on one shared client, as a
// crawler does, and requires of every site exactly the verdicts and score it
// gets when scanned alone on a client of its own: under load a transport
// failure must never become a verdict, and the client's own pool must never
// fail a call. It then requires that nothing is left behind: once the
// client's idle connections are closed and the servers are gone, the
// goroutines and descriptors are back to what they were. It runs once with
// servers that speak HTTP/1.1 only (a connection per request in flight) and
// once with servers that offer HTTP/2 (a scan's requests to a host share a
// connection, and a connection killed for one call fails the others).
func TestLoadSharedClient(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test scans hundreds of sites; skipped under -short")
	}
	t.Run("HTTP/1.1", func(t *testing.T) { loadScans(t, false) })
	t.Run("HTTP/2", func(t *testing.T) { loadScans(t, true) })
}

func loadScans(t *testing.T, h2 bool) {
	sites, requestTimeout, scanTimeout := loadPlan(runtime.GOMAXPROCS(0), loadAverage())
	t.Logf("sized to the machine: %d sites, deadlines %v per request and %v per scan", sites, requestTimeout, scanTimeout)
	before := settle(loadSnapshot{}, 0, 5*time.Second)

	n := fetchtest.New()
	defer n.Close()
	serve := n.Site
	if h2 {
		serve = n.SiteHTTP2
	}
	all := make([]*testSite, sites)
	for i := range all {
		ts := loadSite(i)
		all[i] = ts
		serve(ts.host, ts)
		serve("www."+ts.host, ts)
		// 5 to 10 ms before every response, so that a scan's requests
		// overlap and connections are held while others wait.
		n.SetLatency(ts.host, time.Duration(5+i%6)*time.Millisecond)
	}
	now := func() time.Time { return time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC) }
	options := func(c *safefetch.Client) *Options {
		return &Options{Client: c, Now: now, Budget: safefetch.BudgetLimits{Timeout: scanTimeout}}
	}
	clientOptions := func() *safefetch.Options {
		o := n.Options()
		o.Timeout = requestTimeout
		o.DNSTimeout = requestTimeout
		return o
	}

	// Alone: each site on a fresh client of its own, a few sites at a time.
	alone := make([]loadVerdicts, sites)
	start := time.Now()
	{
		next := make(chan int)
		var wg sync.WaitGroup
		for range loadAloneWorkers {
			wg.Go(func() {
				for i := range next {
					c := safefetch.New(clientOptions())
					r, err := Scan(context.Background(), all[i].base()+"/", options(c))
					c.CloseIdleConnections()
					if !assert.NoError(t, err, all[i].host) {
						continue
					}
					alone[i] = verdictsOf(r)
				}
			})
		}
		for i := range all {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	aloneWall := time.Since(start)
	require.False(t, t.Failed(), "every site scans alone")
	distinct := map[string]bool{}
	for i, v := range alone {
		distinct[v.key()] = true
		if all[i].plain() {
			// The harness itself is sound: the well-made site passes alone.
			require.Equal(t, allPass(), v.verdicts, "%s scanned alone", all[i].host)
		}
	}
	assert.GreaterOrEqual(t, len(distinct), 10, "the sites differ in their verdicts")

	// Together: every site at once on one client.
	shared := safefetch.New(clientOptions())
	together := make([]loadVerdicts, sites)
	errs := make([]error, sites)
	peaks := startPeaks()
	start = time.Now()
	{
		var wg sync.WaitGroup
		gate := make(chan struct{})
		for i := range all {
			wg.Go(func() {
				<-gate
				r, err := Scan(context.Background(), all[i].base()+"/", options(shared))
				if err != nil {
					errs[i] = err
					return
				}
				together[i] = verdictsOf(r)
			})
		}
		close(gate)
		wg.Wait()
	}
	wall := time.Since(start)
	peaks.end()

	differ, retried := 0, 0
	for i, ts := range all {
		if r := together[i].report; r != nil {
			if m := checkByID(r, "mcp_discovery").Receipt.MCP; m != nil && m.Retried {
				retried++
			}
		}
		if !assert.NoError(t, errs[i], ts.host) {
			differ++
			continue
		}
		a, l := alone[i], together[i]
		if a.key() == l.key() {
			continue
		}
		differ++
		var why []string
		for _, c := range a.report.Checks {
			if l.verdicts[c.ID] != c.Verdict {
				why = append(why, fmt.Sprintf("  %s: alone %s\n    under load %s", c.ID, describeCheck(a.report, c.ID), describeCheck(l.report, c.ID)))
			}
		}
		t.Errorf("%s: under load the verdicts differ (score %g alone, %g under load):\n%s", ts.host, a.score, l.score, strings.Join(why, "\n"))
	}

	shared.CloseIdleConnections()
	idle := settle(loadSnapshot{}, 0, 3*time.Second)
	n.Close()
	after := settle(before, 3, 10*time.Second)

	t.Logf("%d sites, %d distinct outcomes; alone: %v (%d at a time)", sites, len(distinct), aloneWall.Round(time.Millisecond), loadAloneWorkers)
	t.Logf("together: %d scans in %v, %.1f scans/s; %d differ from alone; %d MCP sessions run again after a closed connection", sites, wall.Round(time.Millisecond), float64(sites)/wall.Seconds(), differ, retried)
	t.Logf("peak heap in use %.1f MiB, peak %d goroutines, peak %d fds", float64(peaks.heap)/(1<<20), peaks.goroutines, peaks.fds)
	t.Logf("before: %v; after closing idle connections: %v; after the servers closed: %v", before, idle, after)

	assert.LessOrEqual(t, after.goroutines, before.goroutines+3, "goroutines left behind")
	if before.fds >= 0 {
		assert.LessOrEqual(t, after.fds, before.fds+3, "descriptors left behind")
	}
}
