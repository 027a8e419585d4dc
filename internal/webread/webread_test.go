package webread

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPreferred(t *testing.T) {
	tests := []struct {
		accept string
		want   string
	}{
		{"text/markdown", "text/markdown"},
		{"text/html", "text/html"},
		{"", "text/html"},
		{"*/*", "text/html"},
		{"text/markdown;q=0.9, text/html;q=0.8", "text/markdown"},
		{"text/html;q=0.5, text/markdown", "text/markdown"},
		{"text/*;q=0.3, text/html;q=0", "text/markdown"},
		{"text/markdown;q=0", ""},
		{"text/markdown;q=0, */*;q=0.1", "text/html"},
		{"TEXT/Markdown; charset=utf-8", "text/markdown"},
		{"text/markdown;q=2", ""},
		{"text/markdown;q=0.1234", ""},
		{"text/markdown;q=abc, text/html;q=0.1", "text/html"},
		{"application/json", ""},
		{"garbage, ,;q=1", ""},
		{"*/html", ""},
		{"text/html;level=1;q=0.2, text/html;q=0.9, text/markdown;q=0.5", "text/html"},
		{"text/markdown;q=0.99999, text/html;q=0.1", "text/html"},
		{"text/markdown;q=.5, text/html;q=0.1", "text/html"},
		{"text/markdown;q=1.5, text/html;q=0.1", "text/html"},
		{"text/markdown;q=0., text/html;q=0.1", "text/html"},
		{"text/markdown;q=1., text/html;q=0.9", "text/markdown"},
		{"text/markdown;q=0;foo=bar, text/html", "text/html"},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			assert.Equal(t, tc.want, Preferred(tc.accept, []string{"text/html", "text/markdown"}))
		})
	}
}

func TestParseFrontMatter(t *testing.T) {
	tests := []struct {
		name   string
		doc    string
		want   map[string]string
		dups   []string
		errHas string
	}{
		{name: "method example", doc: "---\ntitle: Pricing\ndescription: What each plan includes and what it costs.\ncanonical: https://yourwebsite.com/pricing\nupdated: 2026-09-15\nlanguage: en\n---\n# Pricing\n",
			want: map[string]string{"title": "Pricing", "description": "What each plan includes and what it costs.", "canonical": "https://yourwebsite.com/pricing", "updated": "2026-09-15", "language": "en"}},
		{name: "CRLF, BOM, quotes, comments, unknown and nested keys", doc: "\ufeff---\r\n# a comment\r\nlanguage: \"de-CH\"\r\nauthor:\r\n  name: x\r\ntags: [a, b]\r\nupdated: '2026-01-02' # later\r\ncanonical: https://a.example/x # note\r\n...\r\nbody",
			want: map[string]string{"language": "de-CH", "updated": "2026-01-02", "canonical": "https://a.example/x"}},
		{name: "duplicate key keeps the first", doc: "---\nlanguage: en\nlanguage: fr\n---\n", want: map[string]string{"language": "en"}, dups: []string{"language"}},
		{name: "indented key is not top level", doc: "---\nmeta:\n  canonical: https://a.example/\n---\n", want: map[string]string{}},
		{name: "no front matter", doc: "# Title\n\ncanonical: x\n", errHas: "no front matter"},
		{name: "not at the start", doc: "\n---\nlanguage: en\n---\n", errHas: "no front matter"},
		{name: "never closed", doc: "---\nlanguage: en\n", errHas: "not closed"},
		{name: "closed too late", doc: "---\n" + strings.Repeat("x: y\n", 70) + "---\n", errHas: "not closed"},
		{name: "closed within 8 KiB", doc: "---\ntitle: " + strings.Repeat("a", 8000) + "\n---\n", want: map[string]string{"title": strings.Repeat("a", 8000)}},
		{name: "closed past 8 KiB", doc: "---\ntitle: " + strings.Repeat("a", 9000) + "\n---\n", errHas: "not closed"},
		{name: "empty", doc: "", errHas: "no front matter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, dups, err := ParseFrontMatter([]byte(tc.doc))
			if tc.errHas != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.errHas)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.dups, dups)
		})
	}
}

const sitemapHead = `<?xml version="1.0" encoding="UTF-8"?>`

func TestParseSitemap(t *testing.T) {
	tests := []struct {
		name   string
		doc    string
		root   string
		locs   []string
		errHas string
	}{
		{name: "urlset", doc: sitemapHead + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.example/ </loc><lastmod>2026-01-01</lastmod></url><url><loc>https://a.example/b</loc></url></urlset>`,
			root: "urlset", locs: []string{"https://a.example/", "https://a.example/b"}},
		{name: "sitemapindex", doc: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>`,
			root: "sitemapindex", locs: []string{"https://a.example/s1.xml"}},
		{name: "empty urlset", doc: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`, root: "urlset"},
		{name: "prefixed namespace", doc: `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.example/</sm:loc></sm:url></sm:urlset>`,
			root: "urlset", locs: []string{"https://a.example/"}},
		{name: "loc outside url is ignored", doc: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><loc>https://x.example/</loc><url><image xmlns="http://www.google.com/schemas/sitemap-image/1.1"><loc>https://cdn.example/i.png</loc></image><loc>https://a.example/</loc></url></urlset>`,
			root: "urlset", locs: []string{"https://a.example/"}},
		{name: "entities are decoded", doc: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/?a=1&amp;b=2</loc></url></urlset>`,
			root: "urlset", locs: []string{"https://a.example/?a=1&b=2"}},
		{name: "no namespace", doc: `<urlset><url><loc>https://a.example/</loc></url></urlset>`, errHas: "namespace"},
		{name: "wrong namespace", doc: `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"></urlset>`, errHas: "namespace"},
		{name: "wrong root", doc: `<rss version="2.0"><channel/></rss>`, errHas: "root element <rss>"},
		{name: "HTML", doc: `<!DOCTYPE html><html><body>hi</body></html>`, errHas: "not a sitemap"},
		{name: "not XML", doc: `{"urls": []}`, errHas: "not a sitemap"},
		{name: "unclosed", doc: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>`, errHas: "not a sitemap"},
		{name: "undefined entity", doc: `<!DOCTYPE urlset [<!ENTITY x "y">]><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&x;</loc></url></urlset>`, errHas: "not a sitemap"},
		{name: "latin-1", doc: `<?xml version="1.0" encoding="ISO-8859-1"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>`, errHas: "not UTF-8"},
		{name: "two roots", doc: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>`, errHas: "not a sitemap"},
		{name: "too deep", doc: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + strings.Repeat("<a>", 20) + strings.Repeat("</a>", 20) + `</urlset>`, errHas: "deeper"},
		{name: "empty", doc: ``, errHas: "no root"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := ParseSitemap([]byte(tc.doc))
			if tc.errHas != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrNotSitemap)
				assert.Contains(t, err.Error(), tc.errHas)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.root, doc.Root)
			assert.Equal(t, tc.locs, doc.Locs)
		})
	}
}

func gz(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestGunzip(t *testing.T) {
	doc := []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`)
	z := gz(t, doc)
	assert.True(t, IsGzip(z))
	assert.False(t, IsGzip(doc))
	got, err := Gunzip(z, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, doc, got)

	got, err = Gunzip(z, int64(len(doc)))
	require.NoError(t, err, "exactly the cap is allowed")
	assert.Equal(t, doc, got)

	// A bomb: 64 MiB of zeros in about 64 KiB.
	bomb := gz(t, make([]byte, 64<<20))
	_, err = Gunzip(bomb, 1<<20)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), fmt.Sprintf("%d compressed bytes inflate past 1048576 bytes", len(bomb)))

	_, err = Gunzip(z[:len(z)-6], 1<<20)
	assert.ErrorIs(t, err, ErrGzip, "truncated")
	_, err = Gunzip([]byte("not gzip"), 1<<20)
	assert.ErrorIs(t, err, ErrGzip)
}

// GunzipCharged tells its charge of every inflated byte, at most 32 KiB at
// a time, and stops at the charge's first error, which it wraps.
func TestGunzipCharged(t *testing.T) {
	doc := bytes.Repeat([]byte("<url/>"), 50_000) // 300,000 bytes
	z := gz(t, doc)
	var told, calls int
	got, err := GunzipCharged(z, 1<<20, func(n int) error {
		calls++
		assert.LessOrEqual(t, n, 32<<10)
		told += n
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, doc, got)
	assert.Equal(t, len(doc), told, "every inflated byte, once")
	assert.Greater(t, calls, 1)

	stop := errors.New("no more")
	told = 0
	_, err = GunzipCharged(z, 1<<20, func(n int) error {
		told += n
		if told > 100_000 {
			return stop
		}
		return nil
	})
	require.ErrorIs(t, err, stop)
	assert.LessOrEqual(t, told, 100_000+32<<10, "inflation ends within one step of the refusal")

	bomb := gz(t, make([]byte, 64<<20))
	told = 0
	_, err = GunzipCharged(bomb, 1<<20, func(n int) error { told += n; return nil })
	require.ErrorIs(t, err, ErrTooLarge)
	assert.LessOrEqual(t, told, 1<<20+1, "a bomb is charged its cap and the byte past it, no more")
}

func TestValidLanguageTag(t *testing.T) {
	for _, ok := range []string{"en", "en-US", "de-CH-1996", "zh-Hant-TW", "sr-Latn-RS", "es-419", "x-private", "en-a-bbb-x-a-ccc", "EN-us", "zh-yue-HK", "tlh"} {
		assert.True(t, ValidLanguageTag(ok), ok)
	}
	for _, bad := range []string{"", "e", "english!", "en_US", "en-", "-en", "en--US", "12", "en-US-x", "i-klingon", "toolongtag", strings.Repeat("a-", 40) + "a"} {
		assert.False(t, ValidLanguageTag(bad), bad)
	}
}

func TestReadJSONLD(t *testing.T) {
	r := ReadJSONLD([]string{
		`{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"S","url":"https://s.example/"},{"@type":["WebPage","ItemPage"],"datePublished":"2026-01-01","publisher":{"@type":"schema:Person","name":"P"}}]}`,
		`<!-- {"@type":"Product","name":"T","url":"https://s.example/t"} -->`,
		`{"@type":"Product",}`,
		`{"a":1} {"b":2}`,
		`   `,
	})
	assert.Equal(t, 5, r.Blocks)
	assert.Len(t, r.ParseErrs, 3)
	var types []string
	for _, n := range r.Nodes {
		types = append(types, strings.Join(n.Types, ","))
	}
	assert.ElementsMatch(t, []string{"Organization", "WebPage,ItemPage", "Person", "Product"}, types)
}

func TestParseToolsPolicy(t *testing.T) {
	const origin = "https://shop.example"
	tests := []struct {
		values  []string
		kind    ToolsPolicyKind
		invalid bool
	}{
		{nil, ToolsPolicyDefault, false},
		{[]string{"geolocation=()"}, ToolsPolicyDefault, false},
		{[]string{"tools=()"}, ToolsPolicyNone, false},
		{[]string{"tools=*"}, ToolsPolicyAll, false},
		{[]string{"tools=(self)"}, ToolsPolicySelf, false},
		{[]string{"tools=self"}, ToolsPolicySelf, false},
		{[]string{`tools=("https://shop.example")`}, ToolsPolicySelf, false},
		{[]string{`tools=("https://shop.example:443/x")`}, ToolsPolicySelf, false},
		{[]string{`tools=("https://ads.example")`}, ToolsPolicyNone, false},
		{[]string{`tools=(self "https://ads.example" *)`}, ToolsPolicyAll, false},
		{[]string{"camera=()", "tools=(self)"}, ToolsPolicySelf, false},
		{[]string{"tools=(self"}, ToolsPolicyDefault, true},
		{[]string{"Tools=*"}, ToolsPolicyDefault, true},
		{[]string{"tools=?1"}, ToolsPolicyNone, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.values), func(t *testing.T) {
			p := ParseToolsPolicy(tc.values, origin)
			assert.Equal(t, tc.kind, p.Kind)
			assert.Equal(t, tc.invalid, p.Invalid != nil)
		})
	}
}
