package readiness

import (
	"net/url"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/webread"
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
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			assert.Equal(t, tc.want, preferred(tc.accept, formOffers))
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
		{name: "empty", doc: "", errHas: "no front matter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, dups, err := parseFrontMatter([]byte(tc.doc))
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
			doc, err := parseSitemap([]byte(tc.doc))
			if tc.errHas != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, errNotSitemap)
				assert.Contains(t, err.Error(), tc.errHas)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.root, doc.root)
			assert.Equal(t, tc.locs, doc.locs)
		})
	}
}

func TestParseRobotsExactTokens(t *testing.T) {
	idx := func(token string) int {
		for i, c := range crawlers {
			if c.token == token {
				return i
			}
		}
		t.Fatalf("no crawler %s", token)
		return -1
	}
	tests := []struct {
		name    string
		robots  string
		blocked []string
	}{
		{name: "empty file allows all", robots: "", blocked: nil},
		{name: "star disallow blocks all", robots: "User-agent: *\nDisallow: /\n", blocked: tokens()},
		{name: "a prefix of a token does not match it", robots: "User-agent: Claude\nUser-agent: Perplexity\nUser-agent: GPT\nDisallow: /\n"},
		{name: "a longer token does not match", robots: "User-agent: GPTBot-Extra\nDisallow: /\n"},
		{name: "case-insensitive exact match", robots: "user-agent: gptbot\ndisallow: /\n", blocked: []string{"GPTBot"}},
		{name: "Applebot does not stand for Applebot-Extended", robots: "User-agent: Applebot\nDisallow: /\n"},
		{name: "version suffix is the same product", robots: "User-agent: ClaudeBot/1.0\nDisallow: /\n", blocked: []string{"ClaudeBot"}},
		{name: "group of several agents", robots: "User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nDisallow: /\nUser-agent: *\nAllow: /\n", blocked: []string{"OAI-SearchBot", "ChatGPT-User"}},
		{name: "specific group overrides star", robots: "User-agent: *\nDisallow: /\n\nUser-agent: Claude-User\nAllow: /\n", blocked: without(tokens(), "Claude-User")},
		{name: "a bad crawl-delay does not break the file", robots: "User-agent: *\nCrawl-delay: soon\nDisallow: /\n", blocked: tokens()},
		{name: "path rules", robots: "User-agent: *\nDisallow: /private\n"},
		{name: "comments and junk", robots: "# hello\nfoo bar\nUser-agent: PerplexityBot # the search one\nDisallow: / # all\n", blocked: []string{"PerplexityBot"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := &robotsObs{rules: webread.Parse([]byte(tc.robots))}
			var got []string
			for _, c := range crawlers {
				if !o.allowed(idx(c.token), "/") {
					got = append(got, c.token)
				}
			}
			assert.ElementsMatch(t, tc.blocked, got)
		})
	}
}

func tokens() []string {
	var out []string
	for _, c := range crawlers {
		out = append(out, c.token)
	}
	return out
}

func without(xs []string, x string) []string {
	var out []string
	for _, v := range xs {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// TestRobotsRFC9309 holds the three answers the former reader got wrong
// (each failed with github.com/temoto/robotstxt).
func TestRobotsRFC9309(t *testing.T) {
	gpt := -1
	for i, c := range crawlers {
		if c.token == "GPTBot" {
			gpt = i
		}
	}
	require.GreaterOrEqual(t, gpt, 0)
	for _, tc := range []struct {
		name, robots, path string
		want               bool
	}{
		{"Allow: /$ allows the root", "User-agent: *\nAllow: /$\nDisallow: /\n", "/", true},
		{"Allow: /$ does not allow a path ending in /", "User-agent: *\nAllow: /$\nDisallow: /\n", "/docs/", false},
		{"/%7Euser is /~user (RFC 9309 §2.2.2)", "User-agent: GPTBot\nDisallow: /%7Euser\n", "/~user/notes", false},
		{"/~user is /%7Euser", "User-agent: GPTBot\nDisallow: /~user\n", "/%7Euser/notes", false},
		{"a BOM does not hide the first group", "\xEF\xBB\xBFUser-agent: GPTBot\nDisallow: /\n", "/", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &robotsObs{rules: webread.Parse([]byte(tc.robots))}
			assert.Equal(t, tc.want, o.allowed(gpt, tc.path))
		})
	}
}

func TestParseRobotsSitemaps(t *testing.T) {
	o := &robotsObs{rules: webread.Parse([]byte("User-agent: *\nDisallow:\nSitemap: https://a.example/s.xml\nsitemap: https://a.example/t.xml\n"))}
	assert.Equal(t, []string{"https://a.example/s.xml", "https://a.example/t.xml"}, o.sitemaps())
}

func TestValidLangTag(t *testing.T) {
	for _, ok := range []string{"en", "en-US", "de-CH-1996", "zh-Hant-TW", "sr-Latn-RS", "es-419", "x-private", "en-a-bbb-x-a-ccc", "EN-us", "zh-yue-HK", "tlh"} {
		assert.True(t, validLangTag(ok), ok)
	}
	for _, bad := range []string{"", "e", "english!", "en_US", "en-", "-en", "en--US", "12", "en-US-x", "i-klingon", "toolongtag", strings.Repeat("a-", 40) + "a"} {
		assert.False(t, validLangTag(bad), bad)
	}
}

func TestReadCard(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		formats []string
		names   []string
	}{
		{name: "our card", doc: `{"name":"S","publishes":{"llms_txt":"https://s.example/llms.txt"},"interfaces":[{"type":"MCP","url":"https://s.example/mcp","auth":"oauth2"}],"auth":{"type":"oauth2","public":["a"],"token_required":["b"]},"contact":{"email":"x@s.example"}}`,
			formats: []string{"agentweb"}, names: []string{"publication", "interface", "sign-in", "contact"}},
		{name: "draft-car", doc: `{"specVersion":"0","site":{"name":"S","url":"https://s.example/","contact":"mailto:a@s.example"},"capabilities":[{"id":"c","endpoint":"https://s.example/api","protocol":"REST","auth":{"type":"none"}}],"access":{"allow":["/"]}}`,
			formats: []string{"draft-car-agents-txt"}, names: []string{"interface", "contact"}},
		{name: "wild-card-ai", doc: `{"agentsJson":"0.1.0","info":{"title":"S","version":"1","description":"d"},"sources":[{"id":"api","path":"https://s.example/openapi.json"}],"flows":[]}`,
			formats: []string{"wild-card-ai"}, names: []string{"interface"}},
		{name: "jmilinovich", doc: `{"version":"1","site_info":{"name":"S"},"authentication":{"required":true,"methods":["oauth2"]},"intents":[{"name":"search","endpoint":"/search"}],"policies":{}}`,
			formats: []string{"jmilinovich"}, names: []string{"interface", "sign-in"}},
		{name: "wrong shapes are ignored", doc: `{"publishes":"x","interfaces":{"a":1},"auth":true,"contact":42,"capabilities":[1,"x",{"id":"no endpoint"}]}`},
		{name: "empty object", doc: `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := strictjson.Decode([]byte(tc.doc))
			require.NoError(t, err)
			c := readCard(v)
			require.NotNil(t, c)
			assert.Equal(t, tc.formats, c.Formats)
			assert.Equal(t, tc.names, c.names())
		})
	}
	assert.Nil(t, readCard([]any{}), "an array is not a card")
	assert.Nil(t, readCard("x"))
}

func TestReadJSONLD(t *testing.T) {
	r := readJSONLD([]string{
		`{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"S","url":"https://s.example/"},{"@type":["WebPage","ItemPage"],"datePublished":"2026-01-01","publisher":{"@type":"schema:Person","name":"P"}}]}`,
		`<!-- {"@type":"Product","name":"T","url":"https://s.example/t"} -->`,
		`{"@type":"Product",}`,
		`{"a":1} {"b":2}`,
		`   `,
	})
	assert.Equal(t, 5, r.blocks)
	assert.Len(t, r.parseErrs, 3)
	var types []string
	for _, n := range r.nodes {
		types = append(types, strings.Join(n.types, ","))
	}
	assert.ElementsMatch(t, []string{"Organization", "WebPage,ItemPage", "Person", "Product"}, types)
}

func TestCanonicalJSON(t *testing.T) {
	assert.Equal(t, canonicalJSON([]byte(`{"b":1,"a":[1.0,"x"]}`)), canonicalJSON([]byte("{ \"a\": [1, \"x\"],\n\"b\": 1 }")))
	assert.Nil(t, canonicalJSON([]byte(`{"a":}`)))
	assert.Nil(t, canonicalJSON([]byte(`{"a":1,"a":2}`)))
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
