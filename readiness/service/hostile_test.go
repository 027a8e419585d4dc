package service_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/service"
)

// TestHostileURLs: every URL the scans' client would refuse is refused
// with 422 (or 414 past the length bound) and a reason, never echoing the
// URL's userinfo, and nothing is queued for it.
func TestHostileURLs(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name, url string
		status    int
		code      string
	}{
		{"loopback", "https://127.0.0.1/", 422, "invalid_url"},
		{"loopback v6", "https://[::1]/", 422, "invalid_url"},
		{"localhost", "https://localhost/", 422, "invalid_url"},
		{"private", "https://10.1.2.3/", 422, "invalid_url"},
		{"private 192.168", "https://192.168.0.1:8443/", 422, "invalid_url"},
		{"metadata", "https://169.254.169.254/latest/meta-data/", 422, "invalid_url"},
		{"metadata v6", "https://[fd00:ec2::254]/", 422, "invalid_url"},
		{"mapped loopback", "https://[::ffff:127.0.0.1]/", 422, "invalid_url"},
		{"octal loopback", "https://0177.0.0.1/", 422, "invalid_url"},
		{"userinfo", "https://admin:hunter2@shop.example/", 422, "invalid_url"},
		{"http", "http://shop.example/", 422, "invalid_url"},
		{"file", "file:///etc/passwd", 422, "invalid_url"},
		{"javascript", "javascript:alert(1)", 422, "invalid_url"},
		{"empty", "", 422, "invalid_url"},
		{"sql", "https://shop.example/'; DROP TABLE scans; --", 0, ""},
		{"html", `https://shop.example/"><script>alert(1)</script>`, 0, ""},
		{"100 KB", "https://shop.example/" + strings.Repeat("a", 100<<10), 414, "url_too_long"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, obj := e.post(t, c.url, map[string]string{"X-Test": c.name})
			body, _ := io.ReadAll(resp.Body)
			assert.NotContains(t, string(body), "hunter2")
			assert.NotContains(t, string(body), "admin:")
			assert.NotContains(t, string(body), "<script>")
			if c.status == 0 {
				// Accepted, stored as the normalized URL, escaped.
				require.Equal(t, http.StatusAccepted, resp.StatusCode, "%s", body)
				assert.NotContains(t, obj.Site, " ")
				assert.NotContains(t, obj.Site, "<")
				return
			}
			require.Equal(t, c.status, resp.StatusCode, "%s", body)
			var out errObj
			require.NoError(t, json.Unmarshal(body, &out))
			assert.Equal(t, c.code, out.Error.Code)
			assert.NotEmpty(t, out.Error.Message)
		})
	}
	// The refused URLs left no history.
	for _, host := range []string{"127.0.0.1", "10.1.2.3", "169.254.169.254", "shop.example:0"} {
		resp := e.do(t, "GET", "/api/sites/"+url.PathEscape(host), nil, nil, nil)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, host)
	}
}

// TestHostileBodies: bodies too large, malformed, with unknown fields, or
// trickled too slowly get a precise error.
func TestHostileBodies(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name   string
		body   []byte
		ct     string
		status int
		code   string
	}{
		{"10 MB", bytes.Repeat([]byte("a"), 10<<20), "application/json", 413, "body_too_large"},
		{"not json", []byte("url=https://shop.example/"), "application/json", 400, "bad_json"},
		{"unknown field", []byte(`{"url": "https://shop.example/", "admin": true}`), "application/json", 400, "bad_json"},
		{"array", []byte(`[]`), "application/json", 400, "bad_json"},
		{"no url", []byte(`{}`), "application/json", 422, "invalid_url"},
		{"browser without one", []byte(`{"url": "https://shop.example/", "browser": true}`), "application/json", 422, "no_browser"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out errObj
			resp := e.do(t, "POST", "/api/scans", bytes.NewReader(c.body), map[string]string{"Content-Type": c.ct}, &out)
			assert.Equal(t, c.status, resp.StatusCode)
			assert.Equal(t, c.code, out.Error.Code)
		})
	}
	t.Run("10 MB chunked", func(t *testing.T) {
		// No Content-Length: the cap is met while reading.
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/scans", io.MultiReader(bytes.NewReader(bytes.Repeat([]byte(" "), 10<<20))))
		req.ContentLength = -1
		resp, err := e.srv.Client().Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	})
}

// TestSlowBody: a body trickled a byte a second is cut at the body's
// deadline with 408.
func TestSlowBody(t *testing.T) {
	defer service.SetBodyTimeout(2 * time.Second)()
	e := newEnv(t, nil)
	conn, err := net.Dial("tcp", e.srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	body := `{"url": "https://shop.example/"}`
	fmt.Fprintf(conn, "POST /api/scans HTTP/1.1\r\nHost: scan.example\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	start := time.Now()
	got := make(chan string, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			got <- err.Error()
			return
		}
		data, _ := io.ReadAll(resp.Body)
		got <- resp.Status + " " + string(data)
	}()
	for i := 0; i < len(body); i++ {
		if _, err := conn.Write([]byte{body[i]}); err != nil {
			break
		}
		select {
		case answer := <-got:
			assert.Contains(t, answer, "408 Request Timeout")
			assert.Contains(t, answer, "body_timeout")
			assert.Less(t, time.Since(start), 5*time.Second, answer)
			return
		case <-time.After(time.Second):
		}
	}
	t.Fatal("the trickled body was read to its end")
}

// TestLimits: the per-caller and per-target limits and the queue bound
// answer 429 with Retry-After; a cached answer costs nothing.
func TestLimits(t *testing.T) {
	t.Run("caller", func(t *testing.T) {
		e := newEnv(t, func(o *service.Options) {
			o.CallerLimit = service.Limit{Count: 2, Window: time.Hour}
			o.ClientIPHeader = "X-Forwarded-For"
		}, "a.example", "b.example", "c.example")
		hdr := map[string]string{"X-Forwarded-For": "198.51.100.7, 203.0.113.9"}
		for _, h := range []string{"a", "b"} {
			resp, _ := e.post(t, "https://"+h+".example/", hdr)
			require.Equal(t, 202, resp.StatusCode)
		}
		resp, _ := e.post(t, "https://c.example/", hdr)
		require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
		ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		require.NoError(t, err)
		assert.Greater(t, ra, 0)
		assert.LessOrEqual(t, ra, 3600)
		var out errObj
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		assert.Equal(t, "rate_limited", out.Error.Code)
		// Another caller (the proxy's last entry) is not limited.
		resp, _ = e.post(t, "https://c.example/", map[string]string{"X-Forwarded-For": "198.51.100.7, 203.0.113.10"})
		assert.Equal(t, 202, resp.StatusCode)
	})
	t.Run("target", func(t *testing.T) {
		e := newEnv(t, func(o *service.Options) {
			o.TargetLimit = service.Limit{Count: 2, Window: time.Hour}
			o.ClientIPHeader = "X-Forwarded-For"
			o.CacheTTL = -1
		}, "shop.example", "www.shop.example", "blog.shop.example")
		ids := map[string]bool{}
		for i, h := range []string{"shop.example", "www.shop.example"} {
			resp, s := e.post(t, "https://"+h+"/", map[string]string{"X-Forwarded-For": "192.0.2." + strconv.Itoa(i+1)})
			require.Equal(t, 202, resp.StatusCode)
			ids[s.ID] = true
		}
		// A third host of the same registrable domain is over the limit.
		resp, _ := e.post(t, "https://blog.shop.example/", map[string]string{"X-Forwarded-For": "192.0.2.9"})
		require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
		assert.NotEmpty(t, resp.Header.Get("Retry-After"))
	})
	t.Run("cached answers are free", func(t *testing.T) {
		e := newEnv(t, func(o *service.Options) {
			o.CallerLimit = service.Limit{Count: 1, Window: time.Hour}
			o.TargetLimit = service.Limit{Count: 1, Window: time.Hour}
		}, "shop.example")
		resp, s := e.post(t, "https://shop.example/", nil)
		require.Equal(t, 202, resp.StatusCode)
		e.wait(t, s.ID, 30*time.Second)
		for range 5 {
			resp, c := e.post(t, "https://shop.example/", nil)
			require.Equal(t, 200, resp.StatusCode)
			assert.True(t, c.Cached)
		}
	})
	t.Run("queue", func(t *testing.T) {
		e := newEnv(t, func(o *service.Options) {
			o.QueueSize = 2
			o.Workers = 1
		}, "slow.example", "a.example", "b.example", "c.example")
		e.net.SetLatency("slow.example", 200*time.Millisecond)
		_, slow := e.post(t, "https://slow.example/", nil)
		// Wait until the worker has it, so the queue is empty.
		for {
			var s scanObj
			e.do(t, "GET", "/api/scans/"+slow.ID, nil, nil, &s)
			if s.Status != "queued" {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		for _, h := range []string{"a", "b"} {
			resp, _ := e.post(t, "https://"+h+".example/", nil)
			require.Equal(t, 202, resp.StatusCode)
		}
		resp, _ := e.post(t, "https://c.example/", nil)
		require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
		assert.NotEmpty(t, resp.Header.Get("Retry-After"))
		var out errObj
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		assert.Equal(t, "queue_full", out.Error.Code)
	})
}

// TestRefusedByDNS: a site whose name resolves to a private address is
// accepted (the name is not resolved before), and fails with the reason.
func TestRefusedByDNS(t *testing.T) {
	e := newEnv(t, nil)
	e.net.Host("intranet.example", "10.0.0.8")
	e.net.Host("gone.example")
	for host, want := range map[string]string{"intranet.example": "10.0.0.8", "gone.example": "did not resolve"} {
		resp, s := e.post(t, "https://"+host+"/", nil)
		require.Equal(t, 202, resp.StatusCode)
		done := e.wait(t, s.ID, 30*time.Second)
		require.Equal(t, "failed", done.Status)
		require.NotNil(t, done.Error)
		assert.Equal(t, "refused", done.Error.Code)
		assert.Contains(t, done.Error.Message, want)
		assert.Empty(t, done.Report)
	}
}
