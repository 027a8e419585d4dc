package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentweb/agentweb/examples/internal/clitest"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const example = `{
  "type": "logicsrc.agent",
  "version": "0.1",
  "name": "Research agent",
  "did": "research.coinpay",
  "owner_did": "operator.coinpay",
  "skills": ["research", "source-verification"],
  "permissions_requested": ["web:read"],
  "pricing": {"model": "per_task"}
}
`

func runJSON(t *testing.T, n *fetchtest.Network, args ...string) (int, map[string]any, string) {
	t.Helper()
	code, stdout, stderr := clitest.Run(t, run, n, args...)
	var out map[string]any
	if len(stdout) > 0 {
		require.NoError(t, json.Unmarshal(stdout, &out), string(stdout))
	}
	return code, out, stderr
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(good, []byte(example), 0o644))
	require.NoError(t, os.WriteFile(bad, bytes.Replace([]byte(example), []byte(`"0.1"`), []byte(`"1.2"`), 1), 0o644))

	code, out, _ := runJSON(t, nil, "validate", good)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, true, out["valid"])
	assert.Equal(t, "incomplete pricing (missing amount, currency): per_task", out["details"].(map[string]any)["pricing"])
	assert.Equal(t, "openagent", out["kind"])

	code, out, _ = runJSON(t, nil, "validate", bad)
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, false, out["valid"])
	problems := out["problems"].([]any)
	require.Len(t, problems, 1)
	assert.Equal(t, "version-unsupported", problems[0].(map[string]any)["rule"])
	assert.Equal(t, "/version", problems[0].(map[string]any)["pointer"])

	code, _, stderr := runJSON(t, nil, "validate", filepath.Join(dir, "missing.json"))
	assert.Equal(t, exitUsage, code)
	assert.NotEmpty(t, stderr)

	for _, args := range [][]string{{}, {"validate"}, {"nonsense"}, {"fetch"}, {"discover"}, {"fetch", "--bogus", "x"}} {
		code, _, _ := runJSON(t, nil, args...)
		assert.Equal(t, exitUsage, code, "%v", args)
	}
}

func newSite(t *testing.T) *fetchtest.Network {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	p, err := openagent.Parse([]byte(example))
	require.NoError(t, err)
	h, err := openagent.Handler(p, nil)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle(openagent.WellKnownPath, h)
	mux.HandleFunc("/about", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", openagent.LinkHeader("/agents/research.json"))
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><head>" + openagent.LinkElement("https://agents.example/research.json") + "</head></html>"))
	})
	n.Site("agent.example", mux)
	n.Site("empty.example", http.NotFoundHandler())
	return n
}

func TestFetch(t *testing.T) {
	n := newSite(t)
	u := "https://agent.example" + openagent.WellKnownPath

	code, out, _ := runJSON(t, n, "fetch", u)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, true, out["ok"])
	assert.Equal(t, u, out["final_url"])
	assert.NotEmpty(t, out["etag"])
	assert.NotEmpty(t, out["retrieved"])
	assert.Equal(t, "research.coinpay", out["profile"].(map[string]any)["did"])

	code, out, _ = runJSON(t, n, "fetch", u, "--expect-did", "research.coinpay")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, true, out["ok"])

	code, out, _ = runJSON(t, n, "fetch", "--expect-did", "other.coinpay", u)
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, "did-mismatch", out["error_kind"])
	assert.Equal(t, "other.coinpay", out["expected_did"])
	assert.Equal(t, "research.coinpay", out["got_did"])

	code, out, _ = runJSON(t, n, "fetch", "https://agent.example/about")
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, "content-type", out["error_kind"])

	code, out, _ = runJSON(t, n, "fetch", "https://empty.example/x.json")
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, "status", out["error_kind"])

	n.Host("gone.example")
	code, out, _ = runJSON(t, n, "fetch", "https://gone.example/x.json")
	assert.Equal(t, exitNetwork, code)
	assert.Equal(t, "network", out["error_kind"])
}

func TestDiscover(t *testing.T) {
	n := newSite(t)
	code, out, _ := runJSON(t, n, "discover", "https://agent.example/about")
	assert.Equal(t, exitOK, code)
	var urls []string
	for _, d := range out["descriptors"].([]any) {
		urls = append(urls, d.(map[string]any)["url"].(string))
	}
	assert.Equal(t, []string{
		"https://agent.example/.well-known/openagent.json",
		"https://agents.example/research.json",
		"https://agent.example/agents/research.json",
	}, urls)

	code, _, _ = runJSON(t, n, "discover", "https://empty.example/")
	assert.Equal(t, exitInvalid, code)

	n.Host("gone.example")
	code, _, _ = runJSON(t, n, "discover", "https://gone.example/")
	assert.Equal(t, exitNetwork, code)

	code, _, _ = runJSON(t, n, "discover", "http://agent.example/")
	assert.Equal(t, exitNetwork, code)
}
