package service_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/service"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// TestCloseRequeues: Close stops accepting scans, ends the event streams,
// lets a running scan finish for ShutdownGrace, then puts it back in the
// queue uncounted; the next service on the store runs it to the end.
func TestCloseRequeues(t *testing.T) {
	e := newEnv(t, func(o *service.Options) { o.ShutdownGrace = 200 * time.Millisecond })
	c := &counter{path: "/robots.txt", h: testSite("slow.example")}
	e.net.Site("slow.example", c)
	e.net.SetLatency("slow.example", 400*time.Millisecond)

	_, s := e.post(t, "https://slow.example/", nil)
	for e.wait1(t, s.ID).Status != "running" {
		time.Sleep(10 * time.Millisecond)
	}
	resp, err := e.srv.Client().Get(e.srv.URL + "/api/scans/" + s.ID + "/events")
	require.NoError(t, err)
	streamEnded := make(chan struct{})
	go func() {
		readSSE(t, resp.Body)
		resp.Body.Close()
		close(streamEnded)
	}()

	start := time.Now()
	require.NoError(t, e.svc.Close())
	assert.Less(t, time.Since(start), 5*time.Second)
	select {
	case <-streamEnded:
	case <-time.After(5 * time.Second):
		t.Fatal("the event stream outlived Close")
	}
	assert.Equal(t, "queued", e.wait1(t, s.ID).Status, "put back in the queue")
	var out errObj
	r := e.do(t, "POST", "/api/scans", strings.NewReader(`{"url": "https://slow.example/"}`), nil, &out)
	assert.Equal(t, http.StatusServiceUnavailable, r.StatusCode)
	assert.Equal(t, "closing", out.Error.Code)
	assert.NotEmpty(t, r.Header.Get("Retry-After"))

	// The next service takes it up.
	e.net.SetLatency("slow.example", 0)
	e.start(t)
	done := e.wait(t, s.ID, 30*time.Second)
	assert.Equal(t, "done", done.Status)
}

func (e *env) wait1(t testing.TB, id string) scanObj {
	var s scanObj
	e.do(t, "GET", "/api/scans/"+id, nil, nil, &s)
	return s
}

// TestLeaseRenewed: with a lease much shorter than a scan, two services on
// one store never run a scan twice: the running one renews its lease.
func TestLeaseRenewed(t *testing.T) {
	net := fetchtest.New()
	defer net.Close()
	c := &counter{path: "/robots.txt", h: testSite("slow.example")}
	net.Site("slow.example", c)
	net.SetLatency("slow.example", 300*time.Millisecond)
	st, err := service.OpenSQLite(filepath.Join(t.TempDir(), "s.db"))
	require.NoError(t, err)
	defer st.Close()
	var srvs []*httptest.Server
	for range 2 {
		svc, err := service.New(context.Background(), &service.Options{Client: net.Client(), Store: st,
			LeaseTTL: 400 * time.Millisecond, PollInterval: 20 * time.Millisecond})
		require.NoError(t, err)
		srv := httptest.NewServer(svc)
		defer svc.Close()
		defer srv.Close()
		srvs = append(srvs, srv)
	}
	resp, err := http.Post(srvs[0].URL+"/api/scans", "application/json", strings.NewReader(`{"url": "https://slow.example/"}`))
	require.NoError(t, err)
	var s scanObj
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
	resp.Body.Close()
	start := time.Now()
	for {
		resp, err := http.Get(srvs[1].URL + "/api/scans/" + s.ID)
		require.NoError(t, err)
		var cur scanObj
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&cur))
		resp.Body.Close()
		if cur.Status == "done" || cur.Status == "failed" {
			assert.Equal(t, "done", cur.Status)
			break
		}
		require.Less(t, time.Since(start), time.Minute)
		time.Sleep(20 * time.Millisecond)
	}
	assert.Greater(t, time.Since(start), 1200*time.Millisecond, "the scan outlived several leases")
	assert.EqualValues(t, 1, c.n.Load(), "one run: the lease was renewed, never taken back")
}
