package readiness

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A client with a Budget of two attempts is used by a Scan, then a linkset
// Walk. It makes at most two requests in all, and its Budget records them:
// each entry point nests its own budget inside the client's. On the base
// commit the two made 22 requests while the client's budget recorded none.
func TestScanAndWalkKeepTheClientsBudget(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", richSite(t))
	budget := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 2})
	o := n.Options()
	o.Budget = budget
	client := safefetch.New(o)

	r, err := Scan(context.Background(), "https://shop.example/", &Options{Client: client})
	require.NoError(t, err)
	w, _ := linkset.Walk(context.Background(), "https://shop.example/.well-known/knowledge-linkset", &linkset.WalkOptions{Client: client})
	require.NotNil(t, w)
	require.NotEmpty(t, w.Nodes)
	assert.Contains(t, w.Nodes[0].Reason, "the client's own budget ran out", "the walk says whose budget stopped it")

	assert.LessOrEqual(t, n.Requests("shop.example"), 2, "requests that reached the site")
	u := budget.Usage()
	assert.Equal(t, 2, u.Attempts, "the client's budget records every attempt")
	assert.Equal(t, "attempts", u.Exhausted)
	assert.LessOrEqual(t, r.Scope.Budget.Attempts, 2, "the scan's own budget is charged only what the client's allowed")
}

// A client whose MaxBodyBytes is 10,000 makes Scan refuse a 500 KB page, as
// its Get does: the scan's own per-response cap (1 MiB) can only lower the
// client's. On the base commit the scan read and judged the page.
func TestScanKeepsTheClientsBodyCap(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	page := "<!doctype html><html lang=en><head><title>Big</title></head><body>" + strings.Repeat("<p>word word word</p>", 500_000/21) + "</body></html>"
	n.Site("big.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	o := n.Options()
	o.MaxBodyBytes = 10_000
	o.Timeout = 10 * time.Second
	client := safefetch.New(o)
	_, err := client.Get(context.Background(), "https://big.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrTooLarge)

	r, err := Scan(context.Background(), "https://big.example/", &Options{Client: client})
	require.NoError(t, err)
	var pageRecords int
	for _, c := range r.Checks {
		for _, rec := range c.Receipt.Requests {
			if rec.URL != "https://big.example/" {
				continue
			}
			pageRecords++
			if rec.Response != nil {
				assert.Zero(t, rec.Response.Bytes, "%s: the page was refused, not read", c.ID)
			}
			assert.Contains(t, rec.Error, "too large", c.ID)
		}
	}
	assert.Positive(t, pageRecords, "the checks that read the page record the refusal")
	assert.Equal(t, VerdictUnverified, checkByID(r, "initial_html_content").Verdict)
}

// The bytes inflated from a gzip sitemap count against the scan's byte
// budget as they are inflated, and against the per-response cap. A sitemap
// of 1 KB that inflates to 900 KB spends 900 KB of the scan. It is refused
// when the scan has less left. On the base commit only the compressed bytes
// were charged.
func TestGzipSitemapInflatedBytesCountAgainstTheScan(t *testing.T) {
	const inflated = 900_000
	xml := []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/about</loc></url>`)
	xml = append(xml, []byte(strings.Repeat(" ", inflated-len(xml)-len(`</urlset>`))+`</urlset>`)...)
	compressed := gzipped(t, xml)
	require.Less(t, len(compressed), 10_000)
	scan := func(t *testing.T, limits safefetch.BudgetLimits) *Report {
		n := fetchtest.New()
		t.Cleanup(n.Close)
		n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemap.xml.gz\n")(w, r)
			case "/sitemap.xml.gz":
				text("application/gzip", string(compressed))(w, r)
			case "/", "/about":
				text("text/html; charset=utf-8", "<!doctype html><html lang=en><head><title>Shop</title></head><body><p>Shop.</p></body></html>")(w, r)
			default:
				http.NotFound(w, r)
			}
		}))
		r, err := Scan(context.Background(), "https://shop.example/", &Options{Client: n.Client(), Budget: limits})
		require.NoError(t, err)
		return r
	}
	t.Run("charged", func(t *testing.T) {
		r := scan(t, safefetch.BudgetLimits{})
		assert.Equal(t, VerdictPass, checkByID(r, "sitemap").Verdict, checkByID(r, "sitemap").Receipt.Received)
		assert.GreaterOrEqual(t, r.Scope.Budget.Bytes, int64(inflated+len(compressed)), "the compressed and the inflated bytes")
		assert.Empty(t, r.Scope.Budget.Exhausted)
	})
	t.Run("refused when the scan has less left", func(t *testing.T) {
		r := scan(t, safefetch.BudgetLimits{Bytes: 400_000})
		got := checkByID(r, "sitemap").Receipt.Received
		assert.Contains(t, got, "gzip sitemap refused")
		assert.Contains(t, got, "budget exhausted: bytes")
		assert.Equal(t, "bytes", r.Scope.Budget.Exhausted)
		assert.LessOrEqual(t, r.Scope.Budget.Bytes, int64(400_000+32<<10+len(compressed)), "inflation stops within one step of the limit")
	})
}
