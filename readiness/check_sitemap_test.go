package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// sitemapEdges are the edge cases of the sitemap check.
func sitemapEdges(t testing.TB) []scanEdge {
	const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://shop.example/sitemaps/pages.xml</loc></sitemap></sitemapindex>`
	return []scanEdge{
		{
			name: "robots.txt names a sitemap index",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":         text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemaps/index.xml\n"),
				"/sitemaps/index.xml": text("application/xml", index),
				"/sitemaps/pages.xml": text("application/xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/products</loc></url><url><loc>https://shop.example/about</loc></url></urlset>`),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "a <sitemapindex> with 1 loc (1 of 1 child sitemaps read, 2 page URLs), all on shop.example", checkByID(r, "sitemap").Receipt.Received)
				// The routes come from the index's children.
				assert.Equal(t, []string{"https://shop.example/", "https://shop.example/products", "https://shop.example/about"}, r.Scope.Routes)
			},
		},
		{
			name: "a sitemap index whose child is missing",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":         text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemaps/index.xml\n"),
				"/sitemaps/index.xml": text("application/xml", index),
			},
			want: map[string]Verdict{"sitemap": VerdictPartial},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "sitemap").Receipt.Received, "child sitemaps that are not usable: https://shop.example/sitemaps/pages.xml: answered 404")
			},
		},
		{
			name: "a sitemap index with more children than are read",
			paths: func() map[string]http.HandlerFunc {
				var b strings.Builder
				b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
				m := map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/index.xml\n")}
				for i := range maxSitemapChildren + 2 {
					fmt.Fprintf(&b, "<sitemap><loc>https://shop.example/s%d.xml</loc></sitemap>", i)
					m[fmt.Sprintf("/s%d.xml", i)] = text("application/xml", fmt.Sprintf(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/p%d</loc></url></urlset>`, i))
				}
				b.WriteString(`</sitemapindex>`)
				m["/index.xml"] = text("application/xml", b.String())
				return m
			}(),
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "sitemap")
				assert.Contains(t, c.Receipt.Received, fmt.Sprintf("(%d of %d child sitemaps read, %d page URLs)", maxSitemapChildren, maxSitemapChildren+2, maxSitemapChildren))
				assert.Contains(t, c.Receipt.Notes, fmt.Sprintf("read %d of the index's %d child sitemaps", maxSitemapChildren, maxSitemapChildren+2))
				assert.Len(t, c.Receipt.Requests, 2+maxSitemapChildren, "robots.txt, the index and the children read")
			},
		},
		{
			name: "a gzip-compressed sitemap",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":     text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemap.xml.gz\n"),
				"/sitemap.xml.gz": text("application/gzip", string(gzipped(t, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/about</loc></url></urlset>`)))),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "a gzip-compressed <urlset> with 1 loc, all on shop.example", checkByID(r, "sitemap").Receipt.Received)
				assert.Contains(t, r.Scope.Routes, "https://shop.example/about")
			},
		},
		{
			name: "a gzip bomb is refused at the body cap",
			paths: map[string]http.HandlerFunc{
				"/sitemap.xml": text("application/gzip", string(gzipped(t, append([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`), make([]byte, 64<<20)...)))),
			},
			want: map[string]Verdict{"sitemap": VerdictFail},
			check: func(t *testing.T, r *Report) {
				got := checkByID(r, "sitemap").Receipt.Received
				assert.Contains(t, got, "https://shop.example/sitemap.xml: gzip sitemap refused: uncompressed size over the cap:")
				assert.Contains(t, got, "inflate past 1048576 bytes")
			},
		},
		{
			name:  "a document that is not a sitemap says so once",
			paths: map[string]http.HandlerFunc{"/sitemap.xml": text("application/xml", `<rss version="2.0"><channel/></rss>`)},
			want:  map[string]Verdict{"sitemap": VerdictFail},
			check: func(t *testing.T, r *Report) {
				got := checkByID(r, "sitemap").Receipt.Received
				assert.Equal(t, "https://shop.example/sitemap.xml: not a sitemap: root element <rss>, not <urlset> or <sitemapindex>", got)
				assert.Equal(t, 1, strings.Count(got, "not a sitemap"))
			},
		},
		{
			name: "robots.txt names a sitemap on another site",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://elsewhere.example/sitemap.xml\n"),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "sitemap")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "another site, not read")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "the default location")
			},
		},
		{
			name: "the sitemap robots.txt names is missing",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\nSitemap: https://shop.example/gone.xml\n"),
			},
			want: map[string]Verdict{"sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "sitemap")
				assert.Len(t, c.Receipt.Requests, 3, "robots.txt, the named sitemap and /sitemap.xml")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "answered 404")
			},
		},
	}
}
