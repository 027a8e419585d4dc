package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/service"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// loadWorld is a fake internet of n sites, each counting the scans it
// receives (one robots.txt a scan).
type loadWorld struct {
	net    *fetchtest.Network
	hosts  []string
	counts map[string]*counter
}

func newLoadWorld(t testing.TB, n int, latency time.Duration) *loadWorld {
	w := &loadWorld{net: fetchtest.New(), counts: map[string]*counter{}}
	for i := range n {
		h := fmt.Sprintf("site%02d.example", i)
		c := &counter{path: "/robots.txt", h: testSite(h)}
		w.net.Site(h, c)
		if latency > 0 {
			w.net.SetLatency(h, latency)
		}
		w.hosts = append(w.hosts, h)
		w.counts[h] = c
	}
	return w
}

// loadResult is what the callers of a load saw.
type loadResult struct {
	mu       sync.Mutex
	accepted map[string]map[string]bool // host -> scan ids
	codes    map[string]int             // status or error code -> count
	noRetry  int                        // 429s without Retry-After
	other    []string
}

// load sends callers concurrent callers, each asking perCaller times for a
// scan of one of the hosts, spread over the servers; each caller has its
// own address (X-Forwarded-For).
func load(t testing.TB, servers []*httptest.Server, hosts []string, callers, perCaller int) *loadResult {
	res := &loadResult{accepted: map[string]map[string]bool{}, codes: map[string]int{}}
	client := &http.Client{Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for c := range callers {
		wg.Go(func() {
			<-start
			for k := range perCaller {
				host := hosts[(c+k*7)%len(hosts)]
				srv := servers[(c+k)%len(servers)]
				body, _ := json.Marshal(map[string]string{"url": "https://" + host + "/"})
				req, _ := http.NewRequest("POST", srv.URL+"/api/scans", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.18.%d.%d", c/250, c%250+1))
				resp, err := client.Do(req)
				if err != nil {
					res.mu.Lock()
					res.other = append(res.other, err.Error())
					res.mu.Unlock()
					continue
				}
				data, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				res.mu.Lock()
				switch resp.StatusCode {
				case 200, 202:
					var s scanObj
					if json.Unmarshal(data, &s) == nil && s.ID != "" {
						if res.accepted[host] == nil {
							res.accepted[host] = map[string]bool{}
						}
						res.accepted[host][s.ID] = true
					}
					res.codes[fmt.Sprint(resp.StatusCode)]++
				case 429:
					var e errObj
					_ = json.Unmarshal(data, &e)
					res.codes[e.Error.Code]++
					if resp.Header.Get("Retry-After") == "" {
						res.noRetry++
					}
				default:
					res.other = append(res.other, fmt.Sprintf("%d %s", resp.StatusCode, data))
				}
				res.mu.Unlock()
				time.Sleep(time.Duration(c%5) * 5 * time.Millisecond)
			}
		})
	}
	close(start)
	wg.Wait()
	return res
}

// settle waits until every accepted scan has ended, and checks that each
// ended done, or failed with a reason.
func settle(t testing.TB, srv *httptest.Server, res *loadResult, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for host, ids := range res.accepted {
		for id := range ids {
			for {
				resp, err := http.Get(srv.URL + "/api/scans/" + id)
				require.NoError(t, err)
				var s scanObj
				require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
				resp.Body.Close()
				if s.Status == "done" {
					break
				}
				if s.Status == "failed" {
					require.NotNil(t, s.Error, "%s %s", host, id)
					assert.NotEmpty(t, s.Error.Message)
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("scan %s of %s still %s", id, host, s.Status)
				}
				time.Sleep(25 * time.Millisecond)
			}
		}
	}
}

// exhaust asks for scans of every host, one at a time through the servers
// in turn, until the target limit refuses one: it must refuse exactly when
// limit scans of the host were accepted, across every instance.
func exhaust(t testing.TB, servers []*httptest.Server, hosts []string, limit int, res *loadResult) {
	t.Helper()
	for _, h := range hosts {
		for i := 0; ; i++ {
			srv := servers[i%len(servers)]
			body := strings.NewReader(`{"url": "https://` + h + `/"}`)
			resp, err := http.Post(srv.URL+"/api/scans", "application/json", body)
			require.NoError(t, err)
			var s scanObj
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusTooManyRequests {
				assert.Contains(t, string(data), "rate_limited")
				assert.NotEmpty(t, resp.Header.Get("Retry-After"))
				assert.Len(t, res.accepted[h], limit, "%s: refused after as many scans as its limit: %s", h, data)
				res.codes["rate_limited"]++
				break
			}
			require.Equal(t, http.StatusAccepted, resp.StatusCode, "%s", data)
			require.NoError(t, json.Unmarshal(data, &s))
			if res.accepted[h] == nil {
				res.accepted[h] = map[string]bool{}
			}
			res.accepted[h][s.ID] = true
			one := &loadResult{accepted: map[string]map[string]bool{h: {s.ID: true}}}
			settle(t, srv, one, time.Minute)
			require.LessOrEqual(t, i, limit, "%s: never refused", h)
		}
	}
}

// checkRuns: every accepted scan ran exactly once (one robots.txt each),
// and no site received more scans than its limit.
func checkRuns(t testing.TB, w *loadWorld, res *loadResult, limit int) {
	t.Helper()
	total := 0
	for _, h := range w.hosts {
		accepted := len(res.accepted[h])
		got := int(w.counts[h].n.Load())
		total += accepted
		assert.Equal(t, accepted, got, "%s: scans accepted and scans received", h)
		assert.LessOrEqual(t, got, limit, "%s received more scans than its limit", h)
	}
	assert.Positive(t, total)
	assert.Zero(t, res.noRetry, "every 429 carries Retry-After")
	assert.Empty(t, res.other)
}

// TestLoad: 200 concurrent API callers on 20 sites.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load")
	}
	before := runtime.NumGoroutine()
	var heap []uint64
	func() {
		w := newLoadWorld(t, 20, 5*time.Millisecond)
		defer w.net.Close()
		client := w.net.Client()
		defer client.CloseIdleConnections()
		st, err := service.OpenSQLite(filepath.Join(t.TempDir(), "load.db"))
		require.NoError(t, err)
		defer st.Close()
		const limit = 3
		svc, err := service.New(context.Background(), &service.Options{
			Client: client, Store: st, Origin: "https://scan.example",
			Workers: 4, QueueSize: 6, CacheTTL: -1,
			CallerLimit:    service.Limit{Count: 100, Window: time.Hour},
			TargetLimit:    service.Limit{Count: limit, Window: time.Hour},
			ClientIPHeader: "X-Forwarded-For",
			PollInterval:   50 * time.Millisecond,
		})
		require.NoError(t, err)
		srv := httptest.NewServer(svc)
		defer srv.Close()
		defer svc.Close()

		all := &loadResult{accepted: map[string]map[string]bool{}, codes: map[string]int{}}
		for wave := range 3 {
			res := load(t, []*httptest.Server{srv}, w.hosts, 200, 2)
			settle(t, srv, res, 2*time.Minute)
			for h, ids := range res.accepted {
				if all.accepted[h] == nil {
					all.accepted[h] = map[string]bool{}
				}
				for id := range ids {
					all.accepted[h][id] = true
				}
			}
			for k, v := range res.codes {
				all.codes[k] += v
			}
			all.noRetry += res.noRetry
			all.other = append(all.other, res.other...)
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = append(heap, ms.HeapInuse)
			t.Logf("wave %d: %v, heap in use %.1f MiB", wave, res.codes, float64(ms.HeapInuse)/(1<<20))
		}
		exhaust(t, []*httptest.Server{srv}, w.hosts, limit, all)
		checkRuns(t, w, all, limit)
		assert.Positive(t, all.codes["queue_full"], "the queue bound answered 429")
		// Memory is flat: the last wave holds no more than the first did,
		// give or take what the store and caches keep.
		assert.Less(t, float64(heap[2]), float64(heap[0])*1.5+16<<20, "heap in use per wave: %v", heap)
	}()
	// No goroutine is left after Close.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before, %d after Close:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestPostgresTwoInstances: two services on one PostgreSQL database share
// one queue and one set of limits: each job runs once, on one of them, and
// the per-target limit holds across both.
func TestPostgresTwoInstances(t *testing.T) {
	dsn := service.PostgresDSN(t)
	w := newLoadWorld(t, 10, 5*time.Millisecond)
	t.Cleanup(w.net.Close)
	const limit = 2
	var servers []*httptest.Server
	for range 2 {
		st, err := service.OpenPostgres(context.Background(), dsn)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		svc, err := service.New(context.Background(), &service.Options{
			Client: w.net.Client(), Store: st, Origin: "https://scan.example",
			Workers: 3, CacheTTL: -1,
			TargetLimit:    service.Limit{Count: limit, Window: time.Hour},
			ClientIPHeader: "X-Forwarded-For",
			PollInterval:   50 * time.Millisecond,
		})
		require.NoError(t, err)
		srv := httptest.NewServer(svc)
		t.Cleanup(func() { srv.Close(); svc.Close() })
		servers = append(servers, srv)
	}
	all := &loadResult{accepted: map[string]map[string]bool{}, codes: map[string]int{}}
	for range 2 {
		res := load(t, servers, w.hosts, 60, 2)
		settle(t, servers[1], res, 2*time.Minute)
		for h, ids := range res.accepted {
			if all.accepted[h] == nil {
				all.accepted[h] = map[string]bool{}
			}
			for id := range ids {
				all.accepted[h][id] = true
			}
		}
		for k, v := range res.codes {
			all.codes[k] += v
		}
		all.other = append(all.other, res.other...)
	}
	t.Logf("answers: %v", all.codes)
	exhaust(t, servers, w.hosts, limit, all)
	checkRuns(t, w, all, limit)
	// A scan queued through one instance is read through the other.
	for _, ids := range all.accepted {
		for id := range ids {
			for _, srv := range servers {
				resp, err := http.Get(srv.URL + "/api/scans/" + id)
				require.NoError(t, err)
				resp.Body.Close()
				assert.Equal(t, 200, resp.StatusCode)
			}
			break
		}
	}
}
