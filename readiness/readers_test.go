package readiness

import (
	"net/url"
	"testing"

	"github.com/agentweb/agentweb/internal/webread"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseRobotsExactTokens(t *testing.T) {
	idx := func(token string) int {
		for i, c := range crawlers {
			if c.Token == token {
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
			o := &robotsRead{rules: webread.ParseRobots([]byte(tc.robots))}
			var got []string
			for _, c := range crawlers {
				if !o.allowed(idx(c.Token), "/") {
					got = append(got, c.Token)
				}
			}
			assert.ElementsMatch(t, tc.blocked, got)
		})
	}
}

func tokens() []string {
	var out []string
	for _, c := range crawlers {
		out = append(out, c.Token)
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
		if c.Token == "GPTBot" {
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
			o := &robotsRead{rules: webread.ParseRobots([]byte(tc.robots))}
			assert.Equal(t, tc.want, o.allowed(gpt, tc.path))
		})
	}
}

func TestParseRobotsSitemaps(t *testing.T) {
	o := &robotsRead{rules: webread.ParseRobots([]byte("User-agent: *\nDisallow:\nSitemap: https://a.example/s.xml\nsitemap: https://a.example/t.xml\n"))}
	assert.Equal(t, []string{"https://a.example/s.xml", "https://a.example/t.xml"}, o.sitemaps())
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
			c, err := readCard([]byte(tc.doc))
			require.NoError(t, err)
			require.NotNil(t, c)
			var formats []string
			for _, f := range c.Formats {
				formats = append(formats, string(f))
			}
			assert.Equal(t, tc.formats, formats)
			assert.Equal(t, tc.names, c.Names())
		})
	}
	for _, doc := range []string{`[]`, `"x"`} {
		c, err := readCard([]byte(doc))
		assert.Nil(t, c, "%s is not a card", doc)
		assert.Error(t, err)
	}
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
