package readinesstest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/readiness/readinesstest"
)

// stand is a stand-in for a test's *testing.T, so that the example can
// run: it prints the shortfalls a failing Require reports (the lines
// starting with "-"), each up to its reason, instead of failing.
type stand struct{ testing.TB }

func (stand) Helper()                  {}
func (stand) Context() context.Context { return context.Background() }
func (stand) Fatalf(format string, args ...any) {
	for _, line := range strings.Split(fmt.Sprintf(format, args...), "\n") {
		if s, ok := strings.CutPrefix(line, "  - "); ok {
			s, _, _ = strings.Cut(s, ":")
			fmt.Println("-", s)
		}
	}
}

// A site built with the publish kit, scanned in-process before it is
// deployed. In a test, t is the test's *testing.T and the whole test is
// three lines: build the handler, Scan, Require.
func Example() {
	var t testing.TB = stand{}
	pages := http.NewServeMux()
	pages.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Tea Shop</title></head><body><h1>Tea Shop</h1>
<p>We sell loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in
Vienna and shipped within the European Union in two working days. Every tea is tasted before it is listed.</p></body></html>`)
	})
	site := publish.Site{
		Origin: "https://tea.example", Name: "Tea Shop", Language: "en",
		Description: "Loose-leaf tea from small gardens, shipped within the EU.",
		Contact:     publish.Contact{Email: "people@tea.example"},
		Pages:       []publish.Page{{Path: "/", Title: "Tea Shop", Description: "What we sell."}},
	}
	h, err := site.Handler(pages)
	if err != nil {
		fmt.Println(err)
		return
	}

	r := readinesstest.Scan(t, h, "https://tea.example", nil)
	readinesstest.Require(t, r, readinesstest.Want{Ready: true, Score: 90})
	fmt.Println("kit site ready:", r.Ready)

	// The same pages without the kit fall short: Require reports every
	// shortfall at once, then the fix-first list (not printed here).
	bare := readinesstest.Scan(t, pages, "https://tea.example", nil)
	readinesstest.Require(t, bare, readinesstest.Want{Requirements: []string{"R1", "R3", "R4"}, Pass: []string{"sitemap"}})
	// Output:
	// kit site ready: true
	// - R3 not met (fail)
	// - R4 not met (fail)
	// - sitemap is fail, want pass
}
