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

// A client built with a Budget of two attempts, used by a Scan and then a
// linkset Walk, makes at most two requests in all, and its Budget records
// them: each entry point nests its own budget inside the client's. On the
// base commit the two made 22 requests while the client's budget recorded
// none.
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
	_, _ = linkset.Walk(context.Background(), "https://shop.example/.well-known/knowledge-linkset", &linkset.WalkOptions{Client: client})

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
