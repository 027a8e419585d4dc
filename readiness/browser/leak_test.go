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

	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// chromiumProcesses lists the pids of the live processes started with a
// profile of a Browser of this process
// (--user-data-dir=.../agentweb-chromium-<pid>-...).
func chromiumProcesses(t testing.TB) map[string]bool {
	t.Helper()
	return processesWith(t, fmt.Sprintf("agentweb-chromium-%d-", os.Getpid()))
}

// processesWith lists the pids of the live processes whose command line
// holds s.
func processesWith(t testing.TB, s string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	require.NoError(t, err)
	for _, d := range dirs {
		cmd, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join(d, "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			continue // a zombie holds no resource but its pid
		}
		if strings.Contains(string(cmd), s) {
			out[filepath.Base(d)] = true
		}
	}
	return out
}

func openFDs(t testing.TB) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(fds)
}

// eventually polls cond for up to 5 s.
func eventually(cond func() bool) bool {
	for range 50 {
		if cond() {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return cond()
}

// After Close, no goroutine, descriptor or Chromium process of the Browser
// is left, and its profile directory is gone, even after a rendering that
// hit its deadline.
func TestCloseLeavesNothing(t *testing.T) {
	needBrowser(t)
	n := fetchtest.New()
	defer n.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", htmlPage(`<!DOCTYPE html><html><body><h1>Shop</h1>`+prose+`<script>document.modelContext.registerTool({name: "a", description: "A.", execute() {}})</script></body></html>`))
	mux.HandleFunc("/busy", htmlPage(`<script>while (true) {}</script>`))
	n.Site("shop.example", mux)
	client := n.Client()
	before := chromiumProcesses(t)
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	tmp, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("agentweb-chromium-%d-*", os.Getpid())))

	b, err := browser.New(context.Background(), &browser.Options{Timeout: 3 * time.Second})
	require.NoError(t, err)
	r, err := b.Render(context.Background(), "https://shop.example/", client)
	require.NoError(t, err)
	assert.Len(t, r.Tools, 1)
	_, err = b.Render(context.Background(), "https://shop.example/busy", client)
	assert.Error(t, err, "a busy loop fails at its deadline")
	during := chromiumProcesses(t)
	assert.Greater(t, len(during), len(before), "Chromium ran")
	require.NoError(t, b.Close())
	client.CloseIdleConnections()

	assert.True(t, eventually(func() bool {
		after := chromiumProcesses(t)
		for pid := range after {
			if !before[pid] {
				return false
			}
		}
		return true
	}), "Chromium processes left after Close")
	assert.True(t, eventually(func() bool { return runtime.NumGoroutine() <= goroutines }), "goroutines: %d before, %d after", goroutines, runtime.NumGoroutine())
	assert.True(t, eventually(func() bool { return openFDs(t) <= fds }), "descriptors: %d before, %d after", fds, openFDs(t))
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("agentweb-chromium-%d-*", os.Getpid())))
	assert.Equal(t, len(tmp), len(after), "the profile directory is removed")
}

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

// Render returns within its Timeout plus DeadlineMargin for every flood,
// nothing of the page's tab runs afterwards, and the next harmless page
// renders. On a loaded 2-core machine, Render returned at most about 1 s
// past its Timeout.
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
