package webread_test

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/webread"
)

func ExampleParseRobots() {
	r := webread.ParseRobots([]byte("User-agent: *\nAllow: /$\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /%7Eprivate\n\nSitemap: https://a.example/sitemap.xml\n"))
	fmt.Println(r.Allowed("ClaudeBot", "/"), r.Allowed("ClaudeBot", "/docs/"))
	fmt.Println(r.Allowed("GPTBot", "/docs/"), r.Allowed("GPTBot", "/~private/a"))
	fmt.Println(r.Sitemaps())
	fmt.Println(webread.RobotsForStatus(503, nil).Allowed("GPTBot", "/"), webread.RobotsForStatus(404, nil).Allowed("GPTBot", "/"))
	// Output:
	// true false
	// true false
	// [https://a.example/sitemap.xml]
	// false true
}
