package htmlhead

import (
	"bytes"
	"net/url"
	"strings"
	"testing"
)

func benchPage(bodyBytes int) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example Shop — products</title>`)
	b.WriteString(`<meta name="description" content="Things for agents"><meta property="og:title" content="Shop">`)
	b.WriteString(`<script>window.__DATA__ = {"a": "<link href=/x>", "list": [1,2,3]};</script><style>body{margin:0}</style>`)
	for i := range 20 {
		b.WriteString(`<link rel="alternate stylesheet" href="/assets/style-`)
		b.WriteString(strings.Repeat("x", i))
		b.WriteString(`.css" type="text/css" media="screen">`)
	}
	b.WriteString(`<link rel="describedby" href="/.well-known/knowledge-linkset" type="application/linkset+json"></head><body>`)
	b.WriteString(strings.Repeat(`<div class="product"><a href="/p">Product</a><link rel="bad" href="/ignored"></div>`, bodyBytes/80))
	b.WriteString(`</body></html>`)
	return []byte(b.String())
}

// BenchmarkParse measures a typical head followed by a 100 KB body, which
// Parse never reads beyond the <body> tag.
func BenchmarkParse(b *testing.B) {
	page, err := url.Parse("https://shop.example/products/")
	if err != nil {
		b.Fatal(err)
	}
	doc := benchPage(100 << 10)
	b.ReportAllocs()
	for b.Loop() {
		h, err := Parse(bytes.NewReader(doc), page)
		if err != nil || len(h.Links) != 21 {
			b.Fatal(err, len(h.Links))
		}
	}
}
