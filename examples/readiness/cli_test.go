package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelpPrintsEveryFlag: -h, -help, --help and help (alone, after scan
// or mcp) print the usage and every flag with its meaning on stdout and
// exit 0, as the flag package's conventions have it.
func TestHelpPrintsEveryFlag(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"-help"}, {"--help"}, {"help"}, {"scan", "-h"}, {"scan", "--help"}, {"scan", "help"}, {"mcp", "-h"}, {"scan", "https://a.example/", "-h"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr, nil)
			assert.Equal(t, 0, code)
			assert.Empty(t, stderr.String())
			out := stdout.String()
			assert.True(t, strings.HasPrefix(out, "usage: readiness"), out)
			flags(&config{outputs: map[string]string{}}).VisitAll(func(f *flag.Flag) {
				assert.Contains(t, out, "  -"+f.Name, "flag -%s is listed", f.Name)
				_, usage := flag.UnquoteUsage(f)
				first := strings.SplitN(usage, "\n", 2)[0]
				assert.Contains(t, out, first, "flag -%s is explained", f.Name)
			})
			// What the gate flags do is in the usage itself.
			assert.Contains(t, out, "exit 1 when the score")
			assert.Contains(t, out, "every check that got worse")
			assert.Contains(t, out, "the last line of this site")
			assert.Contains(t, out, "GITHUB_STEP_SUMMARY")
		})
	}
}

// TestErrorsNameTheProgramOnce: an error that already carries the
// program's name is not prefixed a second time, and points at the help.
func TestErrorsNameTheProgramOnce(t *testing.T) {
	for _, args := range [][]string{{"scan", "not-a-url"}, {"not-a-url"}, {"mcp", "ftp://a.example/mcp"}, {"--bogus"}, {"scan", "-fail-under", "200", "https://a.example/"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(context.Background(), args, &stdout, &stderr, nil), "%q", args)
		assert.True(t, strings.HasPrefix(stderr.String(), "readiness: "), stderr.String())
		assert.NotContains(t, stderr.String(), "readiness: readiness:")
		assert.Contains(t, stderr.String(), "readiness -h")
	}
}

// TestBaselineJSONLines: a baseline given as a -list -out JSON Lines file
// gates on the line of the scanned site; one without that site, or a file
// that is not a report, is a clear error, not a JSON syntax message.
func TestBaselineJSONLines(t *testing.T) {
	n := listNet(t, "a.example", "b.example")
	dir := t.TempDir()
	list := filepath.Join(dir, "sites.txt")
	require.NoError(t, os.WriteFile(list, []byte("https://a.example/\nhttps://b.example/\n"), 0o644))
	lines := filepath.Join(dir, "reports.jsonl")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"scan", "-list", list, "-out", lines}, &stdout, &stderr, n.Client()), stderr.String())

	stdout.Reset()
	stderr.Reset()
	code := run(context.Background(), []string{"scan", "https://b.example/", "-baseline", lines}, &stdout, &stderr, n.Client())
	assert.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "gate: passed")

	other := filepath.Join(dir, "other.jsonl")
	var kept []string
	for _, l := range rawLines(t, lines) {
		if strings.Contains(l, `"site":"https://a.example/"`) {
			kept = append(kept, l)
		}
	}
	require.Len(t, kept, 1)
	require.NoError(t, os.WriteFile(other, []byte(strings.Join(kept, "\n")+"\n"), 0o644))
	garbage := filepath.Join(dir, "garbage.json")
	require.NoError(t, os.WriteFile(garbage, []byte("{\"x\": [1,\n"), 0o644))
	// A file of one other site is that site's baseline (production's, for
	// a preview at another origin).
	stdout.Reset()
	assert.Equal(t, 0, run(context.Background(), []string{"scan", "https://b.example/", "-baseline", other}, &stdout, &stderr, n.Client()), stderr.String())
	assert.Contains(t, stdout.String(), "gate: passed")
	c := filepath.Join(dir, "c.jsonl")
	var notB []string
	for _, l := range rawLines(t, lines) {
		if !strings.Contains(l, `"site":"https://b.example/"`) {
			notB = append(notB, l, strings.Replace(l, "https://a.example/", "https://c.example/", 1))
		}
	}
	require.NoError(t, os.WriteFile(c, []byte(strings.Join(notB, "\n")+"\n"), 0o644))
	for file, want := range map[string]string{
		c:       "JSON Lines with 2 reports of 2 sites, none of them of https://b.example/",
		garbage: "not a readiness report (one written by -json, or JSON Lines written by -list -out, -summary or -history)",
	} {
		stderr.Reset()
		assert.Equal(t, 2, run(context.Background(), []string{"scan", "https://b.example/", "-baseline", file}, &stdout, &stderr, n.Client()))
		assert.Contains(t, stderr.String(), want)
	}
}

// TestDevScansAndProbesALocalServer: -dev lets scan and mcp reach a server
// on loopback over http, and every report made so says so in every form;
// without -dev the same URLs are refused with safefetch's reason.
func TestDevScansAndProbesALocalServer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "local", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "search", Description: "Search.", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Local</title></head><body><h1>Local</h1></body></html>`)
	})
	local := httptest.NewServer(mux)
	t.Cleanup(local.Close)
	dir := t.TempDir()
	jsonPath, mdPath, htmlPath, listPath, outPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md"), filepath.Join(dir, "r.html"), filepath.Join(dir, "l.txt"), filepath.Join(dir, "o.jsonl")
	require.NoError(t, os.WriteFile(listPath, []byte(local.URL+"/\n"), 0o644))

	t.Run("scan", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"scan", local.URL + "/", "-dev", "-json", jsonPath, "-md", mdPath, "-html", htmlPath}, &stdout, &stderr, nil)
		assert.Equal(t, 1, code, "scanned (not ready): %s", stderr.String())
		assert.Contains(t, stdout.String(), devNotice)
		var rep struct {
			Scope struct {
				Development bool `json:"development"`
			} `json:"scope"`
		}
		require.NoError(t, json.Unmarshal(mustRead(t, jsonPath), &rep))
		assert.True(t, rep.Scope.Development)
		assert.Contains(t, string(mustRead(t, mdPath)), "Development mode")
		assert.Contains(t, string(mustRead(t, htmlPath)), "Development mode")
	})
	t.Run("list", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 0, run(context.Background(), []string{"scan", "-dev", "-list", listPath, "-out", outPath}, &stdout, &stderr, nil), stderr.String())
		assert.Contains(t, stderr.String(), devNotice)
		lines := readLines(t, outPath)
		require.Len(t, lines, 1)
		assert.Equal(t, true, lines[0]["scope"].(map[string]any)["development"])
	})
	t.Run("mcp", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 0, run(context.Background(), []string{"mcp", "-dev", local.URL + "/mcp"}, &stdout, &stderr, nil), stderr.String())
		var r map[string]any
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &r), stdout.String())
		assert.Equal(t, "listed", r["outcome"])
		assert.Equal(t, true, r["development"])
		assert.Contains(t, stderr.String(), devNotice)
	})
	t.Run("never the default", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(context.Background(), []string{"scan", local.URL + "/"}, &stdout, &stderr, nil))
		assert.Contains(t, stderr.String(), "(Loopback): not globally reachable")
		assert.Contains(t, stderr.String(), "add -dev")
		stdout.Reset()
		stderr.Reset()
		// A refused endpoint is a usage error (2), as a refused scan is.
		assert.Equal(t, 2, run(context.Background(), []string{"mcp", local.URL + "/mcp"}, &stdout, &stderr, nil))
		assert.Empty(t, stdout.String())
		assert.Contains(t, stderr.String(), "127.0.0.1 is in 127.0.0.0/8 (Loopback)")
		assert.Contains(t, stderr.String(), "add -dev")
	})
}
