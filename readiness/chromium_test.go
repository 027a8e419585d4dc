package readiness

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromium starts the system's Chromium for a test, or skips it unless
// AGENTWEB_BROWSER=1; listen, when not nil, gets every event of the tab.
func chromium(t *testing.T, listen func(ev any)) context.Context {
	t.Helper()
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		t.Skip("set AGENTWEB_BROWSER=1 to run the tests with a real Chromium (apt-get install chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.WindowSize(1100, 900), chromedp.Flag("disable-gpu", true))
	if p, err := execPath(); err == nil {
		opts = append(opts, chromedp.ExecPath(p))
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	var copts []chromedp.ContextOption
	if listen != nil {
		copts = append(copts, chromedp.WithListener(listen))
	}
	ctx, cancel := chromedp.NewContext(alloc, copts...)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	require.NoError(t, chromedp.Do(ctx), "start Chromium")
	return ctx
}

func execPath() (string, error) {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// shotDir is where the screenshots go: $AGENTWEB_ARTEFACTS when set (to
// look at them), else a temporary directory. Never the source tree.
func shotDir(t *testing.T) string {
	if d := os.Getenv("AGENTWEB_ARTEFACTS"); d != "" {
		require.NoError(t, os.MkdirAll(d, 0o755))
		return d
	}
	return t.TempDir()
}

// servePages serves fixed bodies on loopback (a secure context, as the
// clipboard asks) and counts every request.
func servePages(t *testing.T, pages map[string][]byte, types map[string]string) (*httptest.Server, func() map[string]int) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path]++
		mu.Unlock()
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", types[r.URL.Path])
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range seen {
			out[k] = v
		}
		return out
	}
}

// clipboard sets the page's clipboard permissions for origin.
func clipboard(t *testing.T, ctx context.Context, origin string, setting browser.PermissionSetting) {
	for _, d := range []*browser.PermissionDescriptor{{Name: "clipboard-read"}, {Name: "clipboard-write"}, {Name: "clipboard-write", AllowWithoutSanitization: true}} {
		_, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{Permission: d, Setting: setting, Origin: origin})
		require.NoError(t, err)
	}
}

// TestCopyPromptInChromium clicks the Copy prompt buttons of the HTML
// report in Chromium: with the clipboard allowed, the prompt is in the
// clipboard; with it refused, the prompt is selected for the reader to
// copy. The page asks for nothing beyond itself.
func TestCopyPromptInChromium(t *testing.T) {
	var mu sync.Mutex
	var requests []string
	ctx := chromium(t, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	r := fixedReport()
	srv, seen := servePages(t, map[string][]byte{"/report.html": r.HTML()}, map[string]string{"/report.html": "text/html; charset=utf-8"})
	origin := srv.URL
	clipboard(t, ctx, origin, browser.PermissionSettingGranted)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
			return err
		}),
		chromedp.Navigate(origin+"/report.html"),
		chromedp.WaitVisible(chromedp.CSS(`button[data-copy="prompt-all"]`)),
	))

	for _, id := range []string{"prompt-" + r.Fixes[0].Check, "prompt-all"} {
		button := chromedp.CSS(`button[data-copy="` + id + `"]`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(button), chromedp.Sleep(300*time.Millisecond)), id)
		clip, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
		require.NoError(t, err, id)
		label, err := chromedp.Run(ctx, chromedp.Text(button))
		require.NoError(t, err)
		want := r.Fixes[0].Prompt
		if id == "prompt-all" {
			want = string(r.Prompt())
		}
		assert.Equal(t, want, clip, "%s: the prompt is in the clipboard", id)
		assert.Equal(t, "Copied", label)
	}

	// The clipboard refused: the prompt is selected instead.
	clipboard(t, ctx, origin, browser.PermissionSettingDenied)
	second := chromedp.CSS(`button[data-copy="prompt-` + r.Fixes[1].Check + `"]`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(second), chromedp.Sleep(300*time.Millisecond)))
	selected, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.getSelection().toString()`))
	require.NoError(t, err)
	how, err := chromedp.Run(ctx, chromedp.AttributeValue(second, "data-copied"))
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(r.Fixes[1].Prompt), strings.TrimSpace(selected), "the prompt is selected where the clipboard is refused")
	assert.Contains(t, []string{"selected", "command"}, how.Value)

	// Scripts off: the buttons stay hidden and the prompts readable.
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{origin + "/report.html"}, requests, "the page makes no request of its own")
	assert.Equal(t, map[string]int{"/report.html": 1}, seen())
}

// TestChartAndBadgeInChromium renders the trend chart at 1, 2 and 50 runs
// and the badge, and writes a screenshot of each (to $AGENTWEB_ARTEFACTS
// when set, to look at): every point is drawn inside the chart, and the
// badge renders at the size it declares.
func TestChartAndBadgeInChromium(t *testing.T) {
	ctx := chromium(t, nil)
	dir := shotDir(t)
	pages := map[string][]byte{}
	types := map[string]string{}
	for _, n := range []int{1, 2, 50} {
		p := "/trend-" + strconv.Itoa(n) + ".html"
		r := trendReport(n)
		r.Baseline = nil // the trend and the change since the previous run
		pages[p] = r.HTML()
		types[p] = "text/html; charset=utf-8"
	}
	pages["/badge.svg"] = fixedReport().Badge()
	types["/badge.svg"] = "image/svg+xml"
	pages["/badge.html"] = []byte(`<!DOCTYPE html><html><body style="margin:8px;background:#fff"><img id="b" src="/badge.svg"></body></html>`)
	types["/badge.html"] = "text/html; charset=utf-8"
	srv, _ := servePages(t, pages, types)

	for _, n := range []int{1, 2, 50} {
		require.NoError(t, chromedp.Do(ctx,
			chromedp.Navigate(fmt.Sprintf("%s/trend-%d.html", srv.URL, n)),
			chromedp.WaitVisible(chromedp.CSS(`svg.trend`)),
			chromedp.ScrollIntoView(chromedp.CSS(`#trend`)),
		), "trend of %d runs", n)
		points, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("svg.trend circle").length`))
		require.NoError(t, err)
		inside, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector("svg.trend").getBoundingClientRect();
			return [...document.querySelectorAll("svg.trend circle")].every(c => { const b = c.getBoundingClientRect();
			return b.width > 0 && b.left >= s.left && b.right <= s.right && b.top >= s.top && b.bottom <= s.bottom; }); })()`))
		require.NoError(t, err)
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(`svg.trend`)))
		require.NoError(t, err)
		assert.Equal(t, n, points)
		assert.True(t, inside, "every point of %d runs is inside the chart", n)
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("trend-%d.png", n)), png, 0o644))
		if n > 1 {
			// The section deltas of the last run, under the chart.
			deltas, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(`svg.trend ~ table.deltas`)))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("trend-%d-deltas.png", n)), deltas, 0o644))
		}
	}

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/badge.html"),
		chromedp.WaitReady(chromedp.ID(`b`)),
		chromedp.Sleep(200*time.Millisecond),
	))
	w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.getElementById("b").naturalWidth`))
	require.NoError(t, err)
	h, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.getElementById("b").naturalHeight`))
	require.NoError(t, err)
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(`b`)))
	require.NoError(t, err)
	assert.Equal(t, 159, w, "the badge renders at its width")
	assert.Equal(t, 20, h)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "badge.png"), png, 0o644))
}
