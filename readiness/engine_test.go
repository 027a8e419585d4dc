package readiness

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanNilClientIsDefault: a nil Options.Client is safefetch.Default(),
// whose connection reuse safefetch tests; a Client given is used as is.
func TestScanNilClientIsDefault(t *testing.T) {
	assert.Same(t, safefetch.Default(), (&Options{}).client())
	own := safefetch.New(nil)
	assert.Same(t, own, (&Options{Client: own}).client())
}

// TestScansReuseTheClientsConnections scans twice with one Client: the
// second scan dials no new connection to the site.
func TestScansReuseTheClientsConnections(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	ts := &testSite{host: "shop.example"}
	n.Site(ts.host, ts)
	n.Site("www."+ts.host, ts)

	opts := &Options{Client: n.Client(), Budget: safefetch.BudgetLimits{Concurrency: 1}, Now: func() time.Time { return at }}
	first, err := Scan(context.Background(), ts.base()+"/", opts)
	require.NoError(t, err)
	require.Len(t, first.Checks, len(catalogueTable))
	assert.Empty(t, first.Scope.Budget.Exhausted)
	addr := n.Addr(ts.host)
	dials, requests := n.Dials(addr), n.Requests(ts.host)
	require.Positive(t, requests)
	assert.Equal(t, 1, dials, "one request at a time: one connection for the whole scan")

	second, err := Scan(context.Background(), ts.base()+"/", opts)
	require.NoError(t, err)
	assert.Equal(t, 2*requests, n.Requests(ts.host), "the second scan made the same requests")
	assert.Equal(t, dials, n.Dials(addr), "the second scan reused the first one's connection")
	assert.Equal(t, first.Score, second.Score)
}

// TestResultCarriesFix checks the plumbing from a check's outcome to
// CheckResult.Fix: kept on the verdicts that leave something to do, dropped
// on pass and optional.
func TestResultCarriesFix(t *testing.T) {
	page, err := url.Parse("https://shop.example/")
	require.NoError(t, err)
	s := &scan{page: page}
	for _, tc := range []struct {
		id      string
		verdict Verdict
		want    string
	}{
		{"sitemap", VerdictFail, "publish a sitemap"},
		{"sitemap", VerdictPartial, "publish a sitemap"},
		{"sitemap", VerdictUnverified, "publish a sitemap"},
		{"content_freshness", VerdictNotApplicable, ""}, // nothing to do: the check left the denominator
		{"sitemap", VerdictPass, ""},
		{"api_catalog", VerdictOptional, ""},
	} {
		t.Run(string(tc.verdict), func(t *testing.T) {
			r := s.result(tc.id, outcome{verdict: tc.verdict, fix: "publish a sitemap"})
			assert.Equal(t, tc.want, r.Fix)
		})
	}
}

func TestFixInEveryForm(t *testing.T) {
	r := fixedReport()
	c := checkByID(r, "vary_accept")
	require.NotEmpty(t, c.Fix)
	js, err := r.JSON()
	require.NoError(t, err)
	assert.Equal(t, 1+len(r.Fixes), bytes.Count(js, []byte(`"fix":`)), "only the check with a fix has the field, and every entry of the fix-first list")
	i := slices.IndexFunc(r.Fixes, func(f FixItem) bool { return f.Check == "vary_accept" })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, c.Fix, r.Fixes[i].Fix)
	assert.Contains(t, string(r.Markdown()), "Fix: Send \\`Vary: Accept\\` with every HTML response of a page that also has a \\<Markdown\\> form.")
	assert.Contains(t, string(r.HTML()), `<p class="fix" data-fix="vary_accept"><strong>Fix:</strong> Send `+"`Vary: Accept`"+` with every HTML response of a page that also has a &lt;Markdown&gt; form.</p>`)
}

// A page over the per-response cap is said to be over the cap. The report
// names it at its top in every form (the scope's over_cap). Each check it
// left unverified says to serve a smaller page or raise the cap. It does not
// say "within the budget", nor repeat the check's usual fix. The scoring
// method, Section 06: could not check is never a pass, and the report says why.
func TestPageOverTheCapSaysSo(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!DOCTYPE html><html lang=en><title>x</title><h1>Big</h1><p>"+strings.Repeat("big ", 16<<10))
	})
	r := scanWith(t, mux, &Options{MaxBodyBytes: 16 << 10})
	assert.Equal(t, []string{"https://shop.example/"}, r.Scope.OverCap)
	assert.Equal(t, int64(16<<10), r.Scope.Budget.MaxBodyBytes)
	c := checkByID(r, "initial_html_content")
	require.Equal(t, VerdictUnverified, c.Verdict)
	assert.True(t, strings.HasPrefix(c.Fix, "An answer this check needs is larger than the scan's cap of 16 KiB per response"), c.Fix)
	assert.NotContains(t, c.Fix, "within the budget")
	assert.NotContains(t, c.Fix, fixOf("initial_html_content"), "the usual fix is not repeated")
	assert.Contains(t, string(r.Markdown()), "- **Over the cap: https://shop.example/ answered more than the scan's cap of 16 KiB per response, so ")
	assert.Contains(t, string(r.HTML()), `id="over-cap"`)
	js, err := r.JSON()
	require.NoError(t, err)
	assert.Contains(t, string(js), `"over_cap": [`)
}

// The fetches on the critical path take their slots first: robots.txt,
// /sitemap.xml and the page, on which the choice of further routes waits.
// With one slot, they are the first three requests the site receives.
func TestCriticalFetchesFirst(t *testing.T) {
	for range 5 {
		ts := &testSite{host: "shop.example"}
		var mu sync.Mutex
		var order []string
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			order = append(order, r.URL.Path)
			mu.Unlock()
			ts.ServeHTTP(w, r)
		})
		scanWith(t, h, &Options{NoObservations: true, Budget: safefetch.BudgetLimits{Concurrency: 1}})
		mu.Lock()
		require.GreaterOrEqual(t, len(order), 3)
		first := slices.Clone(order[:3])
		mu.Unlock()
		slices.Sort(first)
		assert.Equal(t, []string{"/", "/robots.txt", "/sitemap.xml"}, first, "the first requests: %q", order)
	}
}
