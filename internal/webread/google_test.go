package webread

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// googleCases is testdata/google_robots_test.json: every EXPECT of
// google/robotstxt's robots_test.cc whose input is a literal, ported by
// testdata/port_google.py (source and commit in the file).
type googleCases struct {
	Source  string `json:"source"`
	Commit  string `json:"commit"`
	Allowed []struct {
		Test    string `json:"test"`
		Robots  string `json:"robots"`
		Agent   string `json:"agent"`
		URL     string `json:"url"`
		Allowed bool   `json:"allowed"`
	} `json:"allowed"`
	UserAgents []struct {
		Token string `json:"token"`
		Valid bool   `json:"valid"`
	} `json:"user_agents"`
	Paths []struct {
		URL  string `json:"url"`
		Path string `json:"path"`
	} `json:"paths"`
	Escapes []struct {
		Pattern string `json:"pattern"`
		Escaped string `json:"escaped"`
	} `json:"escapes"`
}

// googleDiffers lists the Google expectations this package answers the
// other way, each with the rule that decides it. Google's parser leaves the
// normalization of the path to its caller; RFC 9309 Section 2.2.2 asks it
// of the comparison itself ("If a percent-encoded US-ASCII octet is
// encountered in the URI, it MUST be unencoded prior to comparison, unless
// it is a reserved character"; octets outside US-ASCII "MUST be
// percent-encoded ... prior to comparison"), and its example table pairs
// the rule "/foo/bar/%62%61%7A" with the path "/foo/bar/baz".
var googleDiffers = map[string]string{
	"ID_Encoding /foo/bar/ツ " + "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n":           "RFC 9309 §2.2.2: the path's non-ASCII octets are percent-encoded before comparison, so the unencoded path is the same path",
	"ID_Encoding /foo/bar/ツ " + "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n":   "RFC 9309 §2.2.2: the path's non-ASCII octets are percent-encoded before comparison, so the unencoded path is the same path",
	"ID_Encoding /foo/bar/baz " + "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n": "RFC 9309 §2.2.2 (example table): percent-encoded unreserved octets are decoded, so the rule is /foo/bar/baz",
}

func loadGoogle(t *testing.T) googleCases {
	t.Helper()
	b, err := os.ReadFile("testdata/google_robots_test.json")
	require.NoError(t, err)
	var g googleCases
	require.NoError(t, json.Unmarshal(b, &g))
	require.Len(t, g.Commit, 40)
	return g
}

func TestGoogleAllowed(t *testing.T) {
	g := loadGoogle(t)
	require.Len(t, g.Allowed, 140)
	pass, differ := 0, 0
	for i, c := range g.Allowed {
		t.Run(fmt.Sprintf("%s/%d", c.Test, i), func(t *testing.T) {
			got := ParseRobots([]byte(c.Robots)).Allowed(c.Agent, c.URL)
			key := c.Test + " " + requestPath(c.URL) + " " + c.Robots
			if why, ok := googleDiffers[key]; ok {
				differ++
				assert.Equal(t, !c.Allowed, got, "we differ from Google here: %s", why)
				return
			}
			pass++
			assert.Equal(t, c.Allowed, got, "robots.txt %q, agent %q, url %q", c.Robots, c.Agent, c.URL)
		})
	}
	assert.Equal(t, len(googleDiffers), differ, "every documented difference is used")
	t.Logf("Google cases: %d agree, %d differ by RFC 9309", pass, differ)
}

func TestGoogleValidUserAgent(t *testing.T) {
	for _, c := range loadGoogle(t).UserAgents {
		assert.Equal(t, c.Valid, ValidUserAgent(c.Token), "%q", c.Token)
	}
}

func TestGooglePath(t *testing.T) {
	for _, c := range loadGoogle(t).Paths {
		assert.Equal(t, c.Path, requestPath(c.URL), "%q", c.URL)
	}
}

func TestGoogleEscape(t *testing.T) {
	for _, c := range loadGoogle(t).Escapes {
		assert.Equal(t, c.Escaped, normalize(c.Pattern), "%q", c.Pattern)
	}
}

// TestGoogleLineTooLong ports GoogleOnly_LineTooLong, which builds its
// lines in code: a line is cut after 2083*8-1 bytes.
func TestGoogleLineTooLong(t *testing.T) {
	const maxLen = 2083 * 8
	const eol = 1
	{
		disallow := "disallow: "
		longline := "/x/"
		for len(longline) < maxLen-len("/x/")-len(disallow)+eol {
			longline += "a"
		}
		r := ParseRobots([]byte("user-agent: FooBot\n" + disallow + longline + "/qux\n"))
		assert.True(t, r.Allowed("FooBot", "http://foo.bar/fux"))
		assert.False(t, r.Allowed("FooBot", "http://foo.bar"+longline+"/fux"))
	}
	{
		allow := "allow: "
		a, b := "/x/", "/x/"
		for len(a) < maxLen-len("/x/")-len(allow)+eol {
			a += "a"
			b += "b"
		}
		r := ParseRobots([]byte("user-agent: FooBot\ndisallow: /\n" + allow + a + "/qux\n" + allow + b + "/qux\n"))
		assert.False(t, r.Allowed("FooBot", "http://foo.bar/"))
		assert.True(t, r.Allowed("FooBot", "http://foo.bar"+a+"/qux"))
		assert.True(t, r.Allowed("FooBot", "http://foo.bar"+b+"/fux"))
	}
}

// TestGoogleLineCounts ports ID_LinesNumbersAreCountedCorrectly and
// ID_UTF8ByteOrderMarkIsSkipped: the directives read, the unknown lines,
// and the number of the last line that held one.
func TestGoogleLineCounts(t *testing.T) {
	for _, c := range []struct {
		name                  string
		body                  string
		valid, unknown, lastL int
	}{
		{"unix", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n", 4, 0, 6},
		{"dos", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n", 4, 0, 6},
		{"mac", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r", 4, 0, 6},
		{"no final newline", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /", 4, 0, 6},
		{"mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", 4, 0, 6},
		{"full BOM", "\xEF\xBB\xBFUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, -1},
		{"partial BOM 2", "\xEF\xBBUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, -1},
		{"partial BOM 1", "\xEFUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, -1},
		{"broken BOM", "\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n", 1, 1, -1},
		{"BOM in the middle", "User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n", 1, 1, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ParseRobots([]byte(c.body))
			assert.Equal(t, c.valid, r.directives)
			assert.Equal(t, c.unknown, r.unknown)
			if c.lastL >= 0 {
				assert.Equal(t, c.lastL, r.lastLine)
			}
		})
	}
}

// TestGoogleSitemap ports ID_NonStandardLineExample_Sitemap.
func TestGoogleSitemap(t *testing.T) {
	const loc = "http://foo.bar/sitemap.xml"
	const rest = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"
	assert.Equal(t, []string{loc}, ParseRobots([]byte(rest+"Sitemap: "+loc+"\n")).Sitemaps())
	assert.Equal(t, []string{loc}, ParseRobots([]byte("Sitemap: "+loc+"\n"+rest)).Sitemaps())
	assert.True(t, strings.HasPrefix(loadGoogle(t).Source, "https://github.com/google/robotstxt/blob/"))
}
