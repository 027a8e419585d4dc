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

// realisticShop puts a shop on the fake internet: HTML docs with links,
// llms.txt, an OpenAPI 3 JSON with 200 operations, an A2A card, an MCP
// link, a cross-origin docs link, a www redirect, a redirect to another
// origin, an over-large document, a slow one and one that never answers in
// time.
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

func TestDiscoverExistingProfiles(t *testing.T) {
	site := readFile(t, "testdata/valid/shop.json")
	action := readFile(t, "testdata/action/tickets.json")
	tests := []struct {
		name        string
		host        string
		pages       map[string]page
		profileURL  string
		wantOutcome Outcome
		wantProfile string
		wantJSON    []byte
	}{
		{"root site profile kept", "shop.example", map[string]page{
			"/agentic.json":    {ctype: "application/json", body: string(site)},
			"/v2/agentic.json": {ctype: "application/json", body: "{}"},
			"/":                {ctype: htmlType, body: `<a href="/v2/agentic.json">v2</a>`},
		}, "", OutcomeExistingSite, "https://shop.example/agentic.json", nil},
		{"action profile preserved", "support.example", map[string]page{
			"/agentic.json": {ctype: "application/json", body: string(action)},
		}, "", OutcomeExistingAction, "https://support.example/agentic.json", action},
		{"nested profile when the root is missing", "shop.example", map[string]page{
			"/":                {ctype: htmlType, body: `<a href="/v2/agentic.json">profile</a>`},
			"/v2/agentic.json": {ctype: "application/json", body: string(site)},
		}, "", OutcomeExistingSite, "https://shop.example/v2/agentic.json", nil},
		{"explicit nested profile", "shop.example", map[string]page{
			"/agentic.json":    {ctype: "application/json", body: `{"agentic":"1.1.0"}`},
			"/v2/agentic.json": {ctype: "application/json", body: string(site)},
		}, "https://shop.example/v2/agentic.json", OutcomeExistingSite, "https://shop.example/v2/agentic.json", nil},
		{"invalid root replaced", "shop.example", map[string]page{
			"/agentic.json":     {ctype: "application/json", body: `{"agentic":"1.1.0"}`},
			"/":                 {ctype: htmlType, body: `<title>Shop</title><a href="/old/agentic.json">old profile</a>`},
			"/old/agentic.json": {ctype: "application/json", body: `{"agentic":"1.1.0","type":"site"}`},
		}, "", OutcomeGenerated, "https://shop.example/agentic.json", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := fetchtest.New()
			t.Cleanup(n.Close)
			n.Site(tc.host, siteHandler(tc.pages))
			d, err := Discover(t.Context(), "https://"+tc.host+"/", &DiscoverOptions{Client: n.Client(), ProfileURL: tc.profileURL})
			require.NoError(t, err)
			assert.Equal(t, tc.wantOutcome, d.Outcome)
			assert.Equal(t, tc.wantProfile, d.ProfileURL)
			if tc.wantJSON != nil {
				assert.Equal(t, tc.wantJSON, d.JSON, "byte for byte")
				assert.True(t, strings.HasPrefix(string(d.Text), "# Agentic action index\n"))
			}
			if d.Site != nil {
				assert.Equal(t, TextStatusMatched, CheckText(d.Site, d.ProfileURL, d.Text))
			}
			assert.NotEmpty(t, d.Report.Notes)
			for _, b := range d.Report.Bindings {
				if b.Status == BindingStatusNotOpenAPI3 {
					assert.NotContains(t, b.Document, "agentic.json", "a profile is never read as an OpenAPI document")
				}
			}
			dir := filepath.Join(t.TempDir(), "out")
			require.NoError(t, d.WriteDir(dir))
		})
	}
}

func TestDiscoverBudgetHolds(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	var links strings.Builder
	pages := map[string]page{}
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&links, `<a href="/docs/p%d">docs %d</a>`, i, i)
		pages[fmt.Sprintf("/docs/p%d", i)] = page{ctype: htmlType, body: fmt.Sprintf(`<title>P%d</title><a href="/docs/q%d">more docs</a>`, i, i)}
	}
	pages["/"] = page{ctype: htmlType, body: "<title>Many</title>" + links.String()}
	n.Site("many.example", siteHandler(pages))
	d, err := Discover(t.Context(), "https://many.example", &DiscoverOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.Equal(t, scanMaxAttempts, n.Requests("many.example"))
	assert.Equal(t, scanMaxAttempts, d.Report.Budget.Attempts)
	assert.LessOrEqual(t, d.Report.Budget.PeakConcurrency, scanMaxConcurrent)
	assert.Len(t, d.Site.Resources, maxResources)
	assert.NotEmpty(t, d.Report.Truncations)
	require.NoError(t, d.Site.Validate())
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

func TestDiscoverLinkHeader(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("api.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Link", `</spec/v1.json>; rel="service-desc"; type="application/openapi+json", <https://status.other.example/docs>; rel="service-doc"`)
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("# API\n"))
		case "/spec/v1.json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"openapi":"3.0.3","paths":{"/ping":{"get":{}}}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	d, err := Discover(t.Context(), "https://api.example", &DiscoverOptions{Client: n.Client()})
	require.NoError(t, err)
	r := findResource(d.Site, KindOpenAPI, "https://api.example/spec/v1.json")
	require.NotNil(t, r)
	assert.Equal(t, AvailabilityRetrieved, r.Availability)
	assert.NotNil(t, findResource(d.Site, KindDocumentation, "https://status.other.example/docs"))
	require.Len(t, d.Site.APIs, 1)
	assert.Equal(t, []Operation{{Method: "GET", Path: "/ping"}}, d.Site.APIs[0].Operations)
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

func TestWriteDirEscapesUntrustedText(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/golden/hostile-strings.json"))
	require.NoError(t, err)
	js, err := s.JSON()
	require.NoError(t, err)
	txt, err := s.Text("")
	require.NoError(t, err)
	d := &Discovery{Origin: s.Origin, ProfileURL: defaultProfileURL(s.Origin), Outcome: OutcomeExistingSite, Site: s, JSON: js, Text: txt,
		Report: &DiscoveryReport{Origin: s.Origin}}
	files, err := d.Files()
	require.NoError(t, err)
	for _, name := range []string{fileReadme, fileListing} {
		md := string(files[name])
		assert.NotContains(t, md, "<script>", name)
		assert.NotContains(t, md, "\u202e", name)
		assert.NotContains(t, md, "\nResource:", name)
		assert.NotContains(t, md, "\n## forged", name)
	}
	dir := filepath.Join(t.TempDir(), "out")
	require.NoError(t, d.WriteDir(dir))
	back, err := ParseSite(readFile(t, filepath.Join(dir, fileJSON)))
	require.NoError(t, err)
	assert.Equal(t, TextStatusMatched, CheckText(back, "", readFile(t, filepath.Join(dir, fileText))))
	_, err = (&Discovery{}).Files()
	assert.Error(t, err)
}

func TestDiscoverRedirectLimit(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("hops.example", siteHandler(map[string]page{
		"/":        {ctype: htmlType, body: `<title>Hops</title><a href="/docs/a1">three hops docs</a><a href="/docs/b1">four hops docs</a>`},
		"/docs/a1": {loc: "/docs/a2"},
		"/docs/a2": {loc: "https://www.hops.example/docs/a3"},
		"/docs/a4": {ctype: htmlType, body: `<title>A</title>`},
		"/docs/b1": {loc: "/docs/b2"},
		"/docs/b2": {loc: "/docs/b3"},
		"/docs/b3": {loc: "/docs/b4"},
		"/docs/b4": {loc: "/docs/b5"},
		"/docs/b5": {ctype: htmlType, body: `<title>B</title>`},
	}))
	n.Site("www.hops.example", siteHandler(map[string]page{"/docs/a3": {loc: "https://hops.example/docs/a4"}}))
	d, err := Discover(t.Context(), "https://hops.example", &DiscoverOptions{Client: n.Client()})
	require.NoError(t, err)
	a := findResource(d.Site, KindDocumentation, "https://hops.example/docs/a4")
	require.NotNil(t, a, "three hops, through the www counterpart, are followed")
	assert.Equal(t, AvailabilityRetrieved, a.Availability)
	b := findResource(d.Site, KindDocumentation, "https://hops.example/docs/b1")
	require.NotNil(t, b)
	assert.Equal(t, AvailabilityLinked, b.Availability, "a fourth hop is refused")
	assert.Nil(t, findResource(d.Site, KindDocumentation, "https://hops.example/docs/b5"))
	var reason string
	for _, f := range d.Report.Failures {
		if f.URL == "https://hops.example/docs/b1" {
			reason = f.Reason
		}
	}
	assert.Contains(t, reason, "redirect")
}

func TestDiscoverFitsSizeLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.1.0","paths":{`)
	for i := 0; i < 160; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/%s/%d":{"get":{"operationId":"%s%d","summary":"%s"}}`, strings.Repeat("segment", 40), i, strings.Repeat("op", 70), i, strings.Repeat("s", 240))
	}
	b.WriteString(`}}`)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("big.example", siteHandler(map[string]page{
		"/":             {ctype: htmlType, body: "<title>Big</title>"},
		"/openapi.json": {ctype: "application/json", body: b.String()},
	}))
	d, err := Discover(t.Context(), "https://big.example", &DiscoverOptions{Client: n.Client(), TextVersion: "1.2"})
	require.NoError(t, err)
	require.Len(t, d.Site.APIs, 1)
	ops := len(d.Site.APIs[0].Operations)
	assert.Less(t, ops, 160)
	assert.Greater(t, ops, 50)
	assert.LessOrEqual(t, len(d.Site.compact()), maxProfileBytes)
	assert.LessOrEqual(t, len(d.Text), maxTextBytes)
	assert.Contains(t, string(d.Text), "Agentic-Text: 1.2\n")
	found := false
	for _, tr := range d.Report.Truncations {
		if tr.Pointer == "/apis/0/operations" && strings.Contains(tr.Reason, "64 KiB") {
			found = true
			assert.Equal(t, 160-ops, tr.Dropped)
		}
	}
	assert.True(t, found, "truncations: %+v", d.Report.Truncations)
}

func TestDiscoverRegenerate(t *testing.T) {
	site := readFile(t, "testdata/valid/shop.json")
	action := readFile(t, "testdata/action/tickets.json")
	openapi := `{"openapi":"3.1.0","info":{"title":"Shop API","version":"1"},"paths":{"/orders":{"get":{"operationId":"listOrders"},"post":{"operationId":"createOrder"}}}}`
	shopPages := func(profile []byte) map[string]page {
		return map[string]page{
			"/agentic.json": {ctype: "application/json", body: string(profile)},
			"/": {ctype: htmlType, body: `<html><head><title>Shop today</title><meta name="description" content="Shop sells new things.">
				<link rel="service-desc" type="application/openapi+json" href="/openapi.json"></head>
				<body><a href="/docs/guide.md">Guide docs</a> <a href="/v2/agentic.json">v2 profile</a></body></html>`},
			"/openapi.json":    {ctype: "application/json", body: openapi},
			"/docs/guide.md":   {ctype: "text/markdown", body: "# Guide\n"},
			"/v2/agentic.json": {ctype: "application/json", body: string(site)},
		}
	}
	tests := []struct {
		name         string
		host         string
		pages        map[string]page
		profileURL   string
		wantExisting Outcome // Outcome of the reported existing profile; "" for none
	}{
		{"valid root site profile", "shop.example", shopPages(site), "", OutcomeExistingSite},
		{"named site profile", "shop.example", shopPages(site), "https://shop.example/v2/agentic.json", OutcomeExistingSite},
		{"no profile: nested ones are not read", "shop.example", func() map[string]page {
			p := shopPages(site)
			delete(p, "/agentic.json")
			return p
		}(), "", ""},
		{"action profile", "support.example", map[string]page{
			"/agentic.json": {ctype: "application/json", body: string(action)},
			"/":             {ctype: htmlType, body: `<title>Support</title>`},
		}, "", OutcomeExistingAction},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := fetchtest.New()
			t.Cleanup(n.Close)
			n.Site(tc.host, siteHandler(tc.pages))
			origin := "https://" + tc.host
			wantProfile := origin + "/agentic.json"
			if tc.profileURL != "" {
				wantProfile = tc.profileURL
			}

			// Without Regenerate the published profile is kept (the control).
			if tc.wantExisting != "" {
				kept, err := Discover(t.Context(), origin+"/", &DiscoverOptions{Client: n.Client(), ProfileURL: tc.profileURL})
				require.NoError(t, err)
				assert.Equal(t, tc.wantExisting, kept.Outcome)
				assert.Nil(t, kept.Report.Existing)
			}

			n.ResetRequests()
			d, err := Discover(t.Context(), origin+"/", &DiscoverOptions{Client: n.Client(), ProfileURL: tc.profileURL, Regenerate: true})
			require.NoError(t, err)
			assert.Equal(t, OutcomeGenerated, d.Outcome)
			assert.Equal(t, OutcomeGenerated, d.Report.Outcome)
			assert.Equal(t, wantProfile, d.ProfileURL, "the new profile replaces the old one at its URL")
			require.NotNil(t, d.Site)
			assert.Nil(t, d.Action)
			require.NoError(t, d.Site.Validate())
			assert.Equal(t, origin, d.Site.Origin)
			assert.Equal(t, TextStatusMatched, CheckText(d.Site, d.ProfileURL, d.Text))
			for _, r := range d.Site.Resources {
				assert.NotEqual(t, KindAgentic, r.Kind, "a profile is not a resource of the regenerated one: %s", r.URL)
			}
			for _, rq := range d.Report.Requests {
				if tc.profileURL == "" {
					assert.NotEqual(t, origin+"/v2/agentic.json", rq.URL, "nested profiles are not read")
				}
			}

			if tc.wantExisting == "" {
				assert.Nil(t, d.Report.Existing)
				return
			}
			require.NotNil(t, d.Report.Existing)
			ex := d.Report.Existing
			assert.Equal(t, wantProfile, ex.URL)
			assert.Equal(t, tc.wantExisting, ex.Outcome)
			assert.Equal(t, tc.wantExisting == OutcomeExistingSite, ex.Site != nil)
			assert.Equal(t, tc.wantExisting == OutcomeExistingAction, ex.Action != nil)
			assert.NotEqual(t, tc.pages[strings.TrimPrefix(wantProfile, origin)].body, string(d.JSON))
			notes := strings.Join(d.Report.Notes, "\n")
			assert.Contains(t, notes, "Regenerate was asked")

			var rep map[string]any
			b, err := json.Marshal(d.Report)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &rep))
			assert.Equal(t, map[string]any{"url": wantProfile, "outcome": string(tc.wantExisting)}, rep["existing"])

			if tc.host == "shop.example" {
				// Built from what the site publishes now, not from the old profile.
				assert.Equal(t, "Shop today", d.Site.Name)
				assert.Equal(t, "Shop sells new things.", d.Site.Description)
				require.Len(t, d.Site.APIs, 1)
				assert.Len(t, d.Site.APIs[0].Operations, 2)
				assert.NotEqual(t, ex.Site.Name, d.Site.Name)
			}
		})
	}
}
