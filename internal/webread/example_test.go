package webread_test

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/webread"
)

func ExamplePreferred() {
	offers := []string{"text/html", "text/markdown"}
	fmt.Printf("%q\n", webread.Preferred("text/markdown, text/html;q=0.5", offers))
	fmt.Printf("%q\n", webread.Preferred("text/markdown;q=0, text/html", offers))
	// RFC 9110's qvalue has at most three decimals: q=0.99999 is no weight.
	fmt.Printf("%q\n", webread.Preferred("text/markdown;q=0.99999, text/html;q=0.1", offers))
	// Output:
	// "text/markdown"
	// "text/html"
	// "text/html"
}

func ExampleParseSitemap() {
	doc, err := webread.ParseSitemap([]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://shop.example/pages.xml.gz</loc></sitemap></sitemapindex>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Root, doc.Locs)
	_, err = webread.ParseSitemap([]byte(`<rss version="2.0"/>`))
	fmt.Println(err)
	// Output:
	// sitemapindex [https://shop.example/pages.xml.gz]
	// not a sitemap: root element <rss>, not <urlset> or <sitemapindex>
}
