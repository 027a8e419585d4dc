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

// overrides serves the given paths itself and the rest from the well-made
// site.
type overrides struct {
	ts    *testSite
	paths map[string]http.HandlerFunc
}

func (o overrides) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h, ok := o.paths[r.URL.Path]; ok {
		o.ts.count(r)
		h(w, r)
		return
	}
	o.ts.ServeHTTP(w, r)
}

func text(mt, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mt)
		fmt.Fprint(w, body)
	}
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
}

// scanWith scans https://shop.example/ served by h.
func scanWith(t *testing.T, h http.Handler, opts *Options) *Report {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", h)
	o := n.Options()
	o.Timeout = 5 * time.Second
	var op Options
	if opts != nil {
		op = *opts
	}
	op.Client = safefetch.New(o)
	r, err := Scan(context.Background(), "https://shop.example/", &op)
	require.NoError(t, err)
	return r
}

func TestScanEdges(t *testing.T) {
	const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://shop.example/sitemaps/pages.xml</loc></sitemap></sitemapindex>`
	tests := []struct {
		name  string
		paths map[string]http.HandlerFunc
		opts  *Options
		want  map[string]Verdict
		check func(t *testing.T, r *Report)
	}{
		{
			name: "robots.txt names a sitemap index",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":         text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemaps/index.xml\n"),
				"/sitemaps/index.xml": text("application/xml", index),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "sitemap").Receipt.Received, "<sitemapindex> with 1 locs")
				// An index lists sitemaps, not pages: the routes come from the page's links.
				assert.Equal(t, []string{"https://shop.example/", "https://shop.example/about", "https://shop.example/products"}, r.Scope.Routes)
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
		{
			name:  "robots.txt fails on the server",
			paths: map[string]http.HandlerFunc{"/robots.txt": status(http.StatusServiceUnavailable)},
			want:  map[string]Verdict{"ai_crawler_access": VerdictUnverified, "sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "ai_crawler_access").Receipt.Received, "503")
			},
		},
		{
			// RFC 9309 §2.3.1.2: at least five redirects are followed for
			// robots.txt, though the client follows three for other files.
			name: "robots.txt behind five redirects",
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
			// §2.3.1.2 lets a crawler take the file as unavailable past
			// five redirects; the scan could not read it, and says so.
			name: "robots.txt behind six redirects",
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
			// RFC 9309 §2.3.1.3: a 4xx, 401 and 403 included, is
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
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := &testSite{host: "shop.example"}
			n := scanWith(t, overrides{ts: ts, paths: tc.paths}, tc.opts)
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
