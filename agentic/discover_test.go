package agentic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// shopOpenAPI returns an OpenAPI 3.1 document with 200 valid operations
// (100 paths x GET and POST) and two whose paths break the index rules.
func shopOpenAPI() []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.1.0","info":{"title":"Shop API","version":"1"},"paths":{`)
	for i := 0; i < 100; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		get := fmt.Sprintf(`{"operationId":"getItem%d","summary":"  Get item %d  "}`, i, i)
		post := fmt.Sprintf(`{"summary":"%s"}`, strings.Repeat("p", 250))
		if i%10 == 0 {
			post = `{"operationId":"` + strings.Repeat("x", 161) + `"}`
		}
		fmt.Fprintf(&b, `"/items/%d":{"get":%s,"post":%s,"parameters":[]}`, i, get, post)
	}
	b.WriteString(`,"items/bad":{"get":{}},"/search?q":{"get":{}}}}`)
	return []byte(b.String())
}

type page struct {
	status int
	ctype  string
	body   string
	loc    string
	hang   time.Duration
}

func siteHandler(pages map[string]page) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p.hang > 0 {
			select {
			case <-r.Context().Done():
			case <-time.After(p.hang):
			}
		}
		if p.loc != "" {
			http.Redirect(w, r, p.loc, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", p.ctype)
		w.Header().Set("ETag", `"v1"`)
		if p.status != 0 {
			w.WriteHeader(p.status)
		}
		_, _ = w.Write([]byte(p.body))
	})
}

const htmlType = "text/html; charset=utf-8"

// realisticShop puts a shop on the fake internet. It serves HTML docs with
// links, llms.txt, an OpenAPI 3 JSON with 200 operations and an A2A card.
// It links an MCP server and cross-origin docs. It redirects to its www
// counterpart and to another origin. One document is over-large, one slow,
// and one never answers in time.
func realisticShop(t *testing.T) (*fetchtest.Network, *safefetch.Client) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	home := `<!doctype html><html lang="en"><head><title>Shop Example — home</title>
	<meta name="description" content="Shop sells   useful things.">
	<meta property="og:site_name" content="Shop">
	<link rel="service-desc" type="application/openapi+json" href="/openapi.json">
	</head><body>
	<a href="/docs">Documentation</a>
	<a href="/guides/start">Getting started guide</a>
	<a href="https://docs.partner.example/shop">API reference (partner)</a>
	<a href="https://mcp.shop.example/mcp">Our MCP server</a>
	<a href="/legacy/docs">Legacy docs</a>
	<a href="/docs/moved">Moved documentation</a>
	<a href="/docs/huge.md">Big guide</a>
	<a href="/docs/hang">Hanging docs</a>
	<a href="/docs/search?q=x">Search the docs</a>
	<a href="/pricing">Pricing</a>
	<a href="/docs/gone">Removed docs</a>
	</body></html>`
	pages := map[string]page{
		"/":             {ctype: htmlType, body: home},
		"/llms.txt":     {ctype: "text/plain; charset=utf-8", body: "# Shop\n\n> Shop sells useful things.\n\n- [API docs](/docs/api.md): endpoints\n- [OpenAPI](/openapi.json)\n"},
		"/openapi.json": {ctype: "application/json", body: string(shopOpenAPI())},
		"/docs": {ctype: htmlType, body: `<html><head><title>Docs</title></head><body>
			<a href="/docs/api.md">API guide</a> <a href="/docs/auth">Authentication docs</a></body></html>`},
		"/docs/api.md":                 {ctype: "text/markdown", body: "# API guide\n\nSee [errors](/docs/errors).\n"},
		"/docs/auth":                   {ctype: htmlType, body: `<html><head><title>Authentication</title></head><body><a href="/docs/errors">Error docs</a></body></html>`},
		"/docs/errors":                 {ctype: htmlType, body: `<html><head><title>Errors</title></head></html>`},
		"/guides/start":                {ctype: htmlType, body: `<html><head><title>Start here</title></head></html>`},
		"/.well-known/agent-card.json": {ctype: "application/json", body: `{"name":"Shop agent","skills":[{"id":"buy"}],"url":"https://shop.example/a2a"}`},
		"/legacy/docs":                 {loc: "https://www.shop.example/legacy/docs"},
		"/docs/moved":                  {loc: "https://evil.example/docs"},
		"/docs/huge.md":                {ctype: "text/markdown", body: "# Huge\n" + strings.Repeat("x", 2<<20)},
		"/docs/hang":                   {ctype: htmlType, body: "<title>late</title>", hang: 8 * time.Second},
	}
	n.Site("shop.example", siteHandler(pages))
	n.Site("www.shop.example", siteHandler(map[string]page{
		"/legacy/docs": {ctype: htmlType, body: `<html><head><title>Legacy documentation</title></head></html>`},
	}))
	n.SetLatency("www.shop.example", 200*time.Millisecond) // slow, but within the timeout
	for _, h := range []string{"evil.example", "docs.partner.example", "mcp.shop.example"} {
		n.Site(h, siteHandler(map[string]page{"/": {ctype: htmlType, body: "<title>other</title>"}}))
	}
	opts := n.Options()
	opts.Timeout = 2 * time.Second
	return n, safefetch.New(opts)
}

func findResource(s *Site, kind Kind, u string) *Resource {
	for i := range s.Resources {
		if s.Resources[i].Kind == kind && s.Resources[i].URL == u {
			return &s.Resources[i]
		}
	}
	return nil
}

func TestDiscoverRealisticSite(t *testing.T) {
	n, client := realisticShop(t)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	d, err := Discover(t.Context(), "https://shop.example", &DiscoverOptions{Client: client, Now: func() time.Time { return now }})
	require.NoError(t, err)
	require.NotNil(t, d.Site)
	s := d.Site
	assert.Equal(t, OutcomeGenerated, d.Outcome)
	assert.Equal(t, "https://shop.example/agentic.json", d.ProfileURL)
	assert.Equal(t, "Shop", s.Name)
	assert.Equal(t, "Shop sells useful things.", s.Description)

	retrieved := map[string]Kind{
		"https://shop.example/":                            KindWebsite,
		"https://shop.example/llms.txt":                    KindLLMs,
		"https://shop.example/openapi.json":                KindOpenAPI,
		"https://shop.example/.well-known/agent-card.json": KindA2A,
		"https://shop.example/docs":                        KindDocumentation,
		"https://shop.example/docs/api.md":                 KindDocumentation,
		"https://shop.example/docs/auth":                   KindDocumentation,
		"https://shop.example/docs/errors":                 KindDocumentation,
		"https://shop.example/guides/start":                KindDocumentation,
		"https://www.shop.example/legacy/docs":             KindDocumentation,
	}
	linked := map[string]Kind{
		"https://docs.partner.example/shop": KindDocumentation,
		"https://mcp.shop.example/mcp":      KindMCP,
		"https://shop.example/docs/moved":   KindDocumentation,
		"https://shop.example/docs/huge.md": KindDocumentation,
		"https://shop.example/docs/hang":    KindDocumentation,
		"https://shop.example/docs/gone":    KindDocumentation,
	}
	for u, k := range retrieved {
		r := findResource(s, k, u)
		if assert.NotNil(t, r, "retrieved %s %s", k, u) {
			assert.Equal(t, AvailabilityRetrieved, r.Availability, u)
		}
	}
	for u, k := range linked {
		r := findResource(s, k, u)
		if assert.NotNil(t, r, "linked %s %s", k, u) {
			assert.Equal(t, AvailabilityLinked, r.Availability, u)
			assert.Equal(t, "https://shop.example/", r.Source, u)
		}
	}
	assert.Len(t, s.Resources, len(retrieved)+len(linked), "resources: %+v", s.Resources)
	assert.Equal(t, "Start here", findResource(s, KindDocumentation, "https://shop.example/guides/start").Title)
	assert.Equal(t, "Shop API", findResource(s, KindOpenAPI, "https://shop.example/openapi.json").Title)
	assert.Equal(t, "Shop agent", findResource(s, KindA2A, "https://shop.example/.well-known/agent-card.json").Title)
	assert.Equal(t, "https://shop.example/docs", findResource(s, KindDocumentation, "https://shop.example/docs/auth").Source)
	// Sorted by kind, then URL.
	for i := 1; i < len(s.Resources); i++ {
		a, b := s.Resources[i-1], s.Resources[i]
		assert.True(t, a.Kind < b.Kind || a.Kind == b.Kind && a.URL < b.URL, "order at %d", i)
	}

	// The OpenAPI index: the first 160 of 200 valid operations, verbatim ids,
	// none invented, summaries trimmed and cut.
	require.Len(t, s.APIs, 1)
	api := s.APIs[0]
	assert.Equal(t, "https://shop.example/openapi.json", api.Document)
	assert.Equal(t, "3.1.0", api.OpenAPI)
	require.Len(t, api.Operations, maxOperations)
	assert.Equal(t, Operation{Method: "GET", Path: "/items/0", OperationID: "getItem0", Summary: "Get item 0"}, api.Operations[0])
	assert.Equal(t, Operation{Method: "POST", Path: "/items/0"}, api.Operations[1], "an over-long operationId is left out, never invented")
	assert.Equal(t, strings.Repeat("p", maxSummaryLength), api.Operations[3].Summary)
	assert.Equal(t, "", api.Operations[3].OperationID)

	rep := d.Report
	assert.Equal(t, now, rep.ObservedAt)
	reasons := map[string]string{}
	for _, f := range rep.Failures {
		reasons[f.URL] = f.Reason
	}
	assert.Contains(t, reasons["https://shop.example/docs/moved"], "redirect refused")
	assert.Contains(t, reasons["https://shop.example/docs/huge.md"], "size limit")
	assert.Contains(t, reasons["https://shop.example/docs/hang"], "timed out")
	assert.NotContains(t, reasons, "https://shop.example/api/openapi.json", "a missing conventional path is not a failure")
	assert.Equal(t, "HTTP status 404", reasons["https://shop.example/docs/gone"], "a broken link is")
	var truncs []string
	for _, tr := range rep.Truncations {
		truncs = append(truncs, tr.Reason)
	}
	joined := strings.Join(truncs, "\n")
	assert.Contains(t, joined, "documents 200 operations; the index holds the first 160")
	assert.Contains(t, joined, "2 operations of https://shop.example/openapi.json were left out")
	assert.Contains(t, joined, "summaries were shortened to 240")
	assert.Contains(t, joined, "operationId values could not be copied verbatim")
	assert.Contains(t, rep.Bindings, BindingCheck{Document: "https://shop.example/openapi.json", Status: BindingStatusIndexed, Reason: "160 operations indexed"})
	var linkedReasons []string
	for _, l := range rep.Linked {
		linkedReasons = append(linkedReasons, l.URL+" "+l.Reason)
	}
	assert.Contains(t, linkedReasons, "https://docs.partner.example/shop another origin: recorded, not fetched")
	assert.Contains(t, linkedReasons, "https://shop.example/docs/search?q=x URL has a query, which a profile URL must not; left out")

	// Every request is in the report with its evidence.
	byURL := map[string]RequestRecord{}
	for _, r := range rep.Requests {
		byURL[r.URL] = r
	}
	assert.Equal(t, 200, byURL["https://shop.example/openapi.json"].StatusCode)
	assert.Equal(t, `"v1"`, byURL["https://shop.example/openapi.json"].ETag)
	assert.Equal(t, 404, byURL["https://shop.example/agentic.json"].StatusCode)
	assert.Equal(t, []string{"https://www.shop.example/legacy/docs"}, byURL["https://shop.example/legacy/docs"].Redirects)
	assert.NotEmpty(t, byURL["https://shop.example/docs/huge.md"].Error)

	// Budgets: never more than 22 attempts; nothing sent to other origins.
	assert.LessOrEqual(t, rep.Budget.Attempts, scanMaxAttempts)
	assert.LessOrEqual(t, rep.Budget.PeakConcurrency, scanMaxConcurrent)
	assert.LessOrEqual(t, n.Requests("shop.example")+n.Requests("www.shop.example"), scanMaxAttempts)
	assert.Equal(t, 1, n.Requests("www.shop.example"))
	for _, h := range []string{"evil.example", "docs.partner.example", "mcp.shop.example"} {
		assert.Zero(t, n.Requests(h), "requests to %s", h)
	}
	assert.Equal(t, len(rep.Requests), n.Requests("shop.example"))

	// Written out: a new directory whose files round-trip.
	dir := filepath.Join(t.TempDir(), "agentic-files")
	require.NoError(t, d.WriteDir(dir))
	js, err := os.ReadFile(filepath.Join(dir, fileJSON))
	require.NoError(t, err)
	back, err := ParseSite(js)
	require.NoError(t, err)
	assert.Equal(t, s, back)
	txt, err := os.ReadFile(filepath.Join(dir, fileText))
	require.NoError(t, err)
	assert.Equal(t, TextStatusMatched, CheckText(back, "", txt))
	var repBack DiscoveryReport
	require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(dir, fileReport)), &repBack))
	assert.Equal(t, len(rep.Requests), len(repBack.Requests))
	readme := string(readFile(t, filepath.Join(dir, fileReadme)))
	assert.Contains(t, readme, "https://shop.example/agentic.json")
	assert.Contains(t, readme, "## Specification and directory")
	assert.Contains(t, readme, "- [Shop agent](https://shop.example/.well-known/agent-card.json) — a2a; document retrieved.")
	listing := string(readFile(t, filepath.Join(dir, fileListing)))
	// The reference lists the first twelve documentation and connection
	// records in profile order, so the MCP link of this large site is left out.
	assert.Contains(t, listing, "- a2a: [Shop agent](https://shop.example/.well-known/agent-card.json) (document read).")
	assert.Contains(t, listing, "- documentation: [API reference \\(partner\\)](https://docs.partner.example/shop) (advertised; not connection-tested).")
	err = d.WriteDir(dir)
	assert.ErrorIs(t, err, ErrDirExists)
	assert.Equal(t, string(js), string(readFile(t, filepath.Join(dir, fileJSON))), "nothing overwritten")
}

func TestDiscoverRefusals(t *testing.T) {
	for _, o := range []string{"http://shop.example", "https://localhost", "https://shop.example/path", "https://u:p@shop.example", "https://10.0.0.1", "shop.example", "https://shop.example:8443"} {
		t.Run(o, func(t *testing.T) {
			_, err := Discover(t.Context(), o, nil)
			assert.ErrorIs(t, err, ErrOrigin)
		})
	}
	_, err := Discover(t.Context(), "https://shop.example", &DiscoverOptions{ProfileURL: "https://other.example/agentic.json"})
	assert.ErrorIs(t, err, ErrProfileURL)

	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("empty.example", http.NotFoundHandler())
	d, err := Discover(t.Context(), "https://empty.example", &DiscoverOptions{Client: n.Client()})
	assert.ErrorIs(t, err, ErrNothingRetrieved)
	require.NotNil(t, d)
	assert.Len(t, d.Report.Requests, 8)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	n.Site("shop.example", siteHandler(map[string]page{"/": {ctype: htmlType, body: "<title>x</title>"}}))
	_, err = Discover(ctx, "https://shop.example", &DiscoverOptions{Client: n.Client()})
	assert.Error(t, err)
}

func TestDiscoverDeadline(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("slow.example", siteHandler(map[string]page{"/": {ctype: htmlType, body: "<title>slow</title>"}}))
	n.SetLatency("slow.example", 2*time.Second)
	start := time.Now()
	d, err := Discover(t.Context(), "https://slow.example", &DiscoverOptions{Client: n.Client(), Deadline: 300 * time.Millisecond})
	assert.ErrorIs(t, err, ErrNothingRetrieved)
	assert.Less(t, time.Since(start), 2*time.Second, "the scan deadline bounds the wait")
	require.NotNil(t, d)
	assert.NotEmpty(t, d.Report.Failures)
}
