package service_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/service"
	"github.com/agentweb/agentweb/safefetch"
)

// fakeRenderer renders every page as its HTML with no tool, counting
// the pages it was asked for.
type fakeRenderer struct{ pages atomic.Int64 }

func (f *fakeRenderer) Render(ctx context.Context, pageURL string, client *safefetch.Client) (*readiness.Rendering, error) {
	f.pages.Add(1)
	resp, err := client.Get(ctx, pageURL, nil)
	if err != nil {
		return nil, err
	}
	return &readiness.Rendering{URL: pageURL, Browser: "Fake 1.0", HTML: resp.Body, Loaded: true}, nil
}

// TestBrowserMode: a scan that asks for the browser is rendered by
// Options.Renderer; one that does not is not; without a Renderer such a
// request is refused (TestHostileBodies).
func TestBrowserMode(t *testing.T) {
	r := &fakeRenderer{}
	e := newEnv(t, func(o *service.Options) { o.Renderer = r }, "shop.example")
	code, home := e.page(t, "/")
	require.Equal(t, 200, code)
	assert.Contains(t, home, `name="browser"`, "the form offers the browser")

	_, plain := e.post(t, "https://shop.example/", nil)
	e.wait(t, plain.ID, 30*time.Second)
	assert.Zero(t, r.pages.Load())

	var s scanObj
	resp := e.do(t, "POST", "/api/scans", strings.NewReader(`{"url": "https://shop.example/", "browser": true}`), nil, &s)
	require.Equal(t, http.StatusAccepted, resp.StatusCode, "a browser scan is not the plain scan's cached answer")
	assert.True(t, s.Browser)
	done := e.wait(t, s.ID, 30*time.Second)
	assert.Equal(t, "done", done.Status)
	assert.Positive(t, r.pages.Load())
	assert.Contains(t, string(done.Report), "Fake 1.0")
}

// TestDefaults: the origin defaults to the development origin, and the
// site's own documents name it.
func TestDefaults(t *testing.T) {
	st, err := service.OpenSQLite(":memory:")
	require.NoError(t, err)
	defer st.Close()
	svc, err := service.New(context.Background(), &service.Options{Store: st})
	require.NoError(t, err)
	defer svc.Close()
	e := &env{svc: svc}
	e.srvStart(t)
	code, llms := e.page(t, "/llms.txt")
	require.Equal(t, 200, code)
	assert.Contains(t, llms, "http://127.0.0.1:8080/about")
	assert.Contains(t, llms, "# Agent readiness scanner")

	_, err = service.OpenSQLite("")
	assert.ErrorIs(t, err, service.ErrStore)
	_, err = service.OpenPostgres(context.Background(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	assert.ErrorIs(t, err, service.ErrStore)
}

// TestPathsEscaped: SQL and markup in the path segments are not found,
// never an error, and never echoed unescaped.
func TestPathsEscaped(t *testing.T) {
	e := newEnv(t, nil)
	for _, p := range []string{
		"/api/sites/x'%20OR%20'1'='1",
		"/sites/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
		"/badge/%3Cscript%3E.svg",
		"/badge/x'%3B%20DROP%20TABLE%20scans%3B.svg",
		"/scans/%3Cimg%20src%3Dx%3E",
	} {
		code, body := e.page(t, p)
		assert.Equal(t, http.StatusNotFound, code, p)
		assert.NotContains(t, body, "<script>alert", p)
		assert.NotContains(t, body, "<img src=x>", p)
	}
}

// TestLogger: what goes wrong in the background (here a store closed
// under the workers) goes to Options.Logger.
func TestLogger(t *testing.T) {
	st, err := service.OpenSQLite(":memory:")
	require.NoError(t, err)
	var buf lockedBuffer
	svc, err := service.New(context.Background(), &service.Options{Store: st, PollInterval: 10 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	require.NoError(t, err)
	defer svc.Close()
	require.NoError(t, st.Close())
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(buf.String(), "service: claim") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.Contains(t, buf.String(), "service: claim")
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
