package webread

import (
	"fmt"
	"strings"
	"testing"
)

func benchRobots() []byte {
	var b strings.Builder
	b.WriteString("\xEF\xBB\xBFSitemap: https://a.example/sitemap.xml\n")
	for i := range 40 {
		fmt.Fprintf(&b, "User-agent: Bot%c%c\n", 'a'+i%26, 'a'+i/26)
		for j := range 25 {
			fmt.Fprintf(&b, "Disallow: /private/%d/*.pdf$\nAllow: /private/%d/public/%%7Euser\n", j, j)
		}
	}
	b.WriteString("User-agent: *\nDisallow: /admin\nAllow: /$\n")
	return []byte(b.String())
}

func BenchmarkRobotsParse(b *testing.B) {
	body := benchRobots()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		ParseRobots(body)
	}
}

func BenchmarkRobotsAllowed(b *testing.B) {
	r := ParseRobots(benchRobots())
	for b.Loop() {
		r.Allowed("Botbb", "/private/24/public/~user/file.pdf?x=1")
		r.Allowed("GPTBot", "/admin/x")
	}
}
