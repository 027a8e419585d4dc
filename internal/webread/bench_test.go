package webread

import (
	"strings"
	"testing"
)

func BenchmarkParseSitemap(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for range 1000 {
		sb.WriteString("<url><loc>https://shop.example/products/item</loc><lastmod>2026-01-01</lastmod></url>\n")
	}
	sb.WriteString("</urlset>")
	body := []byte(sb.String())
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := ParseSitemap(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGunzipSitemap(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for range 1000 {
		sb.WriteString("<url><loc>https://shop.example/products/item</loc><lastmod>2026-01-01</lastmod></url>\n")
	}
	sb.WriteString("</urlset>")
	z := gz(b, []byte(sb.String()))
	b.SetBytes(int64(sb.Len()))
	for b.Loop() {
		if _, err := Gunzip(z, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseFrontMatter(b *testing.B) {
	doc := []byte("---\ntitle: Shop\ndescription: Outdoor gear, shipped within the EU.\ncanonical: https://shop.example/\nupdated: 2026-09-15\nlanguage: en\n---\n# Shop\n\nWhat we sell.\n")
	for b.Loop() {
		if _, _, err := ParseFrontMatter(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreferred(b *testing.B) {
	for b.Loop() {
		Preferred("text/html,application/xhtml+xml,application/xml;q=0.9,text/markdown;q=0.8,*/*;q=0.7", []string{"text/html", "text/markdown"})
	}
}

func BenchmarkReadJSONLD(b *testing.B) {
	blocks := []string{`{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"S","url":"https://s.example/","logo":"https://s.example/l.png"},{"@type":"WebPage","dateModified":"2026-01-01"}]}`}
	for b.Loop() {
		ReadJSONLD(blocks)
	}
}

func BenchmarkParseToolsPolicy(b *testing.B) {
	values := []string{`geolocation=(), camera=(), tools=(self "https://partner.example")`}
	b.ReportAllocs()
	for b.Loop() {
		if ParseToolsPolicy(values, "https://shop.example").Kind != ToolsPolicySelf {
			b.Fatal("kind")
		}
	}
}

func BenchmarkValidLanguageTag(b *testing.B) {
	for b.Loop() {
		ValidLanguageTag("zh-Hant-TW")
	}
}
