package browser_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// profileDirs lists the directories the Browsers of this process hold.
func profileDirs(t testing.TB) map[string]bool {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("agentweb-chromium-%d-*", os.Getpid())))
	require.NoError(t, err)
	out := map[string]bool{}
	for _, d := range dirs {
		out[d] = true
	}
	return out
}

// New with a context that is already done, or that ends while Chromium
// starts, returns at once with the context's error and leaves no process
// and no directory.
func TestNewHonoursADoneContext(t *testing.T) {
	needBrowser(t)
	dirs, procs := profileDirs(t), chromiumProcesses(t)
	for _, after := range []time.Duration{-1, 0, time.Millisecond, 20 * time.Millisecond, 200 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			if after < 0 {
				cancel()
			} else {
				time.AfterFunc(after, cancel)
			}
			defer cancel()
			start := time.Now()
			b, err := browser.New(ctx, nil)
			took := time.Since(start)
			if err == nil {
				// Chromium started before the context ended.
				require.NoError(t, b.Close())
				return
			}
			assert.ErrorIs(t, err, context.Canceled)
			assert.Less(t, took, after+3*time.Second, "New returned soon after its context ended")
		})
	}
	assert.True(t, eventually(func() bool { return len(chromiumProcesses(t)) <= len(procs) }), "no Chromium process left")
	assert.Equal(t, dirs, profileDirs(t), "no directory left")
}

// A tool whose description the browser reports with a lone surrogate
// (which does not decode) is skipped alone: the page's other tools are
// judged, and the receipt says one was skipped.
func TestAPoisonedToolHidesNoOther(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+prose+`<script>
const reg = (name, description) => document.modelContext.registerTool({name, description, inputSchema: {type: "object", properties: {}}, execute() {}});
reg("first_tool", "Find a product by its name.");
reg("poison", "Lone \ud800 surrogate.");
reg("last_tool", "Put a product in the cart.");
</script></body></html>`))
	r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
	require.NoError(t, err)
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"first_tool", "last_tool"}, names)
	require.Len(t, r.Notes, 1)
	assert.Contains(t, r.Notes[0], "1 tool that the browser reported could not be read")

	rep, _ := scanRendered(t, b, n)
	c := checkOf(rep, "page_actions_declared")
	assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Receipt.Received, "the browser registered 2 tools")
	assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "could not be read")
}

// A tool registered a second after the load is found: the rendering
// waits for the tools of a page that names document.modelContext.
func TestALateToolIsFound(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+prose+`<script>
addEventListener("load", () => setTimeout(() => document.modelContext.registerTool({name: "late_tool", description: "Registered a second after the load.", execute() {}}), 1000));
</script></body></html>`))
	rep, _ := scanRendered(t, b, n)
	c := checkOf(rep, "page_actions_declared")
	assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Receipt.Received, `"late_tool" (imperative`)
}

// A tool registered after the rendering ended is still found in the
// script's text: what the static reading finds is never lost.
func TestATooLateToolIsReadFromTheScript(t *testing.T) {
	b := newBrowser(t, &browser.Options{Timeout: 4 * time.Second})
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+prose+`<script>
setTimeout(() => document.modelContext.registerTool({name: "very_late", description: "Registered a minute after the load.", execute() {}}), 60000);
</script></body></html>`))
	rep, _ := scanRendered(t, b, n)
	c := checkOf(rep, "page_actions_declared")
	assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Receipt.Received, "no tool registered")
}

// Render returns within its Timeout plus DeadlineMargin for every flood,
// nothing of the page's tab runs afterwards, and the next harmless page
// renders.
func TestTheDeadlineHolds(t *testing.T) {
	const timeout = 3 * time.Second
	browser.SkipUnderRace(t)
	b := newBrowser(t, &browser.Options{Timeout: timeout, Tabs: 1})
	n := fetchtest.New()
	defer n.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", htmlPage(`<!DOCTYPE html><html><body><h1>Shop</h1><form toolname="find" tooldescription="Find a product."><input name="q"></form></body></html>`))
	for name, body := range browser.Floods {
		mux.HandleFunc("/"+strings.ReplaceAll(name, " ", "-"), htmlPage(`<!DOCTYPE html><html><body><h1>Flood</h1>`+body+`</body></html>`))
	}
	n.Site("shop.example", mux)
	for name := range browser.Floods {
		t.Run(name, func(t *testing.T) {
			before := renderers(t)
			start := time.Now()
			_, _ = b.Render(context.Background(), "https://shop.example/"+strings.ReplaceAll(name, " ", "-"), n.Client())
			took := time.Since(start)
			assert.Less(t, took, timeout+browser.DeadlineMargin, "Render returned within its deadline and margin")
			assert.True(t, eventually(func() bool {
				for pid := range renderers(t) {
					if !before[pid] {
						return false
					}
				}
				return true
			}), "a renderer of the page still runs")
			r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
			require.NoError(t, err, "the next page renders")
			assert.Len(t, r.Tools, 1)
			t.Logf("%s: Render returned after %s", name, took.Round(10*time.Millisecond))
		})
	}
}

// renderers lists the live renderer processes of this package's Browsers.
func renderers(t testing.TB) map[string]bool {
	out := map[string]bool{}
	for pid := range chromiumProcesses(t) {
		cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
		if strings.Contains(string(cmd), "--type=renderer") {
			out[pid] = true
		}
	}
	return out
}

// What a site can learn about the scanner, as the package documentation
// says: its scripts see HeadlessChrome and navigator.webdriver, and every
// request carries the scan client's User-Agent, not Chromium's.
func TestWhatASiteCanLearn(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	var agent string
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		agent = r.Header.Get("User-Agent")
		htmlPage(`<script>
let gpu = "nogl";
try { const gl = document.createElement("canvas").getContext("webgl"); const d = gl.getExtension("WEBGL_debug_renderer_info"); gpu = /SwiftShader/.test(gl.getParameter(d.UNMASKED_RENDERER_WEBGL)) ? "swiftshader" : "othergl"; } catch (e) {}
document.modelContext.registerTool({name: [
  /HeadlessChrome/.test(navigator.userAgent) ? "headless" : "headful",
  navigator.webdriver ? "webdriver" : "nowebdriver", gpu, "cpus" + navigator.hardwareConcurrency].join("-"), description: "What the page saw.", execute() {}});</script>`)(w, r)
	})
	n.Site("shop.example", mux)
	assert.Equal(t, fmt.Sprintf("headless-webdriver-swiftshader-cpus%d", runtime.NumCPU()), renderToolName(t, b, n, "/"))
	assert.True(t, strings.HasPrefix(agent, "agentweb/"), agent)
}

// A tool the page unregisters is not listed; the others are.
func TestAnUnregisteredToolIsNotListed(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html><body><h1>Shop</h1><script>
const mc = document.modelContext;
const gone = new AbortController();
mc.registerTool({name: "kept", description: "Stays.", execute() {}});
mc.registerTool({name: "gone", description: "Goes.", execute() {}}, {signal: gone.signal});
setTimeout(() => { gone.abort(); if (mc.unregisterTool) try { mc.unregisterTool("gone"); } catch (e) {} }, 100);
</script></body></html>`))
	r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
	require.NoError(t, err)
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"kept"}, names)
}
