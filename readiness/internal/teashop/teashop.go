// Package teashop is the tea shop that the publish and mcpserver tests share.
// It holds five plain HTML pages and the kit's value that makes them
// agent-ready. Only tests import it; it lives here because two packages'
// tests cannot share a _test.go file.
package teashop

import (
	"fmt"
	"net/http"
	"time"

	"github.com/agentweb/agentweb/readiness/publish"
)

// Pages is a net/http site of five HTML pages and a logo. It has no agent
// documents: no lang, no canonical, no JSON-LD and no Markdown.
func Pages() *http.ServeMux {
	mux := http.NewServeMux()
	page := func(title, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title></head>
<body><header><a href="/">Tea Shop</a> <a href="/teas">Teas</a> <a href="/about">About</a></header>
<main><h1>%s</h1><p>%s</p></main>
<footer><a href="/contact">Contact us</a></footer></body></html>`, title, title, body)
		}
	}
	long := "We sell loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in Vienna and shipped within the European Union in two working days. Every tea is tasted before it is listed, and every listing says where it was grown and when it was picked."
	mux.HandleFunc("/{$}", page("Tea Shop", long))
	mux.HandleFunc("/teas", page("Our teas", "The catalogue: black, green, oolong and white teas. "+long))
	mux.HandleFunc("/about", page("About us", "Who we are and how we choose our teas. "+long))
	mux.HandleFunc("/contact", page("Contact", "Write to people@tea.example; a person answers within a working day. "+long))
	mux.HandleFunc("/shipping", page("Shipping", "Where we ship and what it costs. "+long))
	mux.HandleFunc("/logo.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#3a7d44"/></svg>`)
	})
	return mux
}

// Site is the kit's value for the tea shop at https://tea.example. Served
// around [Pages], it scans 100.
func Site() publish.Site {
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	return publish.Site{
		Origin: "https://tea.example", Name: "Tea Shop", Description: "Loose-leaf tea from small gardens, shipped within the EU.",
		Language: "en", Contact: publish.Contact{Email: "people@tea.example", URL: "/contact"},
		Pages: []publish.Page{
			{Path: "/", Title: "Tea Shop", Description: "Loose-leaf tea from small gardens.", Updated: day},
			{Path: "/teas", Title: "Our teas", Description: "The catalogue.", Updated: day},
			{Path: "/about", Title: "About us", Description: "Who we are.", Updated: day},
			{Path: "/contact", Title: "Contact", Description: "How to reach a person.", Updated: day},
			{Path: "/shipping", Title: "Shipping", Description: "Where we ship.", Updated: day},
		},
		Crawlers: publish.Crawlers{Training: publish.Disallow},
		// The one fact beyond the seven the kit needs for a complete
		// identity node (name, url, and logo or sameAs): it cannot invent it.
		Logo: "/logo.svg",
	}
}
