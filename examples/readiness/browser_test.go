package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -browser renders the pages in Chromium, for one site and for a list
// (one browser for the batch); the receipts say so.
func TestRunBrowser(t *testing.T) {
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		t.Skip("set AGENTWEB_BROWSER=1 to run the tests with a real Chromium")
	}
	n := fetchtest.New()
	t.Cleanup(n.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>
<script>document.modelContext.registerTool({name: "find", description: "Find a product.", execute() {}});</script></body></html>`)
	})
	n.Site("shop.example", mux)
	n.Site("other.example", mux)

	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"scan", "-browser", "https://shop.example/", "--json", "-"}, &stdout, &stderr, n.Client())
	assert.Contains(t, stdout.String(), `rendered in Chromium`)
	assert.Contains(t, stdout.String(), `\"find\" (imperative`)

	list := filepath.Join(t.TempDir(), "sites.txt")
	require.NoError(t, os.WriteFile(list, []byte("https://shop.example/\nhttps://other.example/\n"), 0o644))
	stdout.Reset()
	assert.Equal(t, 0, run(context.Background(), []string{"scan", "-list", list, "-browser"}, &stdout, &stderr, n.Client()), stderr.String())
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 2)
	for _, l := range lines {
		assert.Contains(t, l, "rendered in Chromium", "both sites rendered by the one browser")
	}
}

// SIGTERM ends a run as Ctrl-C does: the context of the run ends.
func TestSIGTERMEndsTheRun(t *testing.T) {
	ctx, stop := signals()
	defer stop()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not end the run's context")
	}
}

// A run whose context ended before Chromium started (Ctrl-C while -list -
// read the list) returns at once and leaves no Chromium directory.
func TestRunCancelledBeforeTheBrowserStarted(t *testing.T) {
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		t.Skip("set AGENTWEB_BROWSER=1 to run the tests with a real Chromium")
	}
	n := fetchtest.New()
	t.Cleanup(n.Close)
	list := filepath.Join(t.TempDir(), "sites.txt")
	require.NoError(t, os.WriteFile(list, []byte("https://shop.example/\n"), 0o644))
	mine := filepath.Join(os.TempDir(), fmt.Sprintf("agentweb-chromium-%d-*", os.Getpid()))
	before, _ := filepath.Glob(mine)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan int, 1)
	var stdout, stderr bytes.Buffer
	go func() { done <- run(ctx, []string{"scan", "-list", list, "-browser"}, &stdout, &stderr, n.Client()) }()
	select {
	case code := <-done:
		assert.NotEqual(t, 0, code, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not return after its context ended")
	}
	after, _ := filepath.Glob(mine)
	assert.Equal(t, len(before), len(after), "no Chromium directory left")
}
