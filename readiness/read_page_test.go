package readiness

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
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

// parsedPage is a 200 HTML answer with the given body, parsed as a page.
func parsedPage(body string) *pageRead {
	f := &fetched{url: "https://shop.example/", resp: &safefetch.Response{StatusCode: http.StatusOK,
		Body: []byte(body), Header: http.Header{"Content-Type": {"text/html"}}}}
	p := &pageRead{url: f.url, f: f}
	p.parse()
	return p
}

// What one page keeps is bounded, however much the page holds: JSON-LD
// blocks, anchors, forms and the named controls of a form.
func TestPageReadBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head>")
	for i := range maxJSONLDBlocks + 5 {
		fmt.Fprintf(&b, `<script type="application/ld+json">{"@type":"Thing","name":"t%d"}</script>`, i)
	}
	b.WriteString("</head><body>")
	for i := range maxAnchors + 5 {
		fmt.Fprintf(&b, `<a href="/p%d">p</a>`, i)
	}
	for range maxForms + 5 {
		b.WriteString(`<form method="post"><input name="a"></form>`)
	}
	b.WriteString("</body></html>")
	p := parsedPage(b.String())
	if !assert.True(t, p.readable()) {
		return
	}
	assert.Equal(t, maxJSONLDBlocks, p.ld.Blocks, "JSON-LD blocks read")
	assert.Len(t, p.ld.Nodes, maxJSONLDBlocks)
	assert.Len(t, p.anchors, maxAnchors)
	assert.Len(t, p.forms, maxForms)

	b.Reset()
	b.WriteString(`<!DOCTYPE html><html><body><form method="post">`)
	for i := range maxControls + 5 {
		fmt.Fprintf(&b, `<input name="c%d">`, i)
	}
	b.WriteString("</form></body></html>")
	p = parsedPage(b.String())
	if assert.Len(t, p.forms, 1) {
		assert.Len(t, p.forms[0].controls, maxControls)
	}
}
