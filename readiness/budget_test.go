package readiness

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// richSite is a site that publishes everything the scan reads. It serves
// both cards, the MCP server cards, the A2A card and an API catalog. It
// serves the four spec documents and a sitemap index with three children.
// Each page has a same-origin script. Its MCP endpoint needs a token for the
// tool list, so sign-in discovery runs: the 401's resource metadata, then
// the authorization server's.
func richSite(t testing.TB) http.Handler {
	const host = "service.example"
	ts := &testSite{host: host}
	base := "https://" + host
	docs := map[string]http.HandlerFunc{
		"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\nSitemap: "+base+"/sitemaps/index.xml\n"),
		"/sitemaps/index.xml": text("application/xml", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
			`<sitemap><loc>`+base+`/sitemaps/pages.xml</loc></sitemap><sitemap><loc>`+base+`/sitemaps/products.xml.gz</loc></sitemap><sitemap><loc>`+base+`/sitemaps/blog.xml</loc></sitemap></sitemapindex>`),
		"/sitemaps/pages.xml":                       text("application/xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+base+`/about</loc></url><url><loc>`+base+`/products</loc></url></urlset>`),
		"/sitemaps/products.xml.gz":                 text("application/gzip", string(gzipped(t, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+base+`/products</loc></url></urlset>`)))),
		"/sitemaps/blog.xml":                        text("application/xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+base+`/about</loc></url></urlset>`),
		"/agentic.json":                             text("application/json", readTestdata(t, "conventions/agentic-site-example.json")),
		"/agentic.txt":                              text("text/plain; charset=utf-8", readTestdata(t, "conventions/agentic-site-example.txt")),
		"/.well-known/knowledge-linkset":            text("application/linkset+json", readTestdata(t, "conventions/knowledge-linkset-appendix-a-full.json")),
		"/.well-known/openagent.json":               text("application/json", readTestdata(t, "conventions/openagent-example.json")),
		"/.well-known/agent-signup.json":            text("application/json", readTestdata(t, "conventions/agent-signup-example.json")),
		"/.well-known/mcp.json":                     text("application/json", `{"name": "service", "remotes": [{"type": "streamable-http", "url": "`+base+`/mcp"}]}`),
		"/.well-known/mcp/server-card.json":         text("application/json", `{"serverInfo": {"name": "service", "version": "1"}, "transport": {"type": "streamable-http", "endpoint": "/mcp"}}`),
		"/.well-known/agent-card.json":              text("application/json", `{"name": "Service agent", "supportedInterfaces": [{"url": "`+base+`/a2a", "protocolBinding": "JSONRPC"}], "skills": []}`),
		"/.well-known/api-catalog":                  text("application/linkset+json", `{"linkset": [{"anchor": "`+base+`/.well-known/api-catalog", "item": [{"href": "`+base+`/openapi.json"}]}]}`),
		"/openapi.json":                             text("application/json", `{"openapi": "3.1.0", "info": {"title": "Service", "version": "1"}, "paths": {}}`),
		"/app.js":                                   text("text/javascript", `document.modelContext.registerTool({name: "search", description: "Search the catalogue."});`),
		"/.well-known/oauth-protected-resource/mcp": text("application/json", `{"resource": "`+base+`/mcp", "authorization_servers": ["`+base+`"], "scopes_supported": ["orders"]}`),
		"/.well-known/oauth-authorization-server":   text("application/json", `{"issuer": "`+base+`", "authorization_endpoint": "`+base+`/authorize", "token_endpoint": "`+base+`/token", "registration_endpoint": "`+base+`/register", "response_types_supported": ["code"], "code_challenge_methods_supported": ["S256"]}`),
	}
	mcpSrv := behindBearer(newMCPServer(5, true, nil, 0), base+"/.well-known/oauth-protected-resource/mcp", true)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			mcpSrv.ServeHTTP(w, r)
			return
		}
		if h, ok := docs[r.URL.Path]; ok {
			h(w, r)
			return
		}
		if r.URL.Path == "/" || r.URL.Path == "/about" || r.URL.Path == "/products" {
			// The site's own page, with its script.
			rec := &bodyRewriter{ResponseWriter: w}
			ts.ServeHTTP(rec, r)
			return
		}
		ts.ServeHTTP(w, r)
	})
}

// bodyRewriter adds a same-origin script to an HTML page.
type bodyRewriter struct {
	http.ResponseWriter
}

func (b *bodyRewriter) Write(p []byte) (int, error) {
	s := strings.Replace(string(p), "</body>", `<script src="/app.js"></script></body>`, 1)
	if _, err := b.ResponseWriter.Write([]byte(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// scanRich scans the rich site; behindRedirect serves it at
// www.service.example, with every request to the apex redirected there (a
// common set-up, which doubles the attempts: every hop is one).
func scanRich(t testing.TB, limits safefetch.BudgetLimits, behindRedirect, noObservations bool) *Report {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	if behindRedirect {
		n.Site("www.service.example", richSite(t))
		n.Site("service.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://www.service.example"+r.URL.RequestURI(), http.StatusMovedPermanently)
		}))
	} else {
		n.Site("service.example", richSite(t))
	}
	o := n.Options()
	o.Timeout = 10 * time.Second
	r, err := Scan(context.Background(), "https://service.example/", &Options{Client: safefetch.New(o), Budget: limits, NoObservations: noObservations})
	require.NoError(t, err)
	return r
}

// TestBudgetRichSite measures what a scan of a site that publishes every
// document the scan reads spends, with a budget too large to bind. The site
// is served directly and behind an apex-to-www redirect. The checks alone
// (no observations) leave at least a fifth of [DefaultAttempts] unused, the
// margin for slower or larger sites that the default relies on. The
// observations, which run after the checks, complete under the default
// budget too, and no check's verdict depends on them. The log line gives
// the attempts and bytes spent; this test, not a doc comment, holds them.
func TestBudgetRichSite(t *testing.T) {
	obsCost := map[bool]int{} // the observations' own attempts, by redirect
	for _, redirect := range []bool{false, true} {
		t.Run(fmt.Sprintf("behind a redirect: %v", redirect), func(t *testing.T) {
			free := scanRich(t, safefetch.BudgetLimits{Attempts: 1000, Bytes: 1 << 30}, redirect, false)
			require.Empty(t, free.Scope.Budget.Exhausted)
			checksOnly := scanRich(t, safefetch.BudgetLimits{Attempts: 1000, Bytes: 1 << 30}, redirect, true)
			t.Logf("rich site (redirect %v): %d attempts, %d bytes, peak concurrency %d; the checks alone %d attempts, %d bytes", redirect,
				free.Scope.Budget.Attempts, free.Scope.Budget.Bytes, free.Scope.Budget.PeakConcurrency, checksOnly.Scope.Budget.Attempts, checksOnly.Scope.Budget.Bytes)
			assert.Len(t, free.Scope.Routes, 3, "the page and two further routes")
			ids := []string{"sitemap", "capability_manifest", "page_actions_declared", "mcp_server_card", "agentic_site_profile"}
			if !redirect {
				// An MCP POST is not redirected; behind a redirect there is
				// no MCP session, so no sign-in discovery either.
				ids = append(ids, "mcp_signin_discovery")
				assert.Equal(t, []string{"mcp_tested_execution"}, free.Unverified)
			}
			for _, id := range ids {
				c := checkByID(free, id)
				assert.Contains(t, []Verdict{VerdictPass, VerdictOptional}, c.Verdict, "%s: %s %q", id, c.Receipt.Received, c.Receipt.Notes)
			}
			assert.Contains(t, checkByID(free, "sitemap").Receipt.Received, "3 of 3 child sitemaps read")
			assert.LessOrEqual(t, checksOnly.Scope.Budget.Attempts*5, DefaultAttempts*4, "the default leaves at least a fifth of its attempts to the checks unused")
			assert.LessOrEqual(t, free.Scope.Budget.Bytes*4, int64(DefaultTotalBytes), "the default leaves most of its bytes unused")
			assert.Equal(t, verdictsOf(checksOnly).key(), verdictsOf(free).key(), "the observations change no verdict")

			obsCost[redirect] = free.Scope.Budget.Attempts - checksOnly.Scope.Budget.Attempts

			def := scanRich(t, safefetch.BudgetLimits{}, redirect, false)
			assert.Empty(t, def.Scope.Budget.Exhausted, "the default budget completes the rich site, observations included")
			assert.Equal(t, free.Unverified, def.Unverified, "nothing is unverified for want of budget")
			assert.Equal(t, free.Scope.Budget.Attempts, def.Scope.Budget.Attempts, "the same requests under the default budget")
			require.Len(t, def.Observations, len(observers), "every observation is reported")
			for i, o := range def.Observations {
				assert.Equal(t, free.Observations[i].Status, o.Status, o.ID)
			}
		})
	}
	// The observations read the site at the origin the page redirected
	// to: a redirect costs them nothing.
	assert.Equal(t, obsCost[false], obsCost[true], "the observations' attempts, directly and behind the redirect")
}

func unverifiedBut(r *Report, ids ...string) []string {
	var out []string
	for _, id := range r.Unverified {
		skip := false
		for _, x := range ids {
			skip = skip || x == id
		}
		if !skip {
			out = append(out, id)
		}
	}
	return out
}
