package readiness

import (
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
// development mode allows http and loopback. It says so in the report's
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
