package publish

import (
	"strings"

	"github.com/agentweb/agentweb/internal/webread"
)

// robotsText builds /robots.txt (RFC 9309). It writes one group per
// crawler class the site refuses or admits explicitly. Each lists the
// product tokens of that class from the one crawler table the scanner also
// judges by. Then comes the group for every other crawler, with Disallow
// lines and the optional Content-Signal line, then the Sitemap line. A
// class that is allowed gets an explicit "Allow: /" group too, so that no
// broader rule can shut it out by accident.
//
// [RFC 9309]: https://www.rfc-editor.org/rfc/rfc9309
func (k *kit) robotsText() []byte {
	var b strings.Builder
	b.WriteString("# robots.txt for " + oneLine(k.site.Name) + ", written by agentweb's publish kit.\n")
	classes := []struct {
		class  webread.CrawlerClass
		access Access
		what   string
	}{
		{webread.CrawlerTraining, k.site.Crawlers.Training, "AI training crawlers"},
		{webread.CrawlerSearch, k.site.Crawlers.Search, "AI search and citation crawlers"},
		{webread.CrawlerUser, k.site.Crawlers.User, "agents acting for a person"},
	}
	for _, c := range classes {
		verb := "are welcome"
		if c.access == Disallow {
			verb = "are refused"
		}
		b.WriteString("\n# " + c.what + " " + verb + ".\n")
		for _, cr := range webread.Crawlers() {
			if cr.Class == c.class {
				b.WriteString("User-agent: " + cr.Token + "\n")
			}
		}
		if c.access == Disallow {
			b.WriteString("Disallow: /\n")
			continue
		}
		for _, d := range k.site.Disallow {
			b.WriteString("Disallow: " + d + "\n")
		}
		b.WriteString("Allow: /\n")
	}
	b.WriteString("\nUser-agent: *\n")
	for _, d := range k.site.Disallow {
		b.WriteString("Disallow: " + d + "\n")
	}
	b.WriteString("Allow: /\n")
	if k.site.ContentSignal != "" {
		b.WriteString("Content-Signal: " + k.site.ContentSignal + "\n")
	}
	b.WriteString("\nSitemap: " + k.abs(sitemapPath) + "\n")
	return []byte(b.String())
}
