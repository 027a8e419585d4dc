package safefetch

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzCheckLocation feeds arbitrary Location values to the redirect check.
// Whatever it accepts must be a URL that CheckURL accepts, https (no
// development mode here), without userinfo, and stable under NormalizeURL.
func FuzzCheckLocation(f *testing.F) {
	for _, s := range []string{
		"/next", "next?x=1", "../up", "//169.254.169.254/", "https://www.shop.example/", "http://shop.example/",
		"file:///etc/passwd", "", " ", "https://a@b@shop.example/", "https://shop.example:0/", "\\\\evil/",
		"https://[::1]/", "https://127.1/", "https://xn--nxasmq6b.example/", "https://ÉXAMPLE.com./a#f", "?q", "#frag",
		"https:shop.example", "HTTPS://SHOP.EXAMPLE:443/", "javascript:alert(1)", "https://shop.example/%2e%2e/",
	} {
		f.Add(s)
	}
	cur, err := url.Parse("https://shop.example/start/page")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		next, err := checkLocation(cur, []string{loc}, false, nil)
		if err != nil {
			if next != nil {
				t.Fatalf("refusal with a URL: %v", next)
			}
			return
		}
		s := next.String()
		if err := CheckURL(s, false); err != nil {
			t.Fatalf("accepted %q as %q, which CheckURL refuses: %v", loc, s, err)
		}
		if next.Scheme != "https" || next.User != nil || strings.ContainsAny(next.Host, "@\\") {
			t.Fatalf("accepted %q as %q", loc, s)
		}
		norm, err := NormalizeURL(s, false)
		if err != nil || norm != s {
			t.Fatalf("not normalized: %q -> %q (%v)", s, norm, err)
		}
	})
}
