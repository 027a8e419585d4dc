package readiness

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The Understand checks read the JSON-LD of every page the scan read: a
// Product block on the product page meets R7 ("the site publishes
// structured business or product metadata", the scoring method §03; the
// check catalogue, Understand, structured_business_data) even when the
// start page has none, and the receipt names the routes it was read from
// (§07, "findings state their scope").
func TestStructuredDataFromEveryPageRead(t *testing.T) {
	page := func(title, extra string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>%s</title></head><body><h1>%s</h1>%s
<a href="/products">Products</a> <a href="/about">About</a></body></html>`, title, title, extra)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", page("Shop", ""))
	mux.HandleFunc("/about", page("About", ""))
	mux.HandleFunc("/products", page("Products", `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Tent","url":"https://shop.example/products"}</script>`))
	r := scanWith(t, mux, nil)
	c := checkByID(r, "structured_business_data")
	assert.Equal(t, VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Scope, "https://shop.example/products")
	for _, f := range r.Fixes {
		assert.NotEqual(t, "structured_business_data", f.Check, "no fix for what the site publishes")
	}
}
