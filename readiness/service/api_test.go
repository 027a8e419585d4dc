package service_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/service"
)

func TestScanLifecycle(t *testing.T) {
	e := newEnv(t, nil, "shop.example")

	resp, s := e.post(t, "https://SHOP.example:443/", nil)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Equal(t, "/api/scans/"+s.ID, resp.Header.Get("Location"))
	assert.Equal(t, "https://shop.example/", s.URL)
	assert.Contains(t, []string{"queued", "running"}, s.Status)
	assert.Len(t, s.ID, 32)

	done := e.wait(t, s.ID, 30*time.Second)
	require.Equal(t, "done", done.Status, "%+v", done.Error)
	assert.Equal(t, "shop.example", done.Host)
	require.NotNil(t, done.Score)

	// The report is Report.JSON verbatim: it decodes into a Report with the
	// same score, whose own JSON is the bytes served.
	var rep readiness.Report
	require.NoError(t, json.Unmarshal(done.Report, &rep))
	assert.Equal(t, *done.Score, rep.Score)
	again, err := rep.JSON()
	require.NoError(t, err)
	assert.JSONEq(t, string(done.Report), string(again))

	// Asked again within the cache's time: 200, the finished scan, cached.
	resp, cached := e.post(t, "https://shop.example/", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, cached.Cached)
	assert.Equal(t, s.ID, cached.ID)
	assert.Equal(t, "done", cached.Status)
	assert.NotEmpty(t, cached.Report)

	// The history knows the scan, and so does the badge.
	var site struct {
		Host  string `json:"host"`
		Scans []struct {
			ID    string   `json:"id"`
			Score *float64 `json:"score"`
		} `json:"scans"`
		Deltas []any `json:"deltas"`
	}
	resp = e.do(t, "GET", "/api/sites/shop.example", nil, nil, &site)
	require.Equal(t, 200, resp.StatusCode)
	require.Len(t, site.Scans, 1)
	assert.Equal(t, s.ID, site.Scans[0].ID)
	assert.Empty(t, site.Deltas)
}

func TestUnknownScan(t *testing.T) {
	e := newEnv(t, nil)
	for _, path := range []string{
		"/api/scans/00000000000000000000000000000000",
		"/api/scans/nope",
		"/api/scans/00000000000000000000000000000000/events",
		"/api/scans/' OR 1=1 --",
		"/api/sites/never.example",
		"/api/nothing",
	} {
		t.Run(path, func(t *testing.T) {
			var out errObj
			resp := e.do(t, "GET", strings.ReplaceAll(path, " ", "%20"), nil, nil, &out)
			assert.Equal(t, http.StatusNotFound, resp.StatusCode)
			assert.Equal(t, "not_found", out.Error.Code)
			assert.NotEmpty(t, out.Error.Message)
		})
	}
}

func TestSingleFlight(t *testing.T) {
	e := newEnv(t, func(o *service.Options) { o.Workers = 1 }, "shop.example", "slow.example")
	// A slow site keeps the only worker busy, so the second site's scan
	// stays queued while it is asked for again.
	e.net.SetLatency("slow.example", 300*time.Millisecond)
	_, slow := e.post(t, "https://slow.example/", nil)
	time.Sleep(100 * time.Millisecond)
	r1, a := e.post(t, "https://shop.example/", nil)
	r2, b := e.post(t, "https://shop.example", nil)
	require.Equal(t, http.StatusAccepted, r1.StatusCode)
	require.Equal(t, http.StatusAccepted, r2.StatusCode)
	assert.Equal(t, a.ID, b.ID, "one scan in flight per site")
	e.wait(t, slow.ID, 60*time.Second)
	assert.Equal(t, "done", e.wait(t, a.ID, 30*time.Second).Status)
}

func TestEventsStream(t *testing.T) {
	e := newEnv(t, nil, "shop.example")
	_, s := e.post(t, "https://shop.example/", nil)

	resp, err := e.srv.Client().Get(e.srv.URL + "/api/scans/" + s.ID + "/events")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	live := readSSE(t, resp.Body)
	require.NotEmpty(t, live)
	last := live[len(live)-1]
	assert.Equal(t, "done", last.Event)
	var obj scanObj
	require.NoError(t, json.Unmarshal([]byte(last.Data), &obj))
	assert.Equal(t, "done", obj.Status)
	assert.NotEmpty(t, obj.Report)

	progress := 0
	for _, ev := range live[:len(live)-1] {
		require.Equal(t, "progress", ev.Event)
		var p struct {
			Check   string `json:"check"`
			Verdict string `json:"verdict"`
			Done    int    `json:"done"`
			Total   int    `json:"total"`
		}
		require.NoError(t, json.Unmarshal([]byte(ev.Data), &p))
		progress++
		assert.Equal(t, progress, p.Done)
		assert.Equal(t, len(readiness.Catalogue()), p.Total)
		assert.NotEmpty(t, p.Check)
	}
	assert.Equal(t, len(readiness.Catalogue()), progress, "one progress event per check")

	// A late subscriber gets what it missed, then the outcome.
	resp2, err := e.srv.Client().Get(e.srv.URL + "/api/scans/" + s.ID + "/events")
	require.NoError(t, err)
	late := readSSE(t, resp2.Body)
	resp2.Body.Close()
	assert.Equal(t, len(live), len(late))
	// Last-Event-ID skips what the subscriber had.
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/scans/"+s.ID+"/events", nil)
	req.Header.Set("Last-Event-ID", live[9].ID)
	resp3, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	rest := readSSE(t, resp3.Body)
	resp3.Body.Close()
	assert.Len(t, rest, len(live)-10)
}

func TestBadge(t *testing.T) {
	e := newEnv(t, nil, "shop.example")
	var nf errObj
	resp := e.do(t, "GET", "/badge/shop.example.svg", nil, nil, &nf)
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "never scanned here")
	assert.Equal(t, "not_found", nf.Error.Code)

	_, s := e.post(t, "https://shop.example/", nil)
	done := e.wait(t, s.ID, 30*time.Second)
	resp = e.do(t, "GET", "/badge/SHOP.example.svg", nil, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "image/svg+xml", resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Header.Get("Cache-Control"), "max-age=")
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	body, _ := io.ReadAll(resp.Body)
	var rep readiness.Report
	require.NoError(t, json.Unmarshal(done.Report, &rep))
	assert.Equal(t, string(rep.Badge()), string(body), "the badge is the report's own")

	resp = e.do(t, "GET", "/badge/shop.example.svg", nil, map[string]string{"If-None-Match": etag}, nil)
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	resp = e.do(t, "GET", "/badge/shop.example.png", nil, nil, nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestNewNeedsStore(t *testing.T) {
	_, err := service.New(context.Background(), &service.Options{})
	require.ErrorIs(t, err, service.ErrOptions)
	_, err = service.New(context.Background(), nil)
	require.ErrorIs(t, err, service.ErrOptions)
}
