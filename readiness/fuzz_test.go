package readiness

import (
	"testing"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/webread"
)

// The fuzz targets check that the readers of remote data never panic, stay
// within their bounds, and keep their invariants on any input.

func FuzzParseRobots(f *testing.F) {
	for _, s := range []string{"", "User-agent: *\nDisallow: /\n", "User-agent: GPTBot\nUser-agent: Claude\nDisallow: /x\nAllow: /x/y\nCrawl-delay: x\nSitemap: https://a.example/s.xml\n", "user-agent:*\r\ndisallow:/*?$\r\n", "\xff\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		o := &robotsRead{rules: webread.ParseRobots(b)}
		for i := range crawlers {
			o.allowed(i, "/")
			o.allowed(i, "/a?b=c")
		}
	})
}

func FuzzReadCard(f *testing.F) {
	for _, s := range []string{
		`{"name":"S","publishes":{"a":"b"},"interfaces":[{"type":"mcp","url":"u"}],"auth":{"type":"oauth2"},"contact":{"email":"e"}}`,
		`{"site":{"name":"n"},"capabilities":[{"endpoint":"e","auth":{"type":"none"}}]}`,
		`{"info":{},"sources":[{"path":"p"}]}`, `{"site_info":{},"authentication":{"required":false},"intents":[{}]}`, `[]`, `1`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, jerr := strictjson.Decode(b)
		c, err := readCard(b)
		if c == nil {
			if _, ok := v.(map[string]any); ok && jerr == nil {
				t.Fatalf("an object gave no card: %v", err)
			}
			return
		}
		if len(c.Interfaces) > maxCardItems {
			t.Fatalf("%d interfaces kept", len(c.Interfaces))
		}
		c.Names()
		canonicalJSON(b)
	})
}
