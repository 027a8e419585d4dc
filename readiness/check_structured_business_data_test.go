package readiness

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// structuredBusinessDataEdges are the edge cases of the structured_business_data check.
func structuredBusinessDataEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name: "JSON-LD none of whose blocks parses",
			paths: map[string]http.HandlerFunc{"/": text("text/html", `<!DOCTYPE html><html lang="en"><head><title>Shop</title>
<script type="application/ld+json">{"@type": "Organization",}</script><script type="application/ld+json">[{</script></head><body><h1>Shop</h1></body></html>`)},
			// Only the given page: the further routes of the test site carry valid JSON-LD.
			opts: &Options{MaxPages: -1},
			want: map[string]Verdict{"structured_business_data": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "JSON-LD present, but none of its 2 blocks parses", checkByID(r, "structured_business_data").Receipt.Received)
			},
		},
	}
}

// The Understand checks read the JSON-LD of every page the scan read. A
// Product block on the product page meets R7 even when the start page has
// none. R7 is "the site publishes structured business or product metadata"
// (the scoring method Section 03; the check catalogue, Understand,
// structured_business_data). The receipt names the routes it was read from
// (Section 07, "findings state their scope").
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
