package service_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/service"
)

// changingSite publishes llms.txt from its second scan on, so that two
// scans of it differ.
func changingSite(host string, llms *atomic.Bool) http.Handler {
	base := testSite(host)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/llms.txt" && llms.Load() {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(w, "# "+host+"\n\n> A shop of tea and teapots, for people who like tea.\n\n## Pages\n\n- [Home](https://"+host+"/): the shop\n")
			return
		}
		base.ServeHTTP(w, r)
	})
}

func (e *env) page(t *testing.T, path string) (int, string) {
	t.Helper()
	resp := e.do(t, "GET", path, nil, nil, nil)
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// noRedirect is a client that shows redirects instead of following them.
func (e *env) noRedirect() *http.Client {
	c := *e.srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

func TestPages(t *testing.T) {
	var llms atomic.Bool
	e := newEnv(t, func(o *service.Options) { o.CacheTTL = -1; o.Contact = "mailto:ops@scan.example" })
	e.net.Site("shop.example", changingSite("shop.example", &llms))

	code, home := e.page(t, "/")
	require.Equal(t, 200, code)
	assert.Contains(t, home, `<form id="scan-form" method="post" action="/scans" toolname="scan_site"`)
	assert.Contains(t, home, `name="url"`)
	assert.Contains(t, home, `toolparamdescription=`)
	assert.NotContains(t, home, "Development mode", "not in development mode")

	// The form starts a scan and goes to its page.
	resp, err := e.noRedirect().PostForm(e.srv.URL+"/scans", url.Values{"url": {"shop.example"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	loc := resp.Header.Get("Location")
	require.True(t, strings.HasPrefix(loc, "/scans/"), loc)
	id := strings.TrimPrefix(loc, "/scans/")
	e.wait(t, id, 30*time.Second)

	code, report := e.page(t, loc)
	require.Equal(t, 200, code)
	assert.Contains(t, report, `id="service-bar"`)
	assert.Contains(t, report, `id="total"`)
	assert.Contains(t, report, `class="fix-first"`)
	assert.Contains(t, report, `href="/sites/shop.example"`)

	// A second scan of a changed site: two points, deltas and changes.
	llms.Store(true)
	_, second := e.post(t, "https://shop.example/", nil)
	e.wait(t, second.ID, 30*time.Second)
	code, site := e.page(t, "/sites/shop.example")
	require.Equal(t, 200, code)
	assert.Contains(t, site, `<svg class="trend"`)
	assert.Equal(t, 2, strings.Count(site, "<circle "), "two points on the chart")
	assert.Contains(t, site, `id="deltas"`)
	assert.Contains(t, site, `data-check="llms_txt"`)
	assert.Equal(t, 2, strings.Count(site, `class="scan"`))

	var h struct {
		Deltas []struct {
			Section string  `json:"section"`
			Delta   float64 `json:"delta"`
		} `json:"deltas"`
		Changes []struct {
			Check, From, To, Direction string
		} `json:"changes"`
	}
	e.do(t, "GET", "/api/sites/shop.example", nil, nil, &h)
	var discover float64
	for _, d := range h.Deltas {
		if d.Section == "discover" {
			discover = d.Delta
		}
	}
	assert.Positive(t, discover, "llms.txt adds points to Discover")
	require.NotEmpty(t, h.Changes)

	// The second report draws the trend of both scans.
	_, report2 := e.page(t, "/scans/"+second.ID)
	assert.Contains(t, report2, `id="trend"`)

	code, about := e.page(t, "/about")
	require.Equal(t, 200, code)
	assert.Contains(t, about, "mailto:ops@scan.example")

	code, missing := e.page(t, "/sites/never.example")
	assert.Equal(t, 404, code)
	assert.Contains(t, missing, "nothing at this address")
	code, _ = e.page(t, "/scans/00000000000000000000000000000000")
	assert.Equal(t, 404, code)
	code, _ = e.page(t, "/no/such/page")
	assert.Equal(t, 404, code)
}

// TestFormRefusals: the form shows a refusal on the page, with the status
// of the API, and every field escaped.
func TestFormRefusals(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		url    string
		status int
		want   string
	}{
		{"https://admin:hunter2@shop.example/", 422, "userinfo"},
		{"https://127.0.0.1/", 422, "rule address"},
		{`"><script>alert(1)</script>`, 422, "not one this service fetches"},
		{"https://shop.example/" + strings.Repeat("x", 3000), 414, "longer than"},
	}
	for _, c := range cases {
		resp, err := e.noRedirect().PostForm(e.srv.URL+"/scans", url.Values{"url": {c.url}})
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, c.status, resp.StatusCode, c.url)
		assert.Contains(t, string(body), c.want)
		assert.Contains(t, string(body), `id="error"`)
		assert.NotContains(t, string(body), "hunter2")
		assert.NotContains(t, string(body), "<script>alert")
	}
}

// TestMarkupEscaped: HTML and SQL in a URL are stored as the normalized
// URL and shown escaped on every page and in every answer.
func TestMarkupEscaped(t *testing.T) {
	e := newEnv(t, nil, "shop.example")
	raw := `https://shop.example/<img src=x onerror=alert(1)>'; DROP TABLE scans; --`
	resp, s := e.post(t, raw, nil)
	require.Equal(t, 202, resp.StatusCode)
	e.wait(t, s.ID, 30*time.Second)
	for _, path := range []string{"/scans/" + s.ID, "/sites/shop.example", "/api/scans/" + s.ID, "/api/sites/shop.example"} {
		code, body := e.page(t, path)
		require.Equal(t, 200, code, path)
		assert.NotContains(t, body, "<img src=x", path)
		assert.NotContains(t, body, "'; DROP", path)
	}
	// The table is still there.
	var site struct{ Scans []json.RawMessage }
	e.do(t, "GET", "/api/sites/shop.example", nil, nil, &site)
	assert.Len(t, site.Scans, 1)
}

// TestFormRateLimited: the form's 429 carries Retry-After, as the API's
// does, and shows the refusal on the page.
func TestFormRateLimited(t *testing.T) {
	e := newEnv(t, func(o *service.Options) {
		o.CallerLimit = service.Limit{Count: 1, Window: time.Hour}
	}, "a.example", "b.example")
	var codes []int
	var last *http.Response
	for _, h := range []string{"a", "b"} {
		resp, err := e.noRedirect().PostForm(e.srv.URL+"/scans", url.Values{"url": {"https://" + h + ".example/"}})
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
		last = resp
	}
	assert.Equal(t, []int{http.StatusSeeOther, http.StatusTooManyRequests}, codes)
	ra, err := strconv.Atoi(last.Header.Get("Retry-After"))
	require.NoError(t, err)
	assert.Positive(t, ra)
	assert.LessOrEqual(t, ra, 3600)
}
