package readiness

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scanEdge is a site that differs from the well-made one in a few paths,
// and the verdicts it must get.
type scanEdge struct {
	name  string
	paths map[string]http.HandlerFunc
	opts  *Options
	// redirects is the client's Options.MaxRedirects; 0 the default.
	redirects int
	want      map[string]Verdict
	check     func(t *testing.T, r *Report)
}

// TestScanEdges scans the well-made site with a few paths changed, one case
// at a time. Each check keeps its cases beside its code; every case also
// holds the engine to one fetch of each resource per scan.
func TestScanEdges(t *testing.T) {
	tests := slices.Concat(
		sitemapEdges(t),
		aiCrawlerAccessEdges(t),
		llmsTxtEdges(t),
		capabilityManifestEdges(t),
		structuredBusinessDataEdges(t),
		agenticSiteProfileEdges(t),
		mcpServerCardEdges(t),
		apiCatalogEdges(t),
		engineEdges(t),
	)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := &testSite{host: "shop.example"}
			n := scanWith(t, overrides{ts: ts, paths: tc.paths}, tc.opts, func(o *safefetch.Options) { o.MaxRedirects = tc.redirects })
			for id, want := range tc.want {
				c := checkByID(n, id)
				require.NotEmpty(t, c.ID, id)
				assert.Equal(t, want, c.Verdict, "%s: received %q, notes %q", id, c.Receipt.Received, c.Receipt.Notes)
			}
			assert.Empty(t, ts.repeats(), "every resource is fetched once per scan")
			if tc.check != nil {
				tc.check(t, n)
			}
		})
	}
}

// sitemapEdges are the edge cases of the sitemap check.
func sitemapEdges(t testing.TB) []scanEdge {
	const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://shop.example/sitemaps/pages.xml</loc></sitemap></sitemapindex>`
	return []scanEdge{
		{
			name: "robots.txt names a sitemap index",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":         text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemaps/index.xml\n"),
				"/sitemaps/index.xml": text("application/xml", index),
				"/sitemaps/pages.xml": text("application/xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/products</loc></url><url><loc>https://shop.example/about</loc></url></urlset>`),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "a <sitemapindex> with 1 loc (1 of 1 child sitemaps read, 2 page URLs), all on shop.example", checkByID(r, "sitemap").Receipt.Received)
				// The routes come from the index's children.
				assert.Equal(t, []string{"https://shop.example/", "https://shop.example/products", "https://shop.example/about"}, r.Scope.Routes)
			},
		},
		{
			name: "a sitemap index whose child is missing",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":         text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemaps/index.xml\n"),
				"/sitemaps/index.xml": text("application/xml", index),
			},
			want: map[string]Verdict{"sitemap": VerdictPartial},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "sitemap").Receipt.Received, "child sitemaps that are not usable: https://shop.example/sitemaps/pages.xml: answered 404")
			},
		},
		{
			name: "a sitemap index with more children than are read",
			paths: func() map[string]http.HandlerFunc {
				var b strings.Builder
				b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
				m := map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/index.xml\n")}
				for i := range maxSitemapChildren + 2 {
					fmt.Fprintf(&b, "<sitemap><loc>https://shop.example/s%d.xml</loc></sitemap>", i)
					m[fmt.Sprintf("/s%d.xml", i)] = text("application/xml", fmt.Sprintf(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/p%d</loc></url></urlset>`, i))
				}
				b.WriteString(`</sitemapindex>`)
				m["/index.xml"] = text("application/xml", b.String())
				return m
			}(),
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "sitemap")
				assert.Contains(t, c.Receipt.Received, fmt.Sprintf("(%d of %d child sitemaps read, %d page URLs)", maxSitemapChildren, maxSitemapChildren+2, maxSitemapChildren))
				assert.Contains(t, c.Receipt.Notes, fmt.Sprintf("read %d of the index's %d child sitemaps", maxSitemapChildren, maxSitemapChildren+2))
				assert.Len(t, c.Receipt.Requests, 2+maxSitemapChildren, "robots.txt, the index and the children read")
			},
		},
		{
			name: "a gzip-compressed sitemap",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":     text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemap.xml.gz\n"),
				"/sitemap.xml.gz": text("application/gzip", string(gzipped(t, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/about</loc></url></urlset>`)))),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "a gzip-compressed <urlset> with 1 loc, all on shop.example", checkByID(r, "sitemap").Receipt.Received)
				assert.Contains(t, r.Scope.Routes, "https://shop.example/about")
			},
		},
		{
			name: "a gzip bomb is refused at the body cap",
			paths: map[string]http.HandlerFunc{
				"/sitemap.xml": text("application/gzip", string(gzipped(t, append([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`), make([]byte, 64<<20)...)))),
			},
			want: map[string]Verdict{"sitemap": VerdictFail},
			check: func(t *testing.T, r *Report) {
				got := checkByID(r, "sitemap").Receipt.Received
				assert.Contains(t, got, "https://shop.example/sitemap.xml: gzip sitemap refused: uncompressed size over the cap:")
				assert.Contains(t, got, "inflate past 1048576 bytes")
			},
		},
		{
			name:  "a document that is not a sitemap says so once",
			paths: map[string]http.HandlerFunc{"/sitemap.xml": text("application/xml", `<rss version="2.0"><channel/></rss>`)},
			want:  map[string]Verdict{"sitemap": VerdictFail},
			check: func(t *testing.T, r *Report) {
				got := checkByID(r, "sitemap").Receipt.Received
				assert.Equal(t, "https://shop.example/sitemap.xml: not a sitemap: root element <rss>, not <urlset> or <sitemapindex>", got)
				assert.Equal(t, 1, strings.Count(got, "not a sitemap"))
			},
		},
		{
			name: "robots.txt names a sitemap on another site",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://elsewhere.example/sitemap.xml\n"),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "sitemap")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "another site, not read")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "the default location")
			},
		},
		{
			name: "the sitemap robots.txt names is missing",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/gone.xml\n"),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "sitemap")
				assert.Len(t, c.Receipt.Requests, 3, "robots.txt, the named sitemap and /sitemap.xml")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "answered 404")
			},
		},
	}
}

// aiCrawlerAccessEdges are the edge cases of the ai_crawler_access check.
func aiCrawlerAccessEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			// Lighthouse's SEO robots-txt audit fails on directives it does
			// not know; the check says so and keeps its verdict.
			name:  "robots.txt with directives Lighthouse flags",
			paths: map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "User-agent: *\r\nAllow: /\r\nContent-Signal: search=yes\r\nAgentmap: /catalog.json\r\nLicense: https://shop.example/license.xml\r\nlicense: x # again\r\n# Agentmap: in a comment\r\n")},
			want:  map[string]Verdict{"ai_crawler_access": VerdictPass},
			check: func(t *testing.T, r *Report) {
				notes := checkByID(r, "ai_crawler_access").Receipt.Notes
				require.Len(t, notes, 2, "%q", notes)
				assert.Contains(t, notes[0], `robots.txt line 4: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "agentmap" as unknown; to keep that audit clean, advertise the AI catalog with a Link: </.well-known/ai-catalog.json>; rel="ai-catalog" response header`)
				assert.Contains(t, notes[1], `robots.txt line 5: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "license" as unknown (2 lines in all); to keep that audit clean, state the licence with a Link: <URL>; rel="license" response header`)
			},
		},
		{
			name:  "robots.txt fails on the server",
			paths: map[string]http.HandlerFunc{"/robots.txt": status(http.StatusServiceUnavailable)},
			want:  map[string]Verdict{"ai_crawler_access": VerdictUnverified, "sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "ai_crawler_access").Receipt.Received, "503")
			},
		},
		{
			// RFC 9309 Section 2.3.1.2: at least five redirects are followed for
			// robots.txt by a client that allows five.
			name:      "robots.txt behind five redirects",
			redirects: 5,
			paths: map[string]http.HandlerFunc{
				"/robots.txt": http.RedirectHandler("/r1", http.StatusFound).ServeHTTP,
				"/r1":         http.RedirectHandler("/r2", http.StatusMovedPermanently).ServeHTTP,
				"/r2":         http.RedirectHandler("/r3", http.StatusFound).ServeHTTP,
				"/r3":         http.RedirectHandler("/r4", http.StatusFound).ServeHTTP,
				"/r4":         http.RedirectHandler("/r5", http.StatusFound).ServeHTTP,
				"/r5":         text("text/plain", "User-agent: OAI-SearchBot\nDisallow: /\n"),
			},
			want: map[string]Verdict{"ai_crawler_access": VerdictPartial},
		},
		{
			// A request never raises the client's limit: the default
			// client follows three, and the scan says it could not read.
			name: "robots.txt behind four redirects with the default client",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": http.RedirectHandler("/q1", http.StatusFound).ServeHTTP,
				"/q1":         http.RedirectHandler("/q2", http.StatusFound).ServeHTTP,
				"/q2":         http.RedirectHandler("/q3", http.StatusFound).ServeHTTP,
				"/q3":         http.RedirectHandler("/q4", http.StatusFound).ServeHTTP,
				"/q4":         text("text/plain", "User-agent: *\nDisallow: /\n"),
			},
			want: map[string]Verdict{"ai_crawler_access": VerdictUnverified},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "ai_crawler_access").Receipt.Received, "redirect")
			},
		},
		{
			// Section 2.3.1.2 lets a crawler take the file as unavailable past
			// five redirects; the scan could not read it, and says so.
			name:      "robots.txt behind six redirects",
			redirects: 5,
			paths: map[string]http.HandlerFunc{
				"/robots.txt": http.RedirectHandler("/s1", http.StatusFound).ServeHTTP,
				"/s1":         http.RedirectHandler("/s2", http.StatusFound).ServeHTTP,
				"/s2":         http.RedirectHandler("/s3", http.StatusFound).ServeHTTP,
				"/s3":         http.RedirectHandler("/s4", http.StatusFound).ServeHTTP,
				"/s4":         http.RedirectHandler("/s5", http.StatusFound).ServeHTTP,
				"/s5":         http.RedirectHandler("/s6", http.StatusFound).ServeHTTP,
				"/s6":         text("text/plain", "User-agent: *\nDisallow: /\n"),
			},
			want: map[string]Verdict{"ai_crawler_access": VerdictUnverified},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "ai_crawler_access").Receipt.Received, "redirect")
			},
		},
		{
			// RFC 9309 Section 2.3.1.3: a 4xx, 401 and 403 included, is
			// "unavailable": crawlers may access any resource.
			name:  "robots.txt refused with 403",
			paths: map[string]http.HandlerFunc{"/robots.txt": status(http.StatusForbidden)},
			want:  map[string]Verdict{"ai_crawler_access": VerdictPass},
		},
		{
			name:  "robots.txt is missing",
			paths: map[string]http.HandlerFunc{"/robots.txt": status(http.StatusNotFound)},
			want:  map[string]Verdict{"ai_crawler_access": VerdictPass, "sitemap": VerdictPass},
		},
	}
}

// llmsTxtEdges are the edge cases of the llms_txt check.
func llmsTxtEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "llms.txt with an H1 only",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "# Example Shop\n")},
			want:  map[string]Verdict{"llms_txt": VerdictPartial},
		},
		{
			name:  "llms.txt served as a binary type",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("application/octet-stream", "# Example Shop\n\n- [Products](https://shop.example/products): what we sell, and more words\n")},
			want:  map[string]Verdict{"llms_txt": VerdictPartial},
		},
		{
			name:  "llms.txt without an H1",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "Example Shop\n\n- [Products](https://shop.example/products): what we sell, and more words\n")},
			want:  map[string]Verdict{"llms_txt": VerdictFail},
		},
		{
			name:  "llms.txt refused",
			paths: map[string]http.HandlerFunc{"/llms.txt": status(http.StatusForbidden)},
			want:  map[string]Verdict{"llms_txt": VerdictUnverified},
		},
		{
			name:  "llms.txt whose body is Markdown but labelled text/html",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/html; charset=utf-8", "# Shop\n\n> Outdoor gear, shipped within the EU.\n\n- [Products](https://shop.example/products): what we sell\n")},
			want:  map[string]Verdict{"llms_txt": VerdictPartial},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "llms_txt")
				assert.Contains(t, c.Receipt.Received, `labelled "text/html"`)
				assert.Contains(t, c.Fix, "text/html")
				assert.Contains(t, c.Fix, "text/plain")
			},
		},
		{
			name:  "an HTML page at /llms.txt",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "<!DOCTYPE html><html><head><title>Shop</title></head><body><h1>Shop</h1><a href=\"/products\">Products</a></body></html>")},
			want:  map[string]Verdict{"llms_txt": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "HTML served at /llms.txt", checkByID(r, "llms_txt").Receipt.Received)
			},
		},
	}
}

// capabilityManifestEdges are the edge cases of the capability_manifest check.
func capabilityManifestEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "only the root agents.json",
			paths: map[string]http.HandlerFunc{"/.well-known/agents.json": status(http.StatusNotFound)},
			want:  map[string]Verdict{"capability_manifest": VerdictPass, "manifest_twins": VerdictPass},
		},
		{
			name: "no card but an A2A agent card",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json":     status(http.StatusNotFound),
				"/agents.json":                 status(http.StatusNotFound),
				"/.well-known/agent-card.json": text("application/json", `{"name":"Shop agent","skills":[{"id":"search"}]}`),
			},
			want: map[string]Verdict{"capability_manifest": VerdictPartial, "manifest_twins": VerdictNotApplicable},
		},
		{
			name: "an A2A agent card served as agents.json",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"name": "Shop agent", "url": "https://shop.example/a2a", "skills": [{"id": "search"}]}`),
				"/agents.json":             status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "capability_manifest").Receipt.Notes, "https://shop.example/.well-known/agents.json is an A2A agent card, not a capability card")
			},
		},
		{
			name: "a card with members the reader skips",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"name": "Shop", "contact": {"email": "a@shop.example"}, "interfaces": [{"id": "x"}]}`),
				"/agents.json":             status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "capability_manifest").Receipt.Notes, "https://shop.example/.well-known/agents.json: not read: /interfaces/0: an interface with neither a url nor a type")
			},
		},
		{
			name: "a card that is not JSON",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"name": "Shop",}`),
				"/agents.json":             status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, strings.Join(checkByID(r, "capability_manifest").Receipt.Notes, "\n"), "not valid JSON")
			},
		},
		{
			name: "twin agents.json that are the same non-card",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{}`),
				"/agents.json":             text("application/json", `{}`),
			},
			want: map[string]Verdict{"capability_manifest": VerdictFail, "manifest_twins": VerdictNotApplicable},
		},
		{
			name: "a flows agents.json whose source is a served OpenAPI document",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"agentsJson": "0.1.0", "info": {"title": "Shop flows", "version": "0.1.0", "description": "Order."},
"sources": [{"id": "shop", "path": "shop.openapi.yaml"}], "overrides": [],
"flows": [{"id": "order_flow", "title": "Order", "description": "Order a product.", "actions": [{"id": "a", "sourceId": "shop", "operationId": "order"}], "links": [], "fields": {"parameters": []}}]}`),
				"/agents.json": status(http.StatusNotFound),
				// A relative source is relative to the card's address.
				"/.well-known/shop.openapi.yaml": text("application/yaml", "openapi: 3.1.0\ninfo:\n  title: Shop\n  version: '1'\npaths: {}\n"),
				"/openapi.json":                  status(http.StatusNotFound),
				"/mcp":                           status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictPass, "backend_interface_declared": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "backend_interface_declared").Receipt.Received, "OpenAPI 3 document https://shop.example/.well-known/shop.openapi.yaml")
			},
		},
	}
}

// structuredBusinessDataEdges are the edge cases of the structured_business_data check.
func structuredBusinessDataEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name: "JSON-LD none of whose blocks parses",
			paths: map[string]http.HandlerFunc{"/": text("text/html", `<!DOCTYPE html><html lang="en"><head><title>Shop</title>
<script type="application/ld+json">{"@type": "Organization",}</script><script type="application/ld+json">[{</script></head><body><h1>Shop</h1></body></html>`)},
			// Only the given page: the further routes of the test site carry valid JSON-LD.
			opts: &Options{MaxPages: -1},
			want: map[string]Verdict{"structured_business_data": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "JSON-LD present, but none of its 2 blocks parses", checkByID(r, "structured_business_data").Receipt.Received)
			},
		},
	}
}

// agenticSiteProfileEdges are the edge cases of the agentic_site_profile check.
func agenticSiteProfileEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "a foreign-format agentic.json",
			paths: map[string]http.HandlerFunc{"/agentic.json": text("application/json", `{"version": "1", "agents": [{"name": "a"}], "site": "https://shop.example/"}`)},
			want:  map[string]Verdict{"agentic_site_profile": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				notes := strings.Join(checkByID(r, "agentic_site_profile").Receipt.Notes, "\n")
				assert.Contains(t, notes, "not an Agentic Site Profile")
				assert.NotContains(t, notes, "schema-")
			},
		},
	}
}

// mcpServerCardEdges are the edge cases of the mcp_server_card check.
func mcpServerCardEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name: "an MCP server card naming its endpoint in transport.endpoint",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json":          status(http.StatusNotFound),
				"/agents.json":                      status(http.StatusNotFound),
				"/mcp":                              status(http.StatusNotFound),
				"/.well-known/mcp/server-card.json": text("application/json", `{"serverInfo": {"name": "shop", "version": "1.0.0"}, "transport": {"type": "streamable-http", "endpoint": "/api/mcp"}, "capabilities": {"tools": {}}}`),
				"/api/mcp":                          newMCPServer(2, true, nil, 0).ServeHTTP,
			},
			want: map[string]Verdict{"mcp_discovery": VerdictPass, "backend_interface_declared": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "backend_interface_declared").Receipt.Received, "MCP endpoint https://shop.example/api/mcp")
			},
		},
		{
			name: "an MCP server card at SEP-2127's location whose remotes name the endpoint",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json":     status(http.StatusNotFound),
				"/agents.json":                 status(http.StatusNotFound),
				"/mcp":                         status(http.StatusNotFound),
				"/.well-known/mcp/server-card": text("application/mcp-server-card+json", `{"name": "example.shop/mcp", "version": "1.0.0", "description": "Shop tools.", "remotes": [{"type": "sse", "url": "https://shop.example/sse"}, {"type": "streamable-http", "url": "https://shop.example/v2/mcp"}]}`),
				"/v2/mcp":                      newMCPServer(2, true, nil, 0).ServeHTTP,
			},
			want: map[string]Verdict{"mcp_server_card": VerdictOptional, "mcp_discovery": VerdictPass, "backend_interface_declared": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "mcp_server_card")
				assert.Equal(t, "found: an MCP server card naming https://shop.example/v2/mcp (2 remotes in remotes[]) at https://shop.example/.well-known/mcp/server-card", c.Receipt.Received)
				assert.Empty(t, c.Receipt.Notes)
				assert.Contains(t, checkByID(r, "backend_interface_declared").Receipt.Received, "MCP endpoint https://shop.example/v2/mcp")
			},
		},
	}
}

// apiCatalogEdges are the edge cases of the api_catalog check.
func apiCatalogEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "an API catalog served as application/json",
			paths: map[string]http.HandlerFunc{"/.well-known/api-catalog": text("application/json", `{"linkset": [{"anchor": "https://shop.example/api", "service-desc": [{"href": "https://shop.example/openapi.json", "type": "application/json"}]}]}`)},
			want:  map[string]Verdict{"api_catalog": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "api_catalog")
				assert.Contains(t, c.Receipt.Received, "with 1 validation problem:")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), `served as "application/json", not application/linkset+json (RFC 9727 §4.2)`)
			},
		},
		{
			name: "an API catalog of the right type and shape",
			paths: map[string]http.HandlerFunc{"/.well-known/api-catalog": text(`application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`,
				`{"linkset": [{"anchor": "https://shop.example/.well-known/api-catalog", "item": [{"href": "https://shop.example/api/v1"}]}, {"anchor": "https://shop.example/api/v1", "service-desc": [{"href": "https://shop.example/openapi.json", "type": "application/vnd.oai.openapi+json"}]}]}`)},
			want: map[string]Verdict{"api_catalog": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "api_catalog")
				assert.Equal(t, "found: an RFC 9727 API catalog of 2 link contexts, 2 API links at https://shop.example/.well-known/api-catalog", c.Receipt.Received)
				assert.Empty(t, c.Receipt.Notes)
			},
		},
		{
			name: "an API catalog whose contexts link to nothing an API catalog names",
			paths: map[string]http.HandlerFunc{"/.well-known/api-catalog": text("application/linkset+json",
				`{"linkset": [{"anchor": "https://shop.example/.well-known/api-catalog", "author": [{"href": "https://shop.example/about"}]}]}`)},
			want: map[string]Verdict{"api_catalog": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "api_catalog")
				assert.Contains(t, c.Receipt.Received, "validation problem")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "no API: no item, service-desc, service-doc or service-meta link")
			},
		},
	}
}

// engineEdges are the edge cases that bind every check of a page at once.
func engineEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "a page over the response cap",
			paths: map[string]http.HandlerFunc{"/": text("text/html", "<!DOCTYPE html><html lang=en><title>x</title><p>"+strings.Repeat("big ", 8<<10))},
			opts:  &Options{MaxBodyBytes: 16 << 10},
			want: map[string]Verdict{"initial_html_content": VerdictUnverified, "language_and_canonical": VerdictUnverified, "page_metadata": VerdictUnverified,
				"structured_business_data": VerdictUnverified, "discovery_links": VerdictUnverified},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "initial_html_content").Receipt.Received, "response too large")
			},
		},
	}
}

// TestScanRefusalReceiptsSayWhy: a request the fetch policy refused names
// safefetch's reason in the check's receipt, not only "refused by the
// fetch policy".
func TestScanRefusalReceiptsSayWhy(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Host("intranet.example", "10.0.0.7")
	n.Site("refer.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/llms.txt":
			http.Redirect(w, r, "https://intranet.example/llms.txt", http.StatusFound)
		case "/robots.txt":
			http.Redirect(w, r, "http://refer.example/robots.txt", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<!doctype html><html lang=en><title>x</title><h1>x</h1></html>"))
		}
	}))
	rep, err := Scan(t.Context(), "https://refer.example/", &Options{Client: n.Client()})
	require.NoError(t, err)
	got := map[string]string{}
	for _, c := range rep.Checks {
		got[c.ID] = c.Receipt.Received
	}
	assert.Contains(t, got["llms_txt"], "address 10.0.0.7")
	assert.Contains(t, got["llms_txt"], "Private-Use")
	assert.Contains(t, got["ai_crawler_access"], `scheme "http"`)
}

// TestDevelopmentModeSaidInEveryForm: a scan made with a client in
// development mode (http and loopback allowed) says so in the report's
// JSON, Markdown and HTML; a scan without it says nothing of the kind.
func TestDevelopmentModeSaidInEveryForm(t *testing.T) {
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><html lang=en><title>x</title><h1>x</h1></html>"))
	}))
	t.Cleanup(local.Close)
	dev := safefetch.New(&safefetch.Options{AllowLoopback: true})
	t.Cleanup(dev.CloseIdleConnections)
	rep, err := Scan(t.Context(), local.URL+"/", &Options{Client: dev})
	require.NoError(t, err)
	assert.True(t, rep.Scope.Development)
	js, err := rep.JSON()
	require.NoError(t, err)
	assert.Contains(t, string(js), `"development": true`)
	assert.Contains(t, string(rep.Markdown()), "Development mode: this scan allowed http and loopback addresses")
	assert.Contains(t, string(rep.HTML()), "Development mode: this scan allowed http and loopback addresses")

	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("public.example", http.NotFoundHandler())
	rep, err = Scan(t.Context(), "https://public.example/", &Options{Client: n.Client()})
	require.NoError(t, err)
	assert.False(t, rep.Scope.Development)
	js, err = rep.JSON()
	require.NoError(t, err)
	for _, form := range [][]byte{js, rep.Markdown(), rep.HTML()} {
		assert.NotContains(t, strings.ToLower(string(form)), "development")
	}
}
