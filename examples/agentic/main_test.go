package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/examples/internal/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

const openapiDoc = `{"openapi":"3.1.0","info":{"title":"Shop API"},"paths":{"/orders":{"get":{"operationId":"listOrders","summary":"List orders"}}}}`

// shop serves a small site without a profile.
func shop(t *testing.T) *fetchtest.Network {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<title>Shop</title><meta name="description" content="Things."><a href="/docs">Docs</a>`))
		case "/docs":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<title>Docs</title>`))
		case "/openapi.json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(openapiDoc))
		default:
			http.NotFound(w, r)
		}
	}))
	return n
}

func runCmd(t *testing.T, n *fetchtest.Network, args ...string) (int, string, string) {
	code, out, errb := clitest.Run(t, run, n, args...)
	return code, string(out), errb
}

func TestDiscoverValidateTextAudit(t *testing.T) {
	n := shop(t)
	dir := filepath.Join(t.TempDir(), "files")
	code, out, stderr := runCmd(t, n, "discover", "https://shop.example", "--out", dir)
	require.Equal(t, exitOK, code, stderr+out)
	var dr map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &dr))
	assert.Equal(t, "generated", dr["outcome"])
	assert.EqualValues(t, 1, dr["operations"])
	for _, f := range []string{"agentic.json", "agentic.txt", "README.md", "LISTING.md", "discovery-report.json"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	code, _, _ = runCmd(t, n, "discover", "https://shop.example", "--out", dir)
	assert.Equal(t, exitUsage, code, "an existing directory is refused")

	code, out, _ = runCmd(t, nil, "validate", filepath.Join(dir, "agentic.json"))
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, `"valid": true`)

	code, out, _ = runCmd(t, nil, "text", filepath.Join(dir, "agentic.json"), "--check")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, `"status": "matched"`)

	code, out, _ = runCmd(t, nil, "text", filepath.Join(dir, "agentic.json"))
	assert.Equal(t, exitOK, code)
	assert.Equal(t, string(readAll(t, filepath.Join(dir, "agentic.txt"))), out)

	// A changed TXT is a mismatch with the first differing line.
	txtPath := filepath.Join(dir, "agentic.txt")
	require.NoError(t, os.WriteFile(txtPath, []byte(strings.Replace(out, `Name: "Shop"`, `Name: "Shop!"`, 1)), 0o644))
	code, out, _ = runCmd(t, nil, "text", filepath.Join(dir, "agentic.json"), "--check")
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, out, `"line": 8`)

	// Publish the generated pair and audit it.
	js := readAll(t, filepath.Join(dir, "agentic.json"))
	site, err := agentic.ParseSite(js)
	require.NoError(t, err)
	h, err := agentic.Handler(site, nil)
	require.NoError(t, err)
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/agentic.json", "/agentic.txt":
			h.ServeHTTP(w, r)
		case "/openapi.json":
			_, _ = w.Write([]byte(openapiDoc))
		default:
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<title>Shop</title>`))
		}
	}))
	code, out, stderr = runCmd(t, n, "audit", "https://shop.example/agentic.json")
	assert.Equal(t, exitOK, code, stderr+out)
	assert.Contains(t, out, `"valid": true`)
	assert.Contains(t, out, `"status": "matched"`)

	// The site now publishes a valid profile: discover keeps it, and
	// --regenerate builds a fresh one from what the site serves.
	code, out, stderr = runCmd(t, n, "discover", "https://shop.example", "--out", filepath.Join(t.TempDir(), "kept"))
	require.Equal(t, exitOK, code, stderr+out)
	assert.Contains(t, out, `"outcome": "existing-site"`)
	code, out, stderr = runCmd(t, n, "discover", "https://shop.example", "--regenerate", "--out", filepath.Join(t.TempDir(), "fresh"))
	require.Equal(t, exitOK, code, stderr+out)
	assert.Contains(t, out, `"outcome": "generated"`)
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"agentic":"1.1.0","type":"site"}`), 0o644))
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("gone.example", http.NotFoundHandler())
	tests := []struct {
		args []string
		code int
	}{
		{nil, exitUsage},
		{[]string{"nope"}, exitUsage},
		{[]string{"validate"}, exitUsage},
		{[]string{"validate", filepath.Join(dir, "missing.json")}, exitUsage},
		{[]string{"validate", bad}, exitInvalid},
		{[]string{"text", bad, "--check"}, exitInvalid},
		{[]string{"discover", "https://gone.example"}, exitUsage},
		{[]string{"discover", "http://gone.example", "--out", filepath.Join(dir, "x")}, exitUsage},
		{[]string{"discover", "https://gone.example", "--out", filepath.Join(dir, "y")}, exitUsage},
		{[]string{"audit", "http://gone.example/agentic.json"}, exitUsage},
		{[]string{"audit", "https://gone.example/agentic.json"}, exitUsage},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, _ := runCmd(t, n, tc.args...)
			assert.Equal(t, tc.code, code)
		})
	}
}

func readAll(t *testing.T, name string) []byte {
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}
