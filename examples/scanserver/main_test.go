package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serve runs the program with args in the background and returns its base
// URL; the program stops when the test ends.
func serve(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Error("scanserver did not stop")
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, pr)
	i := strings.LastIndex(line, "http://")
	require.GreaterOrEqual(t, i, 0, line)
	return strings.TrimSpace(line[i:])
}

func TestServes(t *testing.T) {
	base := serve(t, "-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "agentweb.db"), "-dev")
	resp, err := http.Get(base + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, string(body), `name="url"`)
	assert.Contains(t, string(body), "Development mode", "-dev is said on every page")

	resp, err = http.Get(base + "/llms.txt")
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), base+"/about", "the origin defaults to -addr's")
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"extra"}, {"-workers", "x"}} {
		err := run(context.Background(), args, io.Discard, io.Discard)
		assert.Error(t, err, "%v", args)
	}
}

func TestMCPMounted(t *testing.T) {
	base := serve(t, "-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "agentweb.db"))
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, "%s", body)
	assert.Contains(t, string(body), `"serverInfo"`)
}

// TestBrowserFlag: -browser starts the system's Chromium and the form
// offers browser scans.
func TestBrowserFlag(t *testing.T) {
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		t.Skip("set AGENTWEB_BROWSER=1 to run the tests with a real Chromium")
	}
	base := serve(t, "-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "agentweb.db"), "-browser")
	resp, err := http.Get(base + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), `name="browser"`)
}
