package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

const long = "We sell loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in Vienna and shipped within the European Union in two working days. Every tea is tasted before it is listed, and every listing says where it was grown and when it was picked."

// plainFolder writes a static site of five plain HTML pages with no agent
// documents (no lang, canonical, JSON-LD or Markdown), a logo, and the
// config of its facts, and returns the folder and the config's path.
func plainFolder(t *testing.T, config string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	write := func(name, body string) {
		p := filepath.Join(site, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	page := func(name, title, desc, body string) {
		write(name, fmt.Sprintf(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title><meta name="description" content="%s"></head>
<body><header><a href="/">Tea Shop</a> <a href="/teas/">Teas</a> <a href="/about.html">About</a></header>
<main><h1>%s</h1><p>%s</p></main>
<footer><a href="/contact.html">Contact us</a></footer></body></html>`, title, desc, title, body))
	}
	page("index.html", "Tea Shop", "Loose-leaf tea from small gardens.", long)
	page("teas/index.html", "Our teas", "The catalogue.", "Black, green, oolong and white teas. "+long)
	page("about.html", "About us", "Who we are.", "Who we are and how we choose our teas. "+long)
	page("contact.html", "Contact", "How to reach a person.", "Write to people@tea.example; a person answers within a working day. "+long)
	page("shipping.html", "Shipping", "Where we ship.", "Where we ship and what it costs. "+long)
	write("logo.svg", `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#3a7d44"/></svg>`)
	write(".git/config", "secret")
	cfg := filepath.Join(dir, "site.json")
	require.NoError(t, os.WriteFile(cfg, []byte(config), 0o644))
	return site, cfg
}

const teaConfig = `{
  "origin": "https://tea.example",
  "name": "Tea Shop",
  "description": "Loose-leaf tea from small gardens, shipped within the EU.",
  "language": "en",
  "contact": {"email": "people@tea.example", "url": "/contact.html"},
  "crawlers": {"training": "disallow", "search": "allow", "user": "allow"},
  "logo": "/logo.svg"
}`

// onNetwork returns a serveFunc that mounts the handler on a fetchtest
// network at the config's host and hands it to use, instead of listening.
func onNetwork(t *testing.T, use func(n *fetchtest.Network)) serveFunc {
	return func(ctx context.Context, addr string, h http.Handler, stderr io.Writer) error {
		assert.Equal(t, "127.0.0.1:8080", addr, "the default address is loopback")
		n := fetchtest.New()
		defer n.Close()
		n.Site("tea.example", h)
		use(n)
		return nil
	}
}

// A folder of five plain HTML pages served by the program meets every
// requirement and has no failing or partial check.
func TestServedFolderScansReady(t *testing.T) {
	dir, cfg := plainFolder(t, teaConfig)
	var rep *readiness.Report
	serve := onNetwork(t, func(n *fetchtest.Network) {
		var err error
		rep, err = readiness.Scan(context.Background(), "https://tea.example/", &readiness.Options{Client: n.Client()})
		require.NoError(t, err)
	})
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"-dir", dir, "-config", cfg}, &stdout, &stderr, serve), stderr.String())
	require.NotNil(t, rep)
	for _, q := range rep.Requirements {
		assert.True(t, q.Met, "%s %s: %s", q.ID, q.Status, q.Why)
	}
	for _, c := range rep.Checks {
		assert.NotContains(t, []readiness.Verdict{readiness.VerdictFail, readiness.VerdictPartial}, c.Verdict,
			"%s: %s %v", c.ID, c.Receipt.Received, c.Receipt.Notes)
	}
	assert.True(t, rep.Ready)
}

func TestServedFolder(t *testing.T) {
	dir, cfg := plainFolder(t, teaConfig)
	md := "# About us\n\nWe choose every tea ourselves.\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "about.md"), []byte(md), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "openapi.json"), []byte(`{"openapi":"3.1.0","info":{"title":"Tea","version":"1"},"paths":{"/teas":{"get":{"operationId":"listTeas","summary":"List teas","responses":{"200":{"description":"ok"}}}}}}`), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "img"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "img", "leaf.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), 0o644))
	mtime := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "shipping.html"), mtime, mtime))

	get := func(c *safefetch.Client, path, accept string) (*safefetch.Response, string) {
		h := http.Header{}
		if accept != "" {
			h.Set("Accept", accept)
		}
		resp, err := c.Get(context.Background(), "https://tea.example"+path, h)
		require.NoError(t, err)
		return resp, string(resp.Body)
	}
	serve := onNetwork(t, func(n *fetchtest.Network) {
		c := n.Client()
		resp, body := get(c, "/about.html", "text/markdown")
		assert.Equal(t, "text/markdown; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.True(t, strings.HasSuffix(body, md), "the page's own Markdown: %s", body)
		assert.Contains(t, resp.Header.Values("Vary"), "Accept")

		_, body = get(c, "/llms.txt", "")
		for _, want := range []string{"# Tea Shop", "[Our teas](https://tea.example/teas/): The catalogue.", "[Shipping](https://tea.example/shipping.html): Where we ship.", "/openapi.json"} {
			assert.Contains(t, body, want)
		}
		assert.NotContains(t, body, "index.html")
		_, body = get(c, "/sitemap.xml", "")
		assert.Contains(t, body, "<loc>https://tea.example/shipping.html</loc><lastmod>2026-11-20T08:00:00Z</lastmod>")
		_, body = get(c, "/robots.txt", "")
		assert.Contains(t, body, "User-agent: GPTBot")
		resp, body = get(c, "/openapi.json", "")
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, body, "listTeas")
		resp, _ = get(c, "/.git/config", "")
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, "dot files are not served")
		resp, _ = get(c, "/img/", "")
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, "no directory listing")
		resp, body = get(c, "/img/leaf.svg", "")
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, body, "<svg")
	})
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"-dir", dir, "-config", cfg}, &stdout, &stderr, serve), stderr.String())
}

func TestCheck(t *testing.T) {
	dir, cfg := plainFolder(t, teaConfig)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"-check", "-dir", dir, "-config", cfg}, &stdout, &stderr, nil), stderr.String())
	out := stdout.String()
	for _, want := range []string{
		"/llms.txt                    200 text/plain; charset=utf-8\n",
		"/.well-known/agents.json     200 application/json",
		"/teas/                       200 text/markdown; charset=utf-8 (Accept: text/markdown)\n",
		"/about.html                  200 text/html; charset=utf-8 (Accept: text/html)\n",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "/openapi.json", "no OpenAPI document in the folder")

	// A listed page the folder lacks answers 404: -check exits 1.
	listed := strings.Replace(teaConfig, `"logo"`, `"pages": [{"path": "/", "title": "Tea Shop", "updated": "2026-11-20"}, {"path": "/gone.html", "title": "Gone"}], "logo"`, 1)
	require.NoError(t, os.WriteFile(cfg, []byte(listed), 0o644))
	stdout.Reset()
	assert.Equal(t, 1, run(context.Background(), []string{"-check", "-dir", dir, "-config", cfg}, &stdout, &stderr, nil))
	assert.Contains(t, stdout.String(), "/gone.html                   404")
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		args         []string // replaces -dir DIR -config FILE when set
		want         string
	}{
		{name: "unknown member", config: strings.Replace(teaConfig, `"language"`, `"lang": "en", "language"`, 1), want: `site.json: json: unknown field "lang"`},
		{name: "bad crawler value", config: strings.Replace(teaConfig, `"training": "disallow"`, `"training": "no"`, 1), want: `site.json: crawlers.training: "no" is neither "allow" nor "disallow"`},
		{name: "bad date", config: strings.Replace(teaConfig, `"logo"`, `"pages": [{"path": "/", "title": "T", "updated": "20 Nov 2026"}], "logo"`, 1), want: `site.json: pages[0].updated: "20 Nov 2026" is not an RFC 3339 date or date-time`},
		{name: "syntax", config: `{"origin": }`, want: "site.json: byte 12: invalid character '}'"},
		{name: "trailing data", config: teaConfig + "{}", want: "site.json: data after the JSON object"},
		{name: "kit refuses", config: strings.Replace(teaConfig, `"https://tea.example"`, `"http://tea.example"`, 1), want: `site.json: publish: invalid site: Origin: "http://tea.example" is not an https origin`},
		{name: "missing dir", args: []string{"-dir", "/nonexistent/site", "-config", "CFG"}, want: "publish: -dir: stat /nonexistent/site: no such file or directory"},
		{name: "no flags", args: []string{}, want: "-dir and -config are required"},
		{name: "positional", args: []string{"-dir", "DIR", "-config", "CFG", "extra"}, want: `unexpected argument "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			config := tc.config
			if config == "" {
				config = teaConfig
			}
			dir, cfg := plainFolder(t, config)
			args := []string{"-dir", dir, "-config", cfg}
			if tc.args != nil {
				args = nil
				for _, a := range tc.args {
					args = append(args, strings.NewReplacer("DIR", dir, "CFG", cfg).Replace(a))
				}
			}
			var stdout, stderr bytes.Buffer
			served := false
			code := run(context.Background(), args, &stdout, &stderr, func(context.Context, string, http.Handler, io.Writer) error {
				served = true
				return nil
			})
			assert.Equal(t, 2, code)
			assert.False(t, served)
			assert.Contains(t, stderr.String(), tc.want)
		})
	}
}

func TestWalkBounds(t *testing.T) {
	dir, cfg := plainFolder(t, teaConfig)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "untitled.html"), []byte("<html><body>no title</body></html>"), 0o644))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run(context.Background(), []string{"-check", "-dir", dir, "-config", cfg}, &stdout, &stderr, nil))
	assert.Contains(t, stderr.String(), "untitled.html: no <title>")

	require.NoError(t, os.Remove(filepath.Join(dir, "untitled.html")))
	deep := dir
	for range maxDepth + 1 {
		deep = filepath.Join(deep, "d")
	}
	require.NoError(t, os.MkdirAll(deep, 0o755))
	stderr.Reset()
	assert.Equal(t, 2, run(context.Background(), []string{"-check", "-dir", dir, "-config", cfg}, &stdout, &stderr, nil))
	assert.Contains(t, stderr.String(), "more than 16 folders deep")
}

// The walk visits at most maxFiles entries: a folder with more is refused
// with a message that says to list the pages in the config.
func TestWalkFileBound(t *testing.T) {
	page := &fstest.MapFile{Data: []byte("<title>T</title>")}
	root := fstest.MapFS{}
	for i := range maxFiles - 1 {
		root[fmt.Sprintf("p%05d.html", i)] = page
	}
	pages, err := walkPages(root)
	require.NoError(t, err, "the folder itself and %d files", maxFiles-1)
	assert.Len(t, pages, maxFiles-1)
	root["z.html"] = page
	_, err = walkPages(root)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "more than 10000 files: list the pages in the config instead")
}

func TestHeadFacts(t *testing.T) {
	for _, tc := range []struct{ in, title, desc string }{
		{`<title> A &amp; B
		  </title><META NAME="Description" content=" one  two ">`, "A & B", "one two"},
		{`<html><head></head><body><title>late</title></body>`, "", ""},
		{`<title>T</title><body><meta name=description content=late>`, "T", ""},
		{`<meta name="keywords" content="k"><meta name=description content=d><meta name=description content=e>`, "", "d"},
		{`<title>unclosed`, "unclosed", ""},
	} {
		title, desc, err := headFacts(strings.NewReader(tc.in))
		require.NoError(t, err)
		assert.Equal(t, tc.title, title, tc.in)
		assert.Equal(t, tc.desc, desc, tc.in)
	}
	_, _, err := headFacts(strings.NewReader("<title>" + strings.Repeat("x", 2<<20)))
	assert.Error(t, err, "a title past the tokenizer's buffer")
}

func TestListen(t *testing.T) {
	dir, cfg := plainFolder(t, teaConfig)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run(ctx, []string{"-dir", dir, "-config", cfg, "-addr", "127.0.0.1:0"}, &stdout, &stderr, nil), stderr.String())
	assert.Contains(t, stderr.String(), "serving on http://127.0.0.1:")
	stderr.Reset()
	assert.Equal(t, 2, run(context.Background(), []string{"-dir", dir, "-config", cfg, "-addr", "256.0.0.1:1"}, &stdout, &stderr, nil))
	assert.Contains(t, stderr.String(), "publish: listen tcp")
}
