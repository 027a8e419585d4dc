package readiness

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func BenchmarkPageWalk(b *testing.B) {
	n := fetchtest.New()
	b.Cleanup(n.Close)
	ts := &testSite{host: "shop.example"}
	n.Site(ts.host, ts)
	client := n.Client()
	page := ts.html("/", "Shop")
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		s := newScan(context.Background(), mustURL("https://shop.example/"), client.WithBudget(safefetch.NewBudget(safefetch.BudgetLimits{})), DefaultMaxBodyBytes, 0, 0, nil)
		if p := s.pageRead(); !p.readable() {
			b.Fatal("page not read")
		}
	}
}

func BenchmarkParsePage(b *testing.B) {
	body := []byte(`<!DOCTYPE html><html><body>` + searchForm + declaredForm + bareForm + halfForm +
		`<script>document.modelContext.registerTool({name: "a", description: "b"});</script></body></html>`)
	f := &fetched{resp: &safefetch.Response{StatusCode: http.StatusOK, Body: body, Header: http.Header{}}}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		p := &pageRead{url: "https://shop.example/", f: f}
		p.parse()
		if len(p.forms) != 4 || len(p.inline) != 1 {
			b.Fatal(len(p.forms), len(p.inline))
		}
	}
}
