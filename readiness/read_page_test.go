package readiness

import (
	"context"
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
