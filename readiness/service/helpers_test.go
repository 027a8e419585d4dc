package service_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/service"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// env is a service on a fake internet, served over real HTTP.
type env struct {
	net   *fetchtest.Network
	store service.Store
	svc   *service.Service
	srv   *httptest.Server
	opts  service.Options
}

// newEnv starts a service on an in-memory SQLite store (or on
// AGENTWEB_POSTGRES when pg is set) with the sites of hosts on a new
// network; edit adjusts the options.
func newEnv(t testing.TB, edit func(*service.Options), hosts ...string) *env {
	t.Helper()
	e := &env{net: fetchtest.New()}
	t.Cleanup(e.net.Close)
	for _, h := range hosts {
		e.net.Site(h, testSite(h))
	}
	st, err := service.OpenSQLite(":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	e.store = st
	e.opts = service.Options{Client: e.net.Client(), Store: st, Origin: "https://scan.example", PollInterval: 50 * time.Millisecond}
	if edit != nil {
		edit(&e.opts)
	}
	e.start(t)
	return e
}

// srvStart serves e.svc.
func (e *env) srvStart(t testing.TB) {
	e.srv = httptest.NewServer(e.svc)
	t.Cleanup(e.srv.Close)
}

// start starts the service of e.opts and serves it.
func (e *env) start(t testing.TB) {
	t.Helper()
	svc, err := service.New(context.Background(), &e.opts)
	require.NoError(t, err)
	e.svc = svc
	e.srv = httptest.NewServer(svc)
	t.Cleanup(func() {
		e.srv.Close()
		svc.Close()
	})
}

// testSite is a small site: a home page with some content and a form, and
// a 404 for everything else. Each scan fetches /robots.txt once, so its
// count is the number of scans the site received.
func testSite(host string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>%[1]s</title><link rel="canonical" href="https://%[1]s/"><meta name="description" content="The shop of %[1]s."></head>
<body><h1>Welcome to %[1]s</h1><p>%[2]s</p><a href="mailto:hello@%[1]s">Write to us</a></body></html>`, host, strings.Repeat("We sell tea and teapots to people who like tea. ", 8))
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		default:
			http.NotFound(w, r)
		}
	})
}

// do sends a request to the service and decodes a JSON answer into out
// (when not nil).
func (e *env) do(t testing.TB, method, path string, body io.Reader, hdr map[string]string, out any) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if out != nil {
		require.NoError(t, json.Unmarshal(data, out), "%s %s: %s", method, path, data)
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp
}

// scanObj is the API's scan object.
type scanObj struct {
	ID      string          `json:"id"`
	Site    string          `json:"site"`
	URL     string          `json:"url"`
	Host    string          `json:"host"`
	Status  string          `json:"status"`
	Cached  bool            `json:"cached"`
	Score   *float64        `json:"score"`
	Report  json.RawMessage `json:"report"`
	Error   *apiErr         `json:"error"`
	Browser bool            `json:"browser"`
}

type apiErr struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type errObj struct {
	Error apiErr `json:"error"`
}

func (e *env) post(t testing.TB, url string, hdr map[string]string) (*http.Response, scanObj) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"url": url})
	var out scanObj
	resp := e.do(t, "POST", "/api/scans", bytes.NewReader(body), hdr, nil)
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode < 300 {
		require.NoError(t, json.Unmarshal(data, &out), "%s", data)
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, out
}

// wait polls a scan until it is done or failed.
func (e *env) wait(t testing.TB, id string, within time.Duration) scanObj {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var s scanObj
		resp := e.do(t, "GET", "/api/scans/"+id, nil, nil, &s)
		require.Equal(t, 200, resp.StatusCode)
		if s.Status == "done" || s.Status == "failed" {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("scan %s still %s after %s", id, s.Status, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sseEvent is one server-sent event.
type sseEvent struct {
	ID, Event, Data string
}

// readSSE reads a whole event stream.
func readSSE(t testing.TB, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Event != "" || cur.Data != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "id: "):
			cur.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.Data += line[6:]
		}
	}
	return out
}

// counter counts the requests of a handler for one path.
type counter struct {
	path string
	n    atomic.Int64
	h    http.Handler
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == c.path {
		c.n.Add(1)
	}
	c.h.ServeHTTP(w, r)
}

// artefactDir is where a test writes what a person looks at (screenshots):
// $AGENTWEB_ARTEFACTS when set, else a temporary directory.
func artefactDir(t testing.TB) string {
	if d := os.Getenv("AGENTWEB_ARTEFACTS"); d != "" {
		require.NoError(t, os.MkdirAll(d, 0o755))
		return d
	}
	return t.TempDir()
}
