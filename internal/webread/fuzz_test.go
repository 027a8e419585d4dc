package webread

import (
	"bytes"
	"compress/gzip"
	"errors"
	"testing"
)

// The fuzz targets check that the readers never panic, stay within their
// bounds, and keep their invariants on any input.

func FuzzParseSitemap(f *testing.F) {
	for _, s := range []string{
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`,
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>x</loc></sitemap></sitemapindex>`,
		`<?xml version="1.0" encoding="latin1"?><urlset/>`, `<!DOCTYPE html><html></html>`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := ParseSitemap(b)
		if err != nil {
			return
		}
		if doc.Root != "urlset" && doc.Root != "sitemapindex" {
			t.Fatalf("root %q accepted", doc.Root)
		}
		if len(doc.Locs) > MaxSitemapLocs {
			t.Fatalf("%d locs kept", len(doc.Locs))
		}
	})
}

// FuzzGunzip checks that Gunzip never returns more than its cap, and that
// what it returns is what was compressed.
func FuzzGunzip(f *testing.F) {
	for _, s := range []string{"", "<urlset/>", string(make([]byte, 5000))} {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write([]byte(s))
		w.Close()
		f.Add(buf.Bytes(), int64(len(s)))
	}
	f.Fuzz(func(t *testing.T, b []byte, max int64) {
		if max < 0 || max > 1<<20 {
			return
		}
		out, err := Gunzip(b, max)
		if err != nil {
			if !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrGzip) {
				t.Fatalf("error of neither kind: %v", err)
			}
			return
		}
		if int64(len(out)) > max {
			t.Fatalf("%d bytes returned over a cap of %d", len(out), max)
		}
	})
}

func FuzzParseFrontMatter(f *testing.F) {
	for _, s := range []string{"---\ncanonical: https://a.example/\nupdated: 2026-01-01\nlanguage: en\n---\n", "---\r\nlanguage: 'e''n'\r\n...\r\n", "---\n", "# x", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fields, _, err := ParseFrontMatter(b)
		if err != nil {
			return
		}
		for k := range fields {
			if !FrontMatterKeys[k] {
				t.Fatalf("key %q read", k)
			}
		}
	})
}

func FuzzReadJSONLD(f *testing.F) {
	for _, s := range []string{`{"@type":"Organization","name":"x"}`, `[{"@graph":[{"@type":["A","B"]}]}]`, `<!-- {} -->`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := ReadJSONLD([]string{s})
		if len(r.Nodes) > MaxJSONLDNodes {
			t.Fatalf("%d nodes kept", len(r.Nodes))
		}
	})
}

func FuzzPreferred(f *testing.F) {
	for _, s := range []string{"text/markdown", "text/html;q=0.5, text/markdown", "*/*;q=0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Preferred(s, []string{"text/html", "text/markdown"})
		if got != "" && got != "text/html" && got != "text/markdown" {
			t.Fatalf("preferred %q", got)
		}
	})
}

// FuzzParseQ checks that every qvalue is within 0..1.
func FuzzParseQ(f *testing.F) {
	for _, s := range []string{"1", "0.5", "1.000", "0.99999", ".5", "1.5", "0."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if q := ParseQ(s); q < 0 || q > 1 {
			t.Fatalf("ParseQ(%q) = %v", s, q)
		}
	})
}

// FuzzValidLanguageTag checks that the tag check never panics and refuses
// what is too long.
func FuzzValidLanguageTag(f *testing.F) {
	for _, s := range []string{"en", "de-CH-1996", "x-a", "i-klingon", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidLanguageTag(s) && len(s) > 64 {
			t.Fatalf("%d-byte tag accepted", len(s))
		}
	})
}

func FuzzParseToolsPolicy(f *testing.F) {
	for _, s := range []string{"", "tools=()", "tools=*", `tools=(self "https://a.example")`, "tools=(self", `geolocation=(), tools=("https://x.example:8443/p")`, "tools=?0;a=1", `tools=("\u00e9")`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		p := ParseToolsPolicy([]string{h}, "https://shop.example")
		switch p.Kind {
		case ToolsPolicyDefault, ToolsPolicySelf, ToolsPolicyAll, ToolsPolicyNone:
		default:
			t.Fatalf("kind %q", p.Kind)
		}
		if p.Invalid != nil && p.Kind != ToolsPolicyDefault {
			t.Fatalf("an invalid header must leave the default, got %q", p.Kind)
		}
	})
}
