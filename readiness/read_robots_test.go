package readiness

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/webread"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The directives Lighthouse 13.5.0's robots-txt audit accepts raise no note;
// any other does, once, with its header alternative where there is one.
func TestLighthouseRobotsNotes(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"every safelisted directive", "User-agent: *\nDisallow: /a\nAllow: /\nSitemap: https://x.example/s.xml\nCrawl-delay: 1\nClean-param: a\nHost: x.example\nRequest-rate: 1/5\nVisit-time: 0600-0845\nNoindex: /b\nCONTENT-SIGNAL: search=yes\n", nil},
		{"comments and blank lines", "# Agentmap: /x\n\n   \nUser-agent: *\n", nil},
		{"a line without a colon is not a directive", "Agentmap /x\n", nil},
		{"Content-Usage", "User-agent: *\nContent-Usage: train-ai=n\n", []string{`line 2: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "content-usage" as unknown; to keep that audit clean, send the same preferences as a Content-Usage response header`}},
		{"an unknown directive with no alternative", "\rX-Robots: 1\r", []string{`line 2: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "x-robots" as unknown`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lighthouseRobotsNotes([]byte(tc.body))
			assert.Len(t, got, len(tc.want), "%q", got)
			for i := range min(len(got), len(tc.want)) {
				assert.Contains(t, got[i], tc.want[i])
			}
		})
	}
	t.Run("only the directives asked for", func(t *testing.T) {
		got := lighthouseRobotsNotes([]byte("Agentmap: /a\nContent-Usage: train-ai=n\n"), "content-usage")
		assert.Len(t, got, 1)
		assert.Contains(t, got[0], `"content-usage"`)
	})
	t.Run("bounded", func(t *testing.T) {
		var b strings.Builder
		for i := range 5000 {
			fmt.Fprintf(&b, "D%d: x\n", i)
		}
		got := lighthouseRobotsNotes([]byte(b.String()))
		assert.Len(t, got, maxLighthouseNotes)
	})
}

func FuzzLighthouseRobotsNotes(f *testing.F) {
	f.Add([]byte("User-agent: *\nAgentmap: /a\nLicense: b\n"))
	f.Add([]byte("\r\r:\n#:"))
	f.Fuzz(func(t *testing.T, body []byte) {
		got := lighthouseRobotsNotes(body)
		assert.LessOrEqual(t, len(got), maxLighthouseNotes)
	})
}

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

func BenchmarkParseRobots(b *testing.B) {
	body := []byte(strings.Repeat("User-agent: GPTBot\nUser-agent: Some-Other-Bot\nDisallow: /private/\nAllow: /private/public\n\n", 200) + "User-agent: *\nAllow: /\n")
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		webread.ParseRobots(body)
	}
}
