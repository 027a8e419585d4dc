package publish_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A plain net/http site made agent-ready from one value, then scanned.
func ExampleSite_Handler() {
	pages := http.NewServeMux()
	pages.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Tea Shop</title></head><body><h1>Tea Shop</h1>
<p>We sell loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in
Vienna and shipped within the European Union in two working days. Every tea is tasted before it is listed.</p></body></html>`)
	})
	site := publish.Site{
		Origin:      "https://tea.example",
		Name:        "Tea Shop",
		Description: "Loose-leaf tea from small gardens, shipped within the EU.",
		Language:    "en",
		Contact:     publish.Contact{Email: "people@tea.example"},
		Pages:       []publish.Page{{Path: "/", Title: "Tea Shop", Description: "What we sell."}},
		Crawlers:    publish.Crawlers{Training: publish.Disallow},
	}
	h, err := site.Handler(pages)
	if err != nil {
		fmt.Println(err)
		return
	}

	n := fetchtest.New()
	defer n.Close()
	n.Site("tea.example", h)
	rep, err := readiness.Scan(context.Background(), "https://tea.example/", &readiness.Options{Client: n.Client()})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range rep.Requirements {
		fmt.Println(q.ID, q.Met)
	}

	// A bad value is an error when the handler is built.
	site.Contact = publish.Contact{}
	_, err = site.Handler(pages)
	fmt.Println(err)
	// Output:
	// R1 true
	// R2 true
	// R3 true
	// R4 true
	// R5 true
	// R6 true
	// R7 true
	// R8 true
	// R9 true
	// R10 true
	// publish: invalid site: Contact: give an Email or a URL where a person can be reached
}
