package readiness

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A rendering's request the renderer skips by design (a stylesheet) is
// listed in the receipt as skipped, not as an error; a refused one stays
// an error.
func TestRenderedSkippedRequestIsNoError(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1></body></html>`)
	})
	ren := renderedAs{r: Rendering{Browser: "Chromium 156.0", HTML: []byte(`<html><body><h1>Shop</h1></body></html>`), Requests: []RenderedRequest{
		{Method: "GET", URL: "https://shop.example/", Type: "Document", Status: 200, Bytes: 90},
		{Method: "GET", URL: "https://shop.example/site.css", Type: "Stylesheet", Refused: "not fetched: a rendering does not need it", Skipped: true},
		{Method: "GET", URL: "https://cdn.example/x.js", Type: "Script", Refused: "refused by safefetch: no answer"},
	}}}
	r := scanWith(t, mux, &Options{MaxPages: -1, Renderer: ren})
	c := checkByID(r, "page_actions_declared")
	var css, js *RequestRecord
	for i, q := range c.Receipt.Requests {
		switch q.URL {
		case "https://shop.example/site.css":
			css = &c.Receipt.Requests[i]
		case "https://cdn.example/x.js":
			js = &c.Receipt.Requests[i]
		}
	}
	require.NotNil(t, css)
	require.NotNil(t, js)
	assert.Empty(t, css.Error)
	assert.Equal(t, "not fetched: a rendering does not need it", css.Skipped)
	assert.NotEmpty(t, js.Error)
	md := string(r.Markdown())
	assert.Contains(t, md, "-> skipped: not fetched: a rendering does not need it")
	assert.NotContains(t, md, "-> error: not fetched")
}
