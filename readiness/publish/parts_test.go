package publish

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testKit(t *testing.T, s Site) *kit {
	t.Helper()
	origin, err := s.validate()
	require.NoError(t, err)
	return &kit{site: s, origin: origin, routes: map[string]http.Handler{}, maxPage: defaultMaxPage, md: newConverter(time.Second, 4, 1<<20, 2)}
}

func baseSite() Site {
	return Site{
		Origin: "https://tea.example", Name: "Tea Shop", Description: "Loose-leaf tea, shipped within the EU.", Language: "en",
		Contact: Contact{Email: "people@tea.example", URL: "/contact"},
		Pages: []Page{
			{Path: "/", Title: "Home", Description: "What we sell.", Updated: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)},
			{Path: "/teas", Title: "Our teas", Description: "The catalogue.", Section: "Shop"},
		},
	}
}

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		field string
		edit  func(*Site)
	}{
		{"Origin", func(s *Site) { s.Origin = "http://tea.example" }},
		{"Origin", func(s *Site) { s.Origin = "https://tea.example/shop" }},
		{"Origin", func(s *Site) { s.Origin = "https://u:p@tea.example" }},
		{"Name", func(s *Site) { s.Name = " " }},
		{"Description", func(s *Site) { s.Description = "" }},
		{"Language", func(s *Site) { s.Language = "english!" }},
		{"Contact", func(s *Site) { s.Contact = Contact{} }},
		{"Contact.Email", func(s *Site) { s.Contact.Email = "Tea <a@b.example>" }},
		{"Contact.URL", func(s *Site) { s.Contact.URL = "javascript:alert(1)" }},
		{"Pages[1].Path", func(s *Site) { s.Pages[1].Path = "teas" }},
		{"Pages[1].Path", func(s *Site) { s.Pages[1].Path = "/" }},
		{"Pages[0].Title", func(s *Site) { s.Pages[0].Title = "" }},
		{"Disallow[0]", func(s *Site) { s.Disallow = []string{"cart"} }},
		{"ContentSignal", func(s *Site) { s.ContentSignal = "a\nDisallow: /" }},
		{"SameAs[0]", func(s *Site) { s.SameAs = []string{"/about"} }},
		{"MCP.Path", func(s *Site) { s.MCP = &MCP{Path: "mcp", Handler: http.NotFoundHandler()} }},
		{"MCP.Handler", func(s *Site) { s.MCP = &MCP{Path: "/mcp"} }},
		{"MCP.AuthorizationServers[0]", func(s *Site) {
			s.MCP = &MCP{Path: "/mcp", Handler: http.NotFoundHandler(), AuthorizationServers: []string{"http://auth.example"}}
		}},
		{"MCP.PublicTools", func(s *Site) {
			s.MCP = &MCP{Path: "/mcp", Handler: http.NotFoundHandler(), PublicTools: []string{"a"}, TokenTools: []string{"a"}}
		}},
		{"OpenAPI", func(s *Site) { s.OpenAPI = []byte(`{"swagger":"2.0"}`) }},
		{"OpenAPI", func(s *Site) { s.OpenAPI = []byte(`not json`) }},
	} {
		t.Run(tt.field, func(t *testing.T) {
			s := baseSite()
			tt.edit(&s)
			_, err := s.Handler(nil)
			var se *SiteError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.field, se.Field)
			assert.ErrorIs(t, err, ErrInvalidSite)
		})
	}
	s := baseSite()
	_, err := s.Handler(nil)
	assert.NoError(t, err)
}

func TestRobotsText(t *testing.T) {
	s := baseSite()
	s.Crawlers = Crawlers{Training: Disallow}
	s.Disallow = []string{"/cart"}
	s.ContentSignal = "search=yes, ai-train=no"
	got := string(testKit(t, s).robotsText())
	assert.Contains(t, got, "User-agent: GPTBot\nUser-agent: ClaudeBot\n")
	assert.Contains(t, got, "User-agent: meta-externalagent\nDisallow: /\n")
	assert.Contains(t, got, "User-agent: Perplexity-User\nDisallow: /cart\nAllow: /\n")
	assert.Contains(t, got, "User-agent: *\nDisallow: /cart\nAllow: /\nContent-Signal: search=yes, ai-train=no\n")
	assert.True(t, strings.HasSuffix(got, "\nSitemap: https://tea.example/sitemap.xml\n"))
}

func TestLLMSText(t *testing.T) {
	s := baseSite()
	s.Summary = "Agents may read everything.\nOrders need a person."
	s.Pages[1].Title = "Teas [all]"
	s.MCP = &MCP{Path: "/mcp", Handler: http.NotFoundHandler(), PublicTools: []string{"search"}, TokenTools: []string{"order"}}
	got := string(testKit(t, s).llmsText())
	assert.True(t, strings.HasPrefix(got, "# Tea Shop\n\n> Loose-leaf tea, shipped within the EU.\n\nAgents may read everything.\nOrders need a person.\n"))
	assert.Contains(t, got, "\n## Pages\n\n- [Home](https://tea.example/): What we sell.\n")
	assert.Contains(t, got, "\n## Shop\n\n- [Teas \\[all\\]](https://tea.example/teas): The catalogue.\n")
	assert.Contains(t, got, "- [MCP server](https://tea.example/mcp): public: search; with a token: order\n")
	assert.Contains(t, got, "\n## Contact\n\n- [Email a person](mailto:people@tea.example)\n- [Contact page](https://tea.example/contact)\n")
}

func TestSitemaps(t *testing.T) {
	s := baseSite()
	for i := range 5 {
		s.Pages = append(s.Pages, Page{Path: fmt.Sprintf("/p/%d&x", i), Title: "p"})
	}
	k := testKit(t, s)
	one, err := k.buildSitemaps(0)
	require.NoError(t, err)
	require.Len(t, one.files, 1)
	body := string(one.files[sitemapPath].body)
	assert.Contains(t, body, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	assert.Contains(t, body, "<url><loc>https://tea.example/</loc><lastmod>2026-11-01T09:00:00Z</lastmod></url>")
	assert.Contains(t, body, "<url><loc>https://tea.example/p/0&amp;x</loc></url>")

	split, err := k.buildSitemaps(3)
	require.NoError(t, err)
	require.Len(t, split.files, 4)
	idx := string(split.files[sitemapPath].body)
	assert.Contains(t, idx, "<sitemapindex")
	assert.Contains(t, idx, "<sitemap><loc>https://tea.example/sitemap-3.xml</loc></sitemap>")
	assert.Equal(t, 3, strings.Count(string(split.files["/sitemap-1.xml"].body), "<url>"))
	assert.Equal(t, 1, strings.Count(string(split.files["/sitemap-3.xml"].body), "<url>"))

	// gzip on request, with its own ETag.
	f := one.files[sitemapPath]
	plain := httptest.NewRecorder()
	f.ServeHTTP(plain, httptest.NewRequest("GET", "/sitemap.xml", nil))
	req := httptest.NewRequest("GET", "/sitemap.xml", nil)
	req.Header.Set("Accept-Encoding", "br, gzip;q=0.5")
	gz := httptest.NewRecorder()
	f.ServeHTTP(gz, req)
	assert.Equal(t, "gzip", gz.Header().Get("Content-Encoding"))
	assert.Equal(t, "Accept-Encoding", gz.Header().Get("Vary"))
	assert.NotEqual(t, plain.Header().Get("ETag"), gz.Header().Get("ETag"))
	zr, err := gzip.NewReader(gz.Body)
	require.NoError(t, err)
	unz, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, plain.Body.Bytes(), unz)
	for v, want := range map[string]bool{"gzip": true, "gzip;q=0": false, "*": true, "*;q=0, identity": false, "deflate": false, "": false, "x-gzip": true} {
		assert.Equal(t, want, acceptsGzip(v), v)
	}
}

func TestDecorate(t *testing.T) {
	k := testKit(t, baseSite())
	page := []byte(`<!DOCTYPE html><HTML><Head><title>Home</title></HEAD><body><p>hi</p></body></html>`)
	got := string(k.decorate(page, "/"))
	assert.Contains(t, got, `<HTML lang="en">`)
	for _, want := range []string{
		`<link rel="describedby" type="text/plain" href="/llms.txt">`,
		`<link rel="alternate" type="application/json" href="/agents.json">`,
		`<link rel="alternate" type="text/markdown" href="/">`,
		`<link rel="canonical" href="https://tea.example/">`,
		`<meta name="description" content="What we sell.">`,
		`<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@id":"https://tea.example/#organization"`,
		`"dateModified":"2026-11-01T09:00:00Z"`,
		`</script></HEAD>`,
	} {
		assert.Contains(t, got, want)
	}
	// Nothing twice: a decorated page decorates to itself.
	assert.Equal(t, got, string(k.decorate([]byte(got), "/")))

	has := []byte(`<html lang="de"><head><link rel=canonical href="https://tea.example/x"><script type="application/LD+json">{}</script></head><body></body></html>`)
	got = string(k.decorate(has, "/teas"))
	assert.Equal(t, 1, strings.Count(got, "canonical"))
	assert.Equal(t, 1, strings.Count(strings.ToLower(got), "ld+json"))
	assert.Contains(t, got, `<html lang="de">`)
	assert.NotContains(t, got, `lang="en"`)

	assert.Equal(t, "no head at all", string(k.decorate([]byte("no head at all"), "/")))
	bodyOnly := string(k.decorate([]byte("<p>x</p><body>y</body>"), "/"))
	assert.True(t, strings.HasPrefix(bodyOnly, `<p>x</p><link rel="describedby"`))
}

func TestYAMLScalar(t *testing.T) {
	for in, want := range map[string]string{
		"Home":             "Home",
		"Tea: the basics":  "'Tea: the basics'",
		"#1 tea":           "'#1 tea'",
		"it's":             "it's",
		"'quoted'":         "'''quoted'''",
		"a\nb":             "a b",
		"2026-11-01":       "2026-11-01",
		"ends with colon:": "'ends with colon:'",
	} {
		assert.Equal(t, want, yamlScalar(in), in)
	}
}

func TestMCPChallengeAndMetadata(t *testing.T) {
	s := baseSite()
	s.MCP = &MCP{Path: "/mcp", Name: "Tea tools", Scopes: []string{"orders"}, AuthorizationServers: []string{"https://auth.tea.example"},
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") == "" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.Write([]byte("ok"))
		})}
	h, err := s.Handler(nil)
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", bytes.NewReader([]byte("{}"))))
	assert.Equal(t, 401, rec.Code)
	assert.Equal(t, `Bearer resource_metadata="https://tea.example/.well-known/oauth-protected-resource/mcp", scope="orders"`, rec.Header().Get("WWW-Authenticate"))

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/.well-known/oauth-protected-resource/mcp", nil))
	assert.Equal(t, 200, rec.Code)
	assert.JSONEq(t, `{"resource":"https://tea.example/mcp","authorization_servers":["https://auth.tea.example"],"scopes_supported":["orders"],
		"bearer_methods_supported":["header"],"resource_name":"Tea tools","resource_documentation":"https://tea.example/llms.txt"}`, rec.Body.String())

	req := httptest.NewRequest("POST", "/mcp", nil)
	req.Header.Set("Authorization", "Bearer x")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, "ok", rec.Body.String())
	assert.Empty(t, rec.Header().Get("WWW-Authenticate"))
}

func TestPageCache(t *testing.T) {
	calls := 0
	dec := func(p []byte, path string) []byte { calls++; return append(bytes.Clone(p), "+"+path...) }
	c := newPageCache(2, 1<<20)
	a1, e1 := c.served("/a", []byte("page a"), false, dec)
	a2, e2 := c.served("/a", []byte("page a"), false, dec)
	assert.Equal(t, "page a+/a", string(a1))
	assert.Equal(t, a1, a2)
	assert.Equal(t, e1, e2)
	assert.Equal(t, 1, calls, "an unchanged page is decorated once")
	a3, e3 := c.served("/a", []byte("page A"), false, dec)
	assert.Equal(t, "page A+/a", string(a3))
	assert.NotEqual(t, e1, e3)
	c.served("/b", []byte("b"), false, dec)
	c.served("/c", []byte("c"), false, dec)
	assert.Equal(t, 2, c.cache.len(), "bounded")
	n, _ := c.served("/n", []byte("x"), true, dec)
	assert.Equal(t, "x", string(n))
	assert.Equal(t, 4, calls, "NoInject never decorates")
	big := newPageCache(10, 100)
	big.served("/big", bytes.Repeat([]byte("x"), 60), false, dec)
	assert.Zero(t, big.cache.len(), "a page over a quarter of the cache is not kept")
}

func TestLRUBounds(t *testing.T) {
	c := newLRU[string, int](10, 100)
	for i, k := range []string{"a", "b", "c", "d"} {
		c.put(k, i, 25)
	}
	assert.Equal(t, 4, c.len())
	c.put("e", 4, 25) // 125 bytes: the least recently used goes
	_, ok := c.get("a")
	assert.False(t, ok, "evicted by the byte bound")
	v, ok := c.get("b")
	assert.True(t, ok)
	assert.Equal(t, 1, v)
	c.put("f", 5, 25) // "c" is now the least recently used, not "b"
	_, ok = c.get("c")
	assert.False(t, ok)
	_, ok = c.get("b")
	assert.True(t, ok)
	c.put("b", 9, 10) // a replaced entry is counted once
	assert.Equal(t, 4, c.len())
}
