// This file is a user's own test, in a module of its own that requires
// github.com/agentweb/agentweb: TestOutsideModule copies it into a fresh
// module and runs go test there.
package teashop_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/readiness/readinesstest"
)

func pages() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Tea Shop</title></head><body><h1>Tea Shop</h1>
<p>We sell loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in
Vienna and shipped within the European Union in two working days. Every tea is tasted before it is listed.</p></body></html>`)
	})
	return mux
}

var site = publish.Site{
	Origin: "https://tea.example", Name: "Tea Shop", Language: "en",
	Description: "Loose-leaf tea from small gardens, shipped within the EU.",
	Contact:     publish.Contact{Email: "people@tea.example"},
	Pages:       []publish.Page{{Path: "/", Title: "Tea Shop", Description: "What we sell."}},
}

// The three lines a user writes.
func TestAgentReady(t *testing.T) {
	h, _ := site.Handler(pages())
	r := readinesstest.Scan(t, h, "https://tea.example", nil)
	readinesstest.Require(t, r, readinesstest.Want{Ready: true, Score: 90})
}

// recorder wraps the test and records what Require reports instead of
// failing.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
}

func TestBrokenSiteMessage(t *testing.T) {
	r := readinesstest.Scan(t, pages(), "https://tea.example", nil)
	rec := &recorder{TB: t}
	readinesstest.Require(rec, r, readinesstest.Want{Ready: true, Score: 90})
	for _, want := range []string{
		"falls short", "want at least 90.0", "not ready, want ready",
		"R3 not met", "R4 not met", "R5 not met",
		"fix first", "+", "llms_txt", "sitemap",
	} {
		if !strings.Contains(rec.msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, rec.msg)
		}
	}
	fmt.Println(rec.msg)
}
