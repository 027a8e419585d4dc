package service_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/service"
)

// TestBrowser drives the site in a real Chromium, as a person would: types
// a URL of a site on the fake internet, submits, watches the progress
// arrive, reads the score and the first fix, scans again and opens the
// site's history, with two points on the chart. A screenshot of each page
// is written to $AGENTWEB_ARTEFACTS (else a temporary directory) and its
// path logged, to be looked at.
func TestBrowser(t *testing.T) {
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		t.Skip("set AGENTWEB_BROWSER=1 to run the tests with a real Chromium")
	}
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("no chromium: %v", err)
	}
	var llms atomic.Bool
	e := newEnv(t, func(o *service.Options) { o.CacheTTL = -1 })
	e.net.Site("shop.example", changingSite("shop.example", &llms))
	// Slow enough that progress is seen before the report.
	e.net.SetLatency("shop.example", 150*time.Millisecond)
	dir := artefactDir(t)

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(412, 915)) // a phone's viewport
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelT()

	shot := func(name string) {
		t.Helper()
		// The whole page, but the report's first screen only: what a
		// person sees first (the report is many screens long).
		grab := chromedp.FullScreenshot(100)
		if strings.Contains(name, "report") {
			grab = chromedp.CaptureScreenshot()
			_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
			require.NoError(t, err)
		}
		buf, err := chromedp.Run(ctx, grab)
		require.NoError(t, err)
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, buf, 0o644))
		t.Logf("screenshot: %s", path)
	}

	// The form: type, submit, watch the progress.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(e.srv.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("url")),
	))
	shot("1-home.png")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("url"), "https://shop.example/"),
	))
	// Submitting navigates to the scan's page: wait for it to load.
	_, err = chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.ID("scan-button"))))
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#checks li").length > 0 || document.getElementById("total") !== null`, chromedp.WithPollingTimeout(30*time.Second)))
	require.NoError(t, err)
	checks, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#checks li").length`))
	require.NoError(t, err)
	shot("2-progress.png")
	assert.Positive(t, checks, "progress arrived before the report")

	// The report: the score and the first fix.
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("total"))))
	score, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("total"), "data-score"))
	require.NoError(t, err)
	firstFix, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("li.fix-first")))
	require.NoError(t, err)
	shot("3-report.png")
	v, err := strconv.ParseFloat(score.Value, 64)
	require.NoError(t, err, score.Value)
	assert.Greater(t, v, 0.0)
	assert.Contains(t, firstFix, "+", "the first fix says the points it adds")
	t.Logf("score %s; first fix: %s", score.Value, firstFix)

	// A second scan of the changed site, then the history: two points.
	llms.Store(true)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(e.srv.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("url")),
		chromedp.SendKeys(chromedp.ID("url"), "https://shop.example/"),
		chromedp.Click(chromedp.ID("scan-button")),
		chromedp.WaitVisible(chromedp.ID("total")),
		chromedp.Click(chromedp.ID("history-link")),
		chromedp.WaitVisible(chromedp.ID("trend")),
	))
	points, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#trend svg circle").length`))
	require.NoError(t, err)
	shot("4-history.png")
	assert.Equal(t, 2, points, "two points on the chart")
}
