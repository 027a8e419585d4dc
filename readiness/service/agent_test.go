package service_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpserver"
	"github.com/agentweb/agentweb/readiness/service"
)

// mcpTools is the SDK's MCP server, as examples/scanserver mounts it.
func mcpTools(t testing.TB, o *service.Options) http.Handler {
	srv, err := mcpserver.New(&mcpserver.Options{Client: o.Client, DisableLocalhostProtection: true})
	require.NoError(t, err)
	return srv.Handler()
}

// TestAgentReady: scanned by readiness.Scan on its public origin, the
// service is ready: llms.txt, the card, the OpenAPI document and the API
// catalog, the MCP endpoint, the form as a declared page tool.
func TestAgentReady(t *testing.T) {
	e := newEnv(t, func(o *service.Options) { o.MCP = mcpTools(t, o) })
	e.net.Site("scan.example", e.svc)
	rep, err := readiness.Scan(context.Background(), "https://scan.example/", &readiness.Options{Client: e.net.Client()})
	require.NoError(t, err)
	verdicts := map[string]readiness.Verdict{}
	for _, c := range rep.Checks {
		verdicts[c.ID] = c.Verdict
	}
	for _, r := range rep.Requirements {
		assert.True(t, r.Met, "%s: %s", r.ID, r.Why)
	}
	require.True(t, rep.Ready, "score %.1f, fixes %+v", rep.Score, rep.Fixes)
	assert.GreaterOrEqual(t, rep.Score, 90.0)
	assert.Equal(t, readiness.VerdictPass, verdicts["page_actions_declared"], "the form is a declared page tool")
	assert.Equal(t, readiness.VerdictPass, verdicts["mcp_discovery"])
	assert.Equal(t, readiness.VerdictOptional, verdicts["api_catalog"])
	for _, c := range rep.Checks {
		if c.ID == "api_catalog" {
			assert.Contains(t, c.Receipt.Received, "found")
		}
	}
}

// TestOpenAPI: the OpenAPI document is valid JSON of version 3.1, names
// the service's origin, describes every route of the API, and every
// reference in it resolves.
func TestOpenAPI(t *testing.T) {
	e := newEnv(t, nil)
	var doc map[string]any
	resp := e.do(t, "GET", "/openapi.json", nil, nil, &doc)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "3.1.0", doc["openapi"])
	assert.Equal(t, "https://scan.example", doc["servers"].([]any)[0].(map[string]any)["url"])
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/api/scans", "/api/scans/{id}", "/api/scans/{id}/events", "/api/sites/{host}", "/badge/{file}"} {
		assert.Contains(t, paths, p)
	}
	// Every $ref points into the document.
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "$ref" {
					ref := x.(string)
					require.True(t, strings.HasPrefix(ref, "#/"), ref)
					var cur any = doc
					for _, part := range strings.Split(ref[2:], "/") {
						m, ok := cur.(map[string]any)
						require.True(t, ok, ref)
						cur, ok = m[part]
						require.True(t, ok, "unresolved %s", ref)
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	// Every operation has an id and answers.
	for p, item := range paths {
		for m, op := range item.(map[string]any) {
			o := op.(map[string]any)
			assert.NotEmpty(t, o["operationId"], "%s %s", m, p)
			assert.NotEmpty(t, o["responses"], "%s %s", m, p)
		}
	}

	var catalog struct {
		Linkset []map[string]json.RawMessage `json:"linkset"`
	}
	resp = e.do(t, "GET", "/.well-known/api-catalog", nil, nil, &catalog)
	assert.Contains(t, resp.Header.Get("Content-Type"), "application/linkset+json")
	require.NotEmpty(t, catalog.Linkset)
	assert.Contains(t, string(catalog.Linkset[0]["service-desc"]), "https://scan.example/openapi.json")
}

func mcpCall(t *testing.T, e *env, caller, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", e.srv.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("X-Forwarded-For", caller)
	resp, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

const mcpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestMCPLimits: /mcp is behind the caller limit, and a tool call that
// names a site behind that site's target limit.
func TestMCPLimits(t *testing.T) {
	e := newEnv(t, func(o *service.Options) {
		o.MCP = mcpTools(t, o)
		o.MCPLimit = service.Limit{Count: 3, Window: time.Minute}
		o.TargetLimit = service.Limit{Count: 1, Window: time.Hour}
		o.ClientIPHeader = "X-Forwarded-For"
	}, "shop.example")
	for range 3 {
		assert.Equal(t, 200, mcpCall(t, e, "192.0.2.1", mcpInit).StatusCode)
	}
	resp := mcpCall(t, e, "192.0.2.1", mcpInit)
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	require.NoError(t, err)
	assert.Positive(t, ra)

	// The target limit counts tool calls that name the site, whoever calls.
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"scan_site","arguments":{"url":"https://www.shop.example/"}}}`
	first := mcpCall(t, e, "192.0.2.2", call)
	assert.NotEqual(t, http.StatusTooManyRequests, first.StatusCode)
	second := mcpCall(t, e, "192.0.2.3", `[`+call+`]`)
	assert.Equal(t, http.StatusTooManyRequests, second.StatusCode)
	assert.NotEmpty(t, second.Header.Get("Retry-After"))
	// The same count as the API's: a scan of the site is refused too.
	resp, _ = e.post(t, "https://shop.example/", map[string]string{"X-Forwarded-For": "192.0.2.4"})
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
}

// TestMCPTargetsBound: a message naming more sites than the service counts
// is refused whole, so that no site past the bound goes uncounted.
func TestMCPTargetsBound(t *testing.T) {
	hosts := []string{"a.example", "b.example", "c.example", "d.example", "e.example", "f.example", "g.example", "h.example", "i.example"}
	e := newEnv(t, func(o *service.Options) {
		o.MCP = mcpTools(t, o)
		o.TargetLimit = service.Limit{Count: 1, Window: time.Hour}
		o.ClientIPHeader = "X-Forwarded-For"
	}, hosts...)
	calls := make([]string, len(hosts))
	for i, h := range hosts {
		calls[i] = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"validate","arguments":{"url":"https://` + h + `/"}}}`
	}
	resp := mcpCall(t, e, "192.0.2.1", "["+strings.Join(calls, ",")+"]")
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	// Nothing was counted: the last site, past the bound, may still be scanned.
	resp, _ = e.post(t, "https://i.example/", map[string]string{"X-Forwarded-For": "192.0.2.2"})
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	// Eight sites are within the bound, and each is counted.
	resp = mcpCall(t, e, "192.0.2.3", "["+strings.Join(calls[:8], ",")+"]")
	assert.NotEqual(t, http.StatusUnprocessableEntity, resp.StatusCode)
	resp, _ = e.post(t, "https://h.example/", map[string]string{"X-Forwarded-For": "192.0.2.4"})
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
}
