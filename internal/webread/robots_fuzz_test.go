package webread

import (
	"testing"
)

func FuzzRobots(f *testing.F) {
	for _, s := range []string{
		"",
		"User-agent: *\nDisallow: /\n",
		"\xEF\xBB\xBFUser-agent: a\nAllow: /$\nDisallow: /\n",
		"user-agent a\ndisallow /x*y$\nSitemap: https://a.example/s.xml\n",
		"User-agent: *\rAllow: /%7Euser\r\nDisallow: /*%aa*\n",
	} {
		f.Add([]byte(s), "a", "/x/y")
	}
	f.Fuzz(func(t *testing.T, body []byte, agent, path string) {
		r := ParseRobots(body)
		got := r.Allowed(agent, path)
		// Parsing is deterministic, and the answer does not depend on how
		// the path's unreserved characters are percent-encoded.
		if ParseRobots(body).Allowed(agent, path) != got {
			t.Fatal("two parses disagree")
		}
		if n := normalize(path); normalize(n) != n {
			t.Fatalf("normalize is not idempotent on %q", path)
		}
		if normalize(requestPath(path)) != normalize(requestPath(normalize(path))) {
			return // a percent-encoded '/' or '?' can change the path split
		}
		if r.Allowed(agent, normalize(path)) != got {
			t.Fatalf("%q and its normal form %q answer differently", path, normalize(path))
		}
		if len(r.Sitemaps()) > len(body) {
			t.Fatal("more sitemaps than bytes")
		}
	})
}
