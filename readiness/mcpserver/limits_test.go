package mcpserver_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpserver"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// 50 callers over HTTP, each its own address behind a trusted proxy, ask
// to scan one site at once: the site receives the requests of at most
// TargetPerMinute scans, every call ends with a report or a "busy" tool
// error, and nothing hangs.
func TestLoadPerTargetLimit(t *testing.T) {
	n := world(t)
	smallSite(n, "target.example")
	// What one scan asks of the target.
	_, err := readiness.Scan(context.Background(), "https://target.example/", &readiness.Options{Client: n.Client()})
	require.NoError(t, err)
	perScan := n.Requests("target.example")
	n.ResetRequests()
	const perMinute = 3
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), TargetPerMinute: perMinute, TrustedProxyHeader: "X-Forwarded-For", MaxQueued: 64})
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	const callers = 50
	var ok, busy, other atomic.Int32
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := range callers {
		wg.Go(func() {
			hc := &http.Client{Transport: headerTransport{"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1)}}
			c := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
			if !assert.NoError(t, err) {
				other.Add(1)
				return
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "scan_site", Arguments: map[string]any{"url": "https://target.example/"}})
			switch {
			case err != nil:
				t.Errorf("caller %d: %v", i, err)
				other.Add(1)
			case !res.IsError:
				ok.Add(1)
			case strings.Contains(text(res), "busy") && strings.Contains(text(res), "retry after"):
				busy.Add(1)
			default:
				t.Errorf("caller %d: %s", i, text(res))
				other.Add(1)
			}
		})
	}
	wg.Wait()
	require.NoError(t, ctx.Err(), "nothing hangs")
	assert.Equal(t, int32(callers), ok.Load()+busy.Load(), "every call ends with a result or busy")
	assert.Equal(t, int32(perMinute), ok.Load(), "the target's limit holds")
	assert.Zero(t, other.Load())
	assert.Equal(t, perMinute*perScan, n.Requests("target.example"), "the target site received the requests of %d scans of %d requests", perMinute, perScan)
	t.Logf("50 callers: %d scans ran, %d refused busy; target.example received %d requests (%d a scan)", ok.Load(), busy.Load(), n.Requests("target.example"), perScan)
}

type headerTransport struct{ k, v string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.k, h.v)
	return http.DefaultTransport.RoundTrip(r)
}

// smallSite serves a one-page site.
func smallSite(n *fetchtest.Network, host string) {
	n.Site(host, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!DOCTYPE html><html lang="en"><head><title>Target</title></head><body><h1>Target</h1></body></html>`)
	}))
}

// Past the queue a call is a "busy" tool error that says when to retry.
func TestBusy(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(1)
	var once sync.Once
	n.Site("slow.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(started.Done)
		<-release
		http.NotFound(w, r)
	}))
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), MaxConcurrent: 1, MaxQueued: -1, TargetPerMinute: -1})
	require.NoError(t, err)
	cs := connectStdio(t, srv)
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "validate_document", Arguments: map[string]any{"kind": "openagent", "url": "https://slow.example/x"}})
		done <- res
	}()
	started.Wait()
	r := callTool(t, cs, "explain_check", map[string]any{"id": "sitemap"})
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "busy")
	assert.Contains(t, text(r), "retry after")
	close(release)
	first := <-done
	require.NotNil(t, first)
	assert.Contains(t, text(first), "404")
	r = callTool(t, cs, "explain_check", map[string]any{"id": "sitemap"})
	assert.False(t, r.IsError, "the slot is free again")
}

// A caller past its token bucket is answered 429 with Retry-After before
// any JSON-RPC is read; another caller is not.
func TestCallerLimit(t *testing.T) {
	srv, err := mcpserver.New(&mcpserver.Options{CallerRate: 0.01, CallerBurst: 2, TrustedProxyHeader: "X-Forwarded-For"})
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	post := func(from string) *http.Response {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("X-Forwarded-For", "203.0.113.9, "+from)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	assert.NotEqual(t, 429, post("198.51.100.1").StatusCode)
	assert.NotEqual(t, 429, post("198.51.100.1").StatusCode)
	r := post("198.51.100.1")
	assert.Equal(t, 429, r.StatusCode)
	assert.NotEmpty(t, r.Header.Get("Retry-After"))
	assert.NotEqual(t, 429, post("198.51.100.2").StatusCode, "the limit is per caller, the proxy header's last address")
}

// Hostile bodies: a 10 MB request body, malformed JSON-RPC and a stdio
// line over the cap are refused without a panic, and the server goes on
// answering.
func TestHostileRequests(t *testing.T) {
	srv, err := mcpserver.New(nil)
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	post := func(body []byte) (int, string) {
		req, _ := http.NewRequest("POST", ts.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return resp.StatusCode, string(b)
	}
	big := append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"validate_document","arguments":{"kind":"openagent","content":"`),
		bytes.Repeat([]byte("a"), 10<<20)...)
	big = append(big, `"}}}`...)
	code, _ := post(big)
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	for _, body := range []string{
		`{`, `[]`, `{"jsonrpc":"2.0"}`, `{"jsonrpc":"1.0","id":1,"method":"initialize"}`, `"x"`, `{"jsonrpc":"2.0","id":{},"method":"initialize"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"nope"}`, strings.Repeat("[", 100000),
	} {
		code, answer := post([]byte(body))
		assert.Less(t, code, 500, body[:min(len(body), 40)])
		if code < 400 {
			assert.Contains(t, answer, `"error"`, "a JSON-RPC error: %s", body[:min(len(body), 40)])
		}
	}
	cs := connectHTTP(t, srv)
	assert.False(t, callTool(t, cs, "explain_check", map[string]any{"id": "sitemap"}).IsError, "still serving")

	// stdio: a line over the cap ends the session with an error.
	small, err := mcpserver.New(&mcpserver.Options{MaxRequestBytes: 1 << 10})
	require.NoError(t, err)
	var out bytes.Buffer
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 4<<10) + `"}}` + "\n")
	err = small.ServeStdio(context.Background(), in, &out)
	require.Error(t, err)
	out.Reset()
	err = small.ServeStdio(context.Background(), strings.NewReader("not json\n"), &out)
	assert.Error(t, err, "a line that is not JSON ends the session")
}

// A cancelled scan stops, and leaves no goroutine behind.
func TestCancelledScanLeavesNoGoroutine(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			n := fetchtest.New()
			defer n.Close()
			hit := make(chan struct{}, 100)
			stopped := make(chan struct{}, 100)
			quit := make(chan struct{})
			var hits, stops atomic.Int32
			var pathsMu sync.Mutex
			var paths []string
			n.Site("hang.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// The body is read, so that the server notices the client's
				// closing of the connection (net/http's background read).
				_, _ = io.Copy(io.Discard, r.Body)
				hits.Add(1)
				pathsMu.Lock()
				paths = append(paths, fmt.Sprintf("%s %s at %v", r.Method, r.URL.Path, time.Now().Format("05.000")))
				pathsMu.Unlock()
				hit <- struct{}{}
				select {
				case <-r.Context().Done():
					stops.Add(1)
				case <-quit:
				}
				stopped <- struct{}{}
			}))
			defer close(quit)
			client := n.Client()
			before := runtime.NumGoroutine()
			t.Run("call", func(t *testing.T) {
				srv, err := mcpserver.New(&mcpserver.Options{Client: client})
				require.NoError(t, err)
				cs := tr.connect(t, srv)
				ctx, cancel := context.WithCancel(context.Background())
				errc := make(chan error, 1)
				go func() {
					_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "scan_site", Arguments: map[string]any{"url": "https://hang.example/"}})
					errc <- err
				}()
				<-hit
				cancel()
				select {
				case err := <-errc:
					assert.Error(t, err)
				case <-time.After(10 * time.Second):
					t.Fatal("the cancelled call did not end")
				}
				select {
				case <-stopped:
				case <-time.After(10 * time.Second):
					t.Fatal("the scan's requests were not cancelled")
				}
			})
			// The condition runs in a goroutine of its own: one more.
			after := 0
			assert.Eventually(t, func() bool {
				client.CloseIdleConnections()
				after = runtime.NumGoroutine() - 1
				return after <= before
			}, 15*time.Second, 50*time.Millisecond, "goroutines: %d before the call", before)
			t.Logf("goroutines: %d before the call, %d after", before, after)
			pathsMu.Lock()
			assert.Equal(t, hits.Load(), stops.Load(), "every request of the scan was cancelled: %v", paths)
			pathsMu.Unlock()
		})
	}
}

// A scan_site call the server cannot serve ("browser": true with no
// renderer) is refused before it counts against the target's limit.
func TestRefusedCallSpendsNoTargetLimit(t *testing.T) {
	n := world(t)
	smallSite(n, "once.example")
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), TargetPerMinute: 1})
	require.NoError(t, err)
	cs := connectHTTP(t, srv)
	r := callTool(t, cs, "scan_site", map[string]any{"url": "https://once.example/", "browser": true})
	require.True(t, r.IsError)
	assert.Contains(t, text(r), "no browser")
	r = callTool(t, cs, "scan_site", map[string]any{"url": "https://once.example/"})
	assert.False(t, r.IsError, "the one call of the minute is still there: %s", text(r))
	r = callTool(t, cs, "scan_site", map[string]any{"url": "https://once.example/"})
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "busy")
}

// Options.MaxQueued bounds the calls that wait for a slot, and
// Options.CallTimeout bounds each call with its wait for a slot included.
func TestQueueAndItsDeadline(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	release := make(chan struct{})
	defer close(release)
	hits := make(chan struct{}, 2)
	n.Site("slow.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		http.NotFound(w, r)
	}))
	const timeout = 2 * time.Second
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), MaxConcurrent: 1, MaxQueued: 1, CallTimeout: timeout, TargetPerMinute: -1})
	require.NoError(t, err)
	cs := connectStdio(t, srv)
	slow := func(path string) *mcp.CallToolResult {
		return callTool(t, cs, "validate_document", map[string]any{"kind": "openagent", "url": "https://slow.example/" + path})
	}
	first := make(chan *mcp.CallToolResult, 1)
	go func() { first <- slow("a") }()
	<-hits
	// The second call waits for the first's slot.
	second := make(chan *mcp.CallToolResult, 1)
	start := time.Now()
	go func() { second <- slow("b") }()
	time.Sleep(300 * time.Millisecond)
	// The queue's one place is taken: a third call is busy at once.
	r := callTool(t, cs, "explain_check", map[string]any{"id": "sitemap"})
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "1 tool call running and 1 waiting")
	assert.Less(t, time.Since(start), timeout, "the third call did not wait")

	assert.Contains(t, text(<-first), "deadline")
	// The second call had the slot from the first's deadline to its own,
	// a few hundred milliseconds: its wait counted against its deadline.
	r = <-second
	elapsed := time.Since(start)
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "deadline")
	assert.Less(t, elapsed, timeout+timeout/2, "the wait for a slot is part of CallTimeout")
}
