package webread

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRobotsRules(t *testing.T) {
	for _, c := range []struct {
		name, robots, agent, path string
		want                      bool
	}{
		// The three wrong answers of the former reader (temoto/robotstxt).
		{"allow /$ beats disallow / at the root", "User-agent: *\nAllow: /$\nDisallow: /\n", "GPTBot", "/", true},
		{"allow /$ does not allow a deeper path ending in /", "User-agent: *\nAllow: /$\nDisallow: /\n", "GPTBot", "/docs/", false},
		{"%7E in the rule is ~ in the path", "User-agent: *\nDisallow: /%7Euser\n", "GPTBot", "/~user/page", false},
		{"~ in the rule is %7E in the path", "User-agent: *\nDisallow: /~user\n", "GPTBot", "/%7euser/page", false},
		{"BOM before the first group", "\xEF\xBB\xBFUser-agent: GPTBot\nDisallow: /\n", "GPTBot", "/a", false},

		{"longest match wins", "User-agent: a\nDisallow: /x/\nAllow: /x/y\n", "a", "/x/y/z", true},
		{"longest match wins the other way", "User-agent: a\nAllow: /x/\nDisallow: /x/y\n", "a", "/x/y/z", false},
		{"allow wins a tie", "User-agent: a\nDisallow: /x\nAllow: /x\n", "a", "/x", true},
		{"star", "User-agent: a\nDisallow: /*.pdf\n", "a", "/docs/a.pdf?x", false},
		{"dollar", "User-agent: a\nDisallow: /*.pdf$\n", "a", "/docs/a.pdf?x", true},
		{"dollar matches the end", "User-agent: a\nDisallow: /*.pdf$\n", "a", "/docs/a.pdf", false},
		{"dollar inside a pattern is literal", "User-agent: a\nDisallow: /a$b\n", "a", "/a$bc", false},
		{"several stars", "User-agent: a\nDisallow: /*a*b*c$\n", "a", "/xaybzc", false},
		{"several stars, no match", "User-agent: a\nDisallow: /*a*b*c$\n", "a", "/xaybzcd", true},
		{"anchored last segment after the others", "User-agent: a\nDisallow: /*ab*b$\n", "a", "/ab", true},
		{"query counts", "User-agent: a\nDisallow: /*?id=\n", "a", "/p?id=3", false},
		{"empty disallow matches nothing", "User-agent: a\nDisallow:\n", "a", "/", true},
		{"repeated agent groups merge", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /\n\nUser-agent: a\nDisallow: /y\n", "a", "/y", false},
		{"repeated agent groups merge, first part", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /\n\nUser-agent: a\nDisallow: /y\n", "a", "/x", false},
		{"star group fallback", "User-agent: b\nAllow: /\n\nUser-agent: *\nDisallow: /\n", "a", "/", false},
		{"a specific group replaces the star group", "User-agent: *\nDisallow: /\n\nUser-agent: a\nDisallow: /private\n", "a", "/", true},
		{"no group at all", "Disallow: /\n", "a", "/", true},
		{"agent match is case-insensitive", "User-agent: GPTBOT\nDisallow: /\n", "gptbot", "/", false},
		{"a prefix of the token is another token", "User-agent: GPT\nDisallow: /\n", "GPTBot", "/", true},
		{"a longer token is another token", "User-agent: GPTBot-Extra\nDisallow: /\n", "GPTBot", "/", true},
		{"version suffix is the same product", "User-agent: ClaudeBot/1.0\nDisallow: /\n", "ClaudeBot", "/", false},
		{"rules are case-sensitive", "User-agent: a\nDisallow: /X\n", "a", "/x", true},
		{"crawl-delay is ignored", "User-agent: a\nCrawl-delay: soon\nDisallow: /\n", "a", "/", false},
		{"non-ASCII path and rule", "User-agent: a\nDisallow: /café\n", "a", "/caf%C3%A9", false},
		{"lower-case hex is upper-cased", "User-agent: a\nDisallow: /a%2fb\n", "a", "/a%2Fb", false},
		{"an encoded reserved character stays encoded", "User-agent: a\nDisallow: /a%2Fb\n", "a", "/a/b", true},
		{"a full URL is reduced to its path", "User-agent: a\nDisallow: /p\n", "a", "https://a.example/p?q#f", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ParseRobots([]byte(c.robots)).Allowed(c.agent, c.path))
		})
	}
}

func TestForStatus(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\n")
	for _, c := range []struct {
		status  int
		avail   Availability
		allowed bool
	}{
		{200, AvailabilityParsed, false},
		{204, AvailabilityParsed, false},
		{301, AvailabilityUnavailable, true}, // redirects that did not end
		{400, AvailabilityUnavailable, true},
		{401, AvailabilityUnavailable, true},
		{403, AvailabilityUnavailable, true},
		{404, AvailabilityUnavailable, true},
		{410, AvailabilityUnavailable, true},
		{429, AvailabilityUnreachable, false},
		{500, AvailabilityUnreachable, false},
		{503, AvailabilityUnreachable, false},
		{100, AvailabilityUnreachable, false},
	} {
		r := RobotsForStatus(c.status, body)
		assert.Equal(t, c.avail, r.Availability(), "%d", c.status)
		assert.Equal(t, c.allowed, r.Allowed("a", "/x"), "%d", c.status)
	}
	assert.False(t, RobotsUnreachable().Allowed("a", "/"))
	assert.Equal(t, "unreachable", RobotsUnreachable().Availability().String())
	assert.True(t, (&Robots{}).Allowed("a", "/"), "the zero value allows everything")
}

func TestParseMaxBytes(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	pad := func(n int) string { return strings.Repeat("#\n", n/2) } // n even
	rule := "Disallow: /b\n"
	for _, c := range []struct {
		name      string
		body      string
		truncated bool
		allowB    bool
	}{
		{"rule inside the limit", head + pad(MaxRobotsBytes-len(head)-len(rule)-1) + rule, false, false},
		{"rule past the limit", head + pad(MaxRobotsBytes) + rule, true, true},
		{"rule cut by the limit", head + pad(MaxRobotsBytes-len(head)-6) + "Disallow: /b\n", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ParseRobots([]byte(c.body))
			assert.Equal(t, c.truncated, r.Truncated())
			assert.False(t, r.Allowed("x", "/a"))
			assert.Equal(t, c.allowB, r.Allowed("x", "/b"))
		})
	}
}

func TestSitemaps(t *testing.T) {
	r := ParseRobots([]byte("Sitemap: https://a.example/s1.xml\nUser-agent: *\nsitemap:https://a.example/s2.xml # c\nDisallow: /\n"))
	assert.Equal(t, []string{"https://a.example/s1.xml", "https://a.example/s2.xml"}, r.Sitemaps())
	s := r.Sitemaps()
	s[0] = "changed"
	assert.Equal(t, "https://a.example/s1.xml", r.Sitemaps()[0], "Sitemaps returns a copy")
}

func TestMatchBounded(t *testing.T) {
	// A hostile pattern of many stars against a long path stays linear per
	// segment.
	pat := strings.Repeat("*a", 2000) + "$"
	path := "/" + strings.Repeat("a", 8000) + "b"
	assert.False(t, match(path, normalize(pat)))
	assert.True(t, match(path[:len(path)-1], pat))
}
