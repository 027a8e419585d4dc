package publish_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/webread"
	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func teaNet(t *testing.T, s publish.Site) (*fetchtest.Network, *safefetch.Client) {
	t.Helper()
	h, err := s.Handler(plainPages())
	require.NoError(t, err)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("tea.example", h)
	return n, n.Client()
}

func get(t *testing.T, c *safefetch.Client, url, accept string) *safefetch.Response {
	t.Helper()
	h := http.Header{}
	if accept != "" {
		h.Set("Accept", accept)
	}
	resp, err := c.Get(context.Background(), url, h)
	require.NoError(t, err)
	return resp
}

func TestNegotiation(t *testing.T) {
	_, c := teaNet(t, teaSite())
	for _, tt := range []struct {
		accept string
		md     bool
	}{
		{"text/markdown", true},
		{"text/markdown, text/html;q=0.9", true},
		{"text/*;q=0.5, text/markdown", true},
		{"text/markdown;q=0, text/html", false},
		{"text/html", false},
		{"", false},
		{"*/*", false},
		{"text/markdown;q=0.99999, text/html;q=0.1", false}, // RFC 9110: at most three decimals, so q=0
		{"text/markdown;q=.5, text/html;q=0.1", false},
		{"application/json", false},
	} {
		t.Run(tt.accept, func(t *testing.T) {
			resp := get(t, c, "https://tea.example/teas", tt.accept)
			assert.Equal(t, 200, resp.StatusCode)
			assert.Contains(t, resp.Header.Values("Vary"), "Accept", "every response of a negotiated route varies on Accept")
			if tt.md {
				assert.Equal(t, "text/markdown; charset=utf-8", resp.Header.Get("Content-Type"))
				assert.True(t, bytes.HasPrefix(resp.Body, []byte("---\ntitle: Our teas\ndescription: The catalogue.\ncanonical: https://tea.example/teas\nupdated: 2026-11-20\nlanguage: en\n---\n\n")), "%s", resp.Body)
				assert.Contains(t, string(resp.Body), "# Our teas")
			} else {
				assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
				assert.Contains(t, string(resp.Body), `<link rel="alternate" type="text/markdown" href="/teas">`)
			}
			links := strings.Join(resp.Header.Values("Link"), ", ")
			for _, want := range []string{`</llms.txt>; rel="describedby"; type="text/plain"`, `</agents.json>; rel="alternate"; type="application/json"`, `</teas>; rel="alternate"; type="text/markdown"`} {
				assert.Contains(t, links, want)
			}
		})
	}
	// Conditional GET of each form, by its own ETag.
	md := get(t, c, "https://tea.example/teas", "text/markdown")
	h := http.Header{"Accept": {"text/markdown"}, "If-None-Match": {md.Header.Get("ETag")}}
	resp, err := c.Get(context.Background(), "https://tea.example/teas", h)
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	h.Set("Accept", "text/html")
	resp, err = c.Get(context.Background(), "https://tea.example/teas", h)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode, "the HTML form has another ETag")
	// A page the site does not have is passed through, Vary included.
	resp = get(t, c, "https://tea.example/nope", "text/markdown")
	assert.Equal(t, 404, resp.StatusCode)
}

func TestPageOwnMarkdown(t *testing.T) {
	s := teaSite()
	s.Pages[1].Markdown = []byte("# Our teas\n\nBlack, green and white.")
	_, c := teaNet(t, s)
	resp := get(t, c, "https://tea.example/teas", "text/markdown")
	assert.Equal(t, "---\ntitle: Our teas\ndescription: The catalogue.\ncanonical: https://tea.example/teas\nupdated: 2026-11-20\nlanguage: en\n---\n\n# Our teas\n\nBlack, green and white.\n", string(resp.Body))
	assert.Contains(t, resp.Header.Values("Vary"), "Accept")
}

func TestTwinsAndRobots(t *testing.T) {
	_, c := teaNet(t, teaSite())
	a := get(t, c, "https://tea.example/.well-known/agents.json", "")
	b := get(t, c, "https://tea.example/agents.json", "")
	require.Equal(t, 200, a.StatusCode)
	assert.Equal(t, a.Body, b.Body, "the twins are byte-equal")
	assert.Contains(t, string(a.Body), `"interfaces": []`, "a site without MCP or OpenAPI says so")
	assert.Equal(t, "*", a.Header.Get("Access-Control-Allow-Origin"))

	robots := get(t, c, "https://tea.example/robots.txt", "")
	r := webread.ParseRobots(robots.Body)
	for _, cr := range webread.Crawlers() {
		want := cr.Class != webread.CrawlerTraining
		assert.Equal(t, want, r.Allowed(cr.Token, "/teas"), cr.Token)
	}
	assert.True(t, r.Allowed("SomeBrowser", "/"))
	assert.Equal(t, []string{"https://tea.example/sitemap.xml"}, r.Sitemaps())

	llms := get(t, c, "https://tea.example/llms.txt", "")
	assert.True(t, strings.HasPrefix(string(llms.Body), "# Tea Shop\n\n> "))
	sm := get(t, c, "https://tea.example/sitemap.xml", "")
	parsed, err := webread.ParseSitemap(sm.Body)
	require.NoError(t, err)
	assert.Len(t, parsed.Locs, 5)
	ag := get(t, c, "https://tea.example/agentic.json", "")
	assert.Equal(t, 200, ag.StatusCode)
	txt := get(t, c, "https://tea.example/agentic.txt", "")
	assert.True(t, strings.HasPrefix(string(txt.Body), "# Agentic site index\n"))
}

// A page handler that streams (flushes) is passed through untouched.
func TestStreamingPassesThrough(t *testing.T) {
	s := teaSite()
	h, err := s.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head></head><body>")
		w.(http.Flusher).Flush()
		io.WriteString(w, "streamed</body></html>")
	}))
	require.NoError(t, err)
	n := fetchtest.New()
	defer n.Close()
	n.Site("tea.example", h)
	resp := get(t, n.Client(), "https://tea.example/live", "text/markdown")
	assert.Equal(t, "<html><head></head><body>streamed</body></html>", string(resp.Body))
	assert.Contains(t, resp.Header.Values("Vary"), "Accept")
}
