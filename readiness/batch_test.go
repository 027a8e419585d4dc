package readiness

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// interval records when a host's site was first and last asked for
// something, to prove which scans overlapped.
type interval struct{ first, last time.Time }

// batchNet serves a testSite under each host and records, per host, the
// interval between its first request's start and its last request's end.
type batchNet struct {
	*fetchtest.Network
	mu    sync.Mutex
	spans map[string]*interval
}

func newBatchNet(t testing.TB, hosts []string, latency time.Duration) *batchNet {
	t.Helper()
	bn := &batchNet{Network: fetchtest.New(), spans: map[string]*interval{}}
	t.Cleanup(bn.Close)
	for _, h := range hosts {
		ts := &testSite{host: h}
		bn.Site(h, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			ts.ServeHTTP(w, r)
			bn.mu.Lock()
			sp := bn.spans[h]
			if sp == nil {
				sp = &interval{first: start}
				bn.spans[h] = sp
			}
			if start.Before(sp.first) {
				sp.first = start
			}
			if end := time.Now(); end.After(sp.last) {
				sp.last = end
			}
			bn.mu.Unlock()
		}))
		bn.Site("www."+h, ts)
		if latency > 0 {
			bn.SetLatency(h, latency)
		}
	}
	return bn
}

func (bn *batchNet) overlap(a, b string) bool {
	bn.mu.Lock()
	defer bn.mu.Unlock()
	x, y := bn.spans[a], bn.spans[b]
	return x != nil && y != nil && x.first.Before(y.last) && y.first.Before(x.last)
}

var batchNow = func() time.Time { return time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC) }

// verdicts reduces a report to what must not depend on how it was scanned.
func verdicts(r *Report) string {
	out := fmt.Sprintf("score=%.3f ready=%t", r.Score, r.Ready)
	for _, c := range r.Checks {
		out += " " + c.ID + "=" + string(c.Verdict)
	}
	return out
}

func collect(t *testing.T, seq func(func(BatchResult) bool)) map[string]BatchResult {
	t.Helper()
	got := map[string]BatchResult{}
	for r := range seq {
		_, dup := got[r.Site]
		require.False(t, dup, "site %s yielded twice", r.Site)
		got[r.Site] = r
	}
	return got
}

func TestScanAllEqualsScanAndIgnoresOrder(t *testing.T) {
	hosts := []string{"alpha.example", "beta.example", "gamma.example", "delta.example", "a.multi.example", "b.multi.example"}
	bn := newBatchNet(t, hosts, 0)
	client := bn.Client()
	opts := Options{Client: client, Now: batchNow}

	alone := map[string]string{}
	for _, h := range hosts {
		r, err := Scan(context.Background(), "https://"+h+"/", &opts)
		require.NoError(t, err)
		alone["https://"+h+"/"] = verdicts(r)
	}
	sites := slices.Sorted(maps.Keys(alone))
	forward := collect(t, ScanAll(context.Background(), slices.Values(sites), &BatchOptions{Options: opts, Concurrency: 3}))
	slices.Reverse(sites)
	backward := collect(t, ScanAll(context.Background(), slices.Values(append(sites, "not a url")), &BatchOptions{Options: opts, Concurrency: 2}))

	require.Len(t, forward, len(hosts))
	require.Len(t, backward, len(hosts)+1)
	for site, want := range alone {
		require.NoError(t, forward[site].Err)
		require.NoError(t, backward[site].Err)
		assert.Equal(t, want, verdicts(forward[site].Report), site)
		assert.Equal(t, want, verdicts(backward[site].Report), site)
		a, err := json.Marshal(forward[site].Report.Checks)
		require.NoError(t, err)
		b, err := json.Marshal(backward[site].Report.Checks)
		require.NoError(t, err)
		assert.Equal(t, len(a), len(b), "same receipts whatever the order (%s)", site)
	}
	bad := backward["not a url"]
	assert.ErrorIs(t, bad.Err, ErrInvalidURL)
	assert.Nil(t, bad.Report)
}

func TestScanAllPerHost(t *testing.T) {
	// Three sites under one registrable domain and two of their own, with
	// latency so that scans last long enough to overlap if allowed to.
	same := []string{"one.operator.example", "two.operator.example", "operator.example"}
	hosts := append(slices.Clone(same), "solo.example", "other.example")
	for _, tt := range []struct {
		perHost     int
		wantOverlap bool
	}{{1, false}, {3, true}} {
		t.Run(fmt.Sprintf("PerHost=%d", tt.perHost), func(t *testing.T) {
			bn := newBatchNet(t, hosts, 15*time.Millisecond)
			var sites []string
			for _, h := range hosts {
				sites = append(sites, "https://"+h+"/")
			}
			got := collect(t, ScanAll(context.Background(), slices.Values(sites), &BatchOptions{
				Options: Options{Client: bn.Client(), Now: batchNow}, Concurrency: 8, PerHost: tt.perHost,
			}))
			require.Len(t, got, len(hosts))
			overlapped := false
			for i := range same {
				for j := i + 1; j < len(same); j++ {
					overlapped = overlapped || bn.overlap(same[i], same[j])
				}
			}
			assert.Equal(t, tt.wantOverlap, overlapped)
			// Sites of other domains did run beside the operator's.
			assert.True(t, bn.overlap("solo.example", "other.example") || bn.overlap("solo.example", same[0]) || bn.overlap("other.example", same[0]),
				"PerHost must not serialise unrelated domains")
		})
	}
}

func goroutinesSettle(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), base, "goroutines left after the batch")
}

func TestScanAllCancellation(t *testing.T) {
	hosts := []string{}
	for i := range 12 {
		hosts = append(hosts, fmt.Sprintf("site%02d.example", i))
	}
	bn := newBatchNet(t, hosts, 30*time.Millisecond)
	o := bn.Options()
	client := safefetch.New(o)
	defer client.CloseIdleConnections()
	var sites []string
	for _, h := range hosts {
		sites = append(sites, "https://"+h+"/")
	}
	pulled := 0
	seq := func(yield func(string) bool) {
		for _, s := range sites {
			pulled++
			if !yield(s) {
				return
			}
		}
	}

	t.Run("break", func(t *testing.T) {
		client.CloseIdleConnections()
		base := runtime.NumGoroutine()
		pulled = 0
		n := 0
		for r := range ScanAll(context.Background(), seq, &BatchOptions{Options: Options{Client: client, Now: batchNow}, Concurrency: 2, Lookahead: 1}) {
			require.NotEmpty(t, r.Site)
			n++
			break
		}
		assert.Equal(t, 1, n)
		assert.LessOrEqual(t, pulled, 3, "no site is read past the scans in flight and the lookahead")
		client.CloseIdleConnections()
		goroutinesSettle(t, base)
	})
	t.Run("ctx", func(t *testing.T) {
		client.CloseIdleConnections()
		base := runtime.NumGoroutine()
		pulled = 0
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		started := time.Now()
		n := 0
		for range ScanAll(ctx, seq, &BatchOptions{Options: Options{Client: client, Now: batchNow}, Concurrency: 3}) {
			n++
			cancel()
		}
		assert.Less(t, time.Since(started), 10*time.Second)
		assert.Less(t, n, len(sites), "a cancelled batch starts no further scan")
		client.CloseIdleConnections()
		goroutinesSettle(t, base)
	})
}

func TestRegistrableDomainAndShard(t *testing.T) {
	for in, want := range map[string]string{
		"https://www.shop.example.co.uk/x": "example.co.uk",
		"https://Shop.Example.com./":       "example.com",
		"https://a.b.github.io/":           "b.github.io",
		"https://203.0.113.7/":             "203.0.113.7",
		"https://[2001:db8::1]:8443/":      "2001:db8::1",
		"https://localhost/":               "localhost",
		"not a url":                        "not a url",
		"https://BÜCHER.example/":          "xn--bcher-kva.example",
		"https://www.co.uk/":               "www.co.uk",
		"https://co.uk./":                  "co.uk",
		"https://[2001:DB8::1]/":           "2001:db8::1",
		"https://a_b.example/":             "https://a_b.example/",
	} {
		assert.Equal(t, want, RegistrableDomain(in), in)
	}
	// The shard function is fixed: these values must never change.
	for _, tt := range []struct {
		site string
		n    int
		want int
	}{
		{"https://example.com/", 4, Shard("https://www.example.com/a", 4)},
		{"https://example.com/", 1, 0},
		{"https://example.com/", 0, 0},
	} {
		assert.Equal(t, tt.want, Shard(tt.site, tt.n), tt.site)
	}
	// Literal values, recorded once: a release that changes them breaks
	// every sharded batch in flight.
	for _, tt := range []struct {
		site    string
		n, want int
	}{
		{"https://example.com/", 7, 1}, {"https://example.com/", 100, 50},
		{"https://shop.example/", 7, 5}, {"https://shop.example/", 100, 97},
		{"https://ruagentic.org/", 7, 1}, {"https://ruagentic.org/", 100, 61},
		{"https://agentregistrar.dev/", 7, 0}, {"https://agentregistrar.dev/", 100, 60},
	} {
		assert.Equal(t, tt.want, Shard(tt.site, tt.n), "%s of %d", tt.site, tt.n)
		assert.Equal(t, tt.want, pinnedShard(RegistrableDomain(tt.site), tt.n))
	}
}

// pinnedShard is FNV-1a 64 written out, so that the test fails if Shard
// ever changes its hash.
func pinnedShard(domain string, n int) int {
	h := uint64(14695981039346656037)
	for i := 0; i < len(domain); i++ {
		h ^= uint64(domain[i])
		h *= 1099511628211
	}
	return int(h % uint64(n))
}

// TestScanAllProgressCallsNeverOverlap proves Options.Progress's promise
// under ScanAll: the callback keeps plain, unsynchronised state (which the
// race detector flags if two scans call it at once), and an atomic flag
// catches an overlap even without -race. Every event names its site.
func TestScanAllProgressCallsNeverOverlap(t *testing.T) {
	hosts := []string{"p1.example", "p2.example", "p3.example", "p4.example"}
	bn := newBatchNet(t, hosts, 2*time.Millisecond)
	var sites []string
	for _, h := range hosts {
		sites = append(sites, "https://"+h+"/")
	}
	var inside atomic.Bool
	overlaps := 0               // plain: written only inside the callback
	perSite := map[string]int{} // plain map: a concurrent write is a race and may panic
	progress := func(e Event) {
		if !inside.CompareAndSwap(false, true) {
			overlaps++
			return
		}
		perSite[e.Site]++
		time.Sleep(50 * time.Microsecond) // widen the window an overlap would need
		inside.Store(false)
	}
	got := collect(t, ScanAll(context.Background(), slices.Values(sites), &BatchOptions{
		Options: Options{Client: bn.Client(), Now: batchNow, Progress: progress}, Concurrency: 4, PerHost: 4,
	}))
	require.Len(t, got, len(sites))
	assert.Zero(t, overlaps, "Progress was called by two scans at once")
	assert.ElementsMatch(t, sites, slices.Collect(maps.Keys(perSite)), "every event names a site of the batch, and every site has events")
	for _, s := range sites {
		assert.Greater(t, perSite[s], 2*len(catalogueTable), "%s: a start and a finish for every check, and its fetches", s)
	}
}

// TestScanEventNamesTheSiteAsGiven: a single scan's events carry the site
// URL as it was given to Scan.
func TestScanEventNamesTheSiteAsGiven(t *testing.T) {
	bn := newBatchNet(t, []string{"one.example"}, 0)
	sites := map[string]int{}
	_, err := Scan(context.Background(), "https://one.example", &Options{Client: bn.Client(), Now: batchNow, Progress: func(e Event) { sites[e.Site]++ }})
	require.NoError(t, err)
	assert.Equal(t, []string{"https://one.example"}, slices.Collect(maps.Keys(sites)))
}

// TestScanAllCancelledYieldsEverySiteRead proves that a cancelled batch
// yields exactly one result for every site it read from the sequence,
// those held back by PerHost included, each cancelled one with an Err
// wrapping context.Canceled.
func TestScanAllCancelledYieldsEverySiteRead(t *testing.T) {
	// Six sites of one registrable domain (PerHost 1 holds five back) and
	// three of their own.
	var hosts []string
	for i := range 6 {
		hosts = append(hosts, fmt.Sprintf("s%d.operator.example", i))
	}
	hosts = append(hosts, "x.example", "y.example", "z.example")
	bn := newBatchNet(t, hosts, 20*time.Millisecond)
	var sites []string
	for _, h := range hosts {
		sites = append(sites, "https://"+h+"/")
	}
	for _, tt := range []struct {
		name  string
		after int // results taken before the cancel
	}{{"cancel at once", 0}, {"cancel after the first result", 1}} {
		t.Run(tt.name, func(t *testing.T) {
			var read []string
			seq := func(yield func(string) bool) {
				for _, s := range sites {
					read = append(read, s)
					if !yield(s) {
						return
					}
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.after == 0 {
				go func() { time.Sleep(5 * time.Millisecond); cancel() }()
			}
			n := 0
			got := map[string]BatchResult{}
			for r := range ScanAll(ctx, seq, &BatchOptions{
				Options: Options{Client: bn.Client(), Now: batchNow}, Concurrency: 3, PerHost: 1, Lookahead: 8,
			}) {
				_, dup := got[r.Site]
				require.False(t, dup, "%s yielded twice", r.Site)
				got[r.Site] = r
				if n++; n == tt.after {
					cancel()
				}
			}
			require.NotEmpty(t, read)
			assert.Len(t, got, len(read), "read %d, yielded %d", len(read), len(got))
			cancelled := 0
			for _, s := range read {
				r, ok := got[s]
				if !assert.True(t, ok, "%s was read but not yielded", s) {
					continue
				}
				if r.Err != nil {
					assert.ErrorIs(t, r.Err, context.Canceled, s)
					cancelled++
				} else {
					assert.NotNil(t, r.Report, s)
				}
			}
			assert.Positive(t, cancelled, "some sites were cancelled")
		})
	}
}

// maxOverlap is the most hosts whose scans were under way at one instant.
func (bn *batchNet) maxOverlap() int {
	bn.mu.Lock()
	defer bn.mu.Unlock()
	best := 0
	for _, a := range bn.spans {
		n := 0
		for _, b := range bn.spans {
			if !a.first.Before(b.first) && a.first.Before(b.last) {
				n++
			}
		}
		best = max(best, n)
	}
	return best
}

// Concurrency bounds the scans in flight, and a negative value means 1, as
// BatchOptions says.
func TestScanAllConcurrencyBoundsScansInFlight(t *testing.T) {
	var hosts, sites []string
	for i := range 6 {
		hosts = append(hosts, fmt.Sprintf("site%d.example", i))
		sites = append(sites, fmt.Sprintf("https://site%d.example/", i))
	}
	for _, tt := range []struct{ concurrency, want int }{{2, 2}, {-1, 1}} {
		t.Run(fmt.Sprintf("Concurrency=%d", tt.concurrency), func(t *testing.T) {
			bn := newBatchNet(t, hosts, 15*time.Millisecond)
			got := collect(t, ScanAll(context.Background(), slices.Values(sites), &BatchOptions{
				Options: Options{Client: bn.Client(), Now: batchNow}, Concurrency: tt.concurrency,
			}))
			require.Len(t, got, len(sites))
			assert.LessOrEqual(t, bn.maxOverlap(), tt.want)
		})
	}
}
