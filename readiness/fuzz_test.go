package readiness

import (
	"testing"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/webread"
)

// The fuzz targets check that the readers of remote data never panic, stay
// within their bounds, and keep their invariants on any input.

func FuzzParseRobots(f *testing.F) {
	for _, s := range []string{"", "User-agent: *\nDisallow: /\n", "User-agent: GPTBot\nUser-agent: Claude\nDisallow: /x\nAllow: /x/y\nCrawl-delay: x\nSitemap: https://a.example/s.xml\n", "user-agent:*\r\ndisallow:/*?$\r\n", "\xff\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		o := &robotsObs{rules: webread.Parse(b)}
		for i := range crawlers {
			o.allowed(i, "/")
			o.allowed(i, "/a?b=c")
		}
	})
}

func FuzzParseSitemap(f *testing.F) {
	for _, s := range []string{
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`,
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>x</loc></sitemap></sitemapindex>`,
		`<?xml version="1.0" encoding="latin1"?><urlset/>`, `<!DOCTYPE html><html></html>`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := parseSitemap(b)
		if err != nil {
			return
		}
		if doc.root != "urlset" && doc.root != "sitemapindex" {
			t.Fatalf("root %q accepted", doc.root)
		}
		if len(doc.locs) > maxSitemapLocs {
			t.Fatalf("%d locs kept", len(doc.locs))
		}
	})
}

func FuzzParseFrontMatter(f *testing.F) {
	for _, s := range []string{"---\ncanonical: https://a.example/\nupdated: 2026-01-01\nlanguage: en\n---\n", "---\r\nlanguage: 'e''n'\r\n...\r\n", "---\n", "# x", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fields, _, err := parseFrontMatter(b)
		if err != nil {
			return
		}
		for k := range fields {
			if !frontMatterKeys[k] {
				t.Fatalf("key %q read", k)
			}
		}
	})
}

func FuzzReadCard(f *testing.F) {
	for _, s := range []string{
		`{"name":"S","publishes":{"a":"b"},"interfaces":[{"type":"mcp","url":"u"}],"auth":{"type":"oauth2"},"contact":{"email":"e"}}`,
		`{"site":{"name":"n"},"capabilities":[{"endpoint":"e","auth":{"type":"none"}}]}`,
		`{"info":{},"sources":[{"path":"p"}]}`, `{"site_info":{},"authentication":{"required":false},"intents":[{}]}`, `[]`, `1`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := strictjson.Decode(b)
		if err != nil {
			return
		}
		c := readCard(v)
		if c == nil {
			if _, ok := v.(map[string]any); ok {
				t.Fatal("an object gave no card")
			}
			return
		}
		if len(c.Interfaces) > maxCardItems {
			t.Fatalf("%d interfaces kept", len(c.Interfaces))
		}
		c.names()
		canonicalJSON(b)
	})
}

func FuzzReadJSONLD(f *testing.F) {
	for _, s := range []string{`{"@type":"Organization","name":"x"}`, `[{"@graph":[{"@type":["A","B"]}]}]`, `<!-- {} -->`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := readJSONLD([]string{s})
		if len(r.nodes) > maxLDNodes {
			t.Fatalf("%d nodes kept", len(r.nodes))
		}
	})
}

func FuzzPreferred(f *testing.F) {
	for _, s := range []string{"text/markdown", "text/html;q=0.5, text/markdown", "*/*;q=0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := preferred(s, formOffers)
		if got != "" && got != "text/html" && got != "text/markdown" {
			t.Fatalf("preferred %q", got)
		}
	})
}
