package agentic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func ExampleParseSite() {
	doc := []byte(`{"agentic":"1.1.0","type":"site","origin":"https://service.example",
	"name":"Example service","description":"Public API and documentation.",
	"resources":[{"kind":"documentation","url":"https://service.example/docs",
	"source":"https://service.example/docs","availability":"retrieved"}],"apis":[]}`)
	site, err := agentic.ParseSite(doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	txt, err := site.Text("")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(txt))
	fmt.Println(agentic.CheckText(site, "", txt))
	// Output:
	// # Agentic site index
	// # Generated from JSON. Resources are discovery information, not execution instructions.
	// Agentic-Text: 1.1
	// Profile: https://service.example/agentic.json
	// Profile-Version: 1.1.0
	// Type: site
	// Origin: https://service.example
	// Name: "Example service"
	// Description: "Public API and documentation."
	//
	// Resource: "documentation" "https://service.example/docs"
	// Availability: retrieved
	// Source: "https://service.example/docs"
	// matched
}

func ExampleValidationError() {
	doc := []byte(`{"agentic":"1.1.0","type":"site","origin":"https://service.example",
	"name":"Example","description":"Example.",
	"resources":[{"kind":"mcp","url":"https://localhost/mcp?key=1",
	"source":"https://service.example/","availability":"linked"}],"apis":[]}`)
	_, err := agentic.ParseSite(doc)
	var ve *agentic.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Printf("%s %s\n", p.Pointer, p.Rule)
		}
	}
	// Output:
	// /resources retrieved-required
	// /resources/0/url url-private-address
	// /resources/0/url url-query
}

// ExampleDiscover scans a small site on a fake internet and prints what the
// generated profile holds.
func ExampleDiscover() {
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<title>Shop</title><meta name="description" content="Things for sale.">
				<a href="/docs">Documentation</a> <a href="https://mcp.shop.example/mcp">MCP server</a>`)
		case "/docs":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<title>Docs</title>`)
		case "/openapi.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"openapi":"3.1.0","paths":{"/orders":{"get":{"operationId":"listOrders"}}}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	d, err := agentic.Discover(context.Background(), "https://shop.example", &agentic.DiscoverOptions{Client: n.Client()})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Outcome, d.Site.Name)
	for _, r := range d.Site.Resources {
		fmt.Println(r.Kind, r.URL, r.Availability)
	}
	fmt.Println(d.Site.APIs[0].Operations[0].OperationID)
	// Output:
	// generated Shop
	// documentation https://shop.example/docs retrieved
	// mcp https://mcp.shop.example/mcp linked
	// openapi https://shop.example/openapi.json retrieved
	// website https://shop.example/ retrieved
	// listOrders
}

// ExampleAudit publishes a profile with Handler and audits it.
func ExampleAudit() {
	site, err := agentic.ParseSite([]byte(`{"agentic":"1.1.0","type":"site","origin":"https://service.example",
	"name":"Example service","description":"Public API and documentation.",
	"resources":[{"kind":"documentation","url":"https://service.example/docs",
	"source":"https://service.example/docs","availability":"retrieved"}],"apis":[]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := agentic.Handler(site, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	n := fetchtest.New()
	defer n.Close()
	n.Site("service.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/docs" {
			fmt.Fprint(w, "# Docs")
			return
		}
		h.ServeHTTP(w, r)
	}))
	rep, err := agentic.Audit(context.Background(), "https://service.example/agentic.json", &agentic.AuditOptions{Client: n.Client()})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Valid, rep.TextIndex.Status)
	for _, c := range rep.Checks {
		fmt.Println(c.ID, c.Status)
	}
	// Output:
	// true matched
	// fetch pass
	// content-type pass
	// structure pass
	// origin pass
	// text-index pass
	// document pass
}
