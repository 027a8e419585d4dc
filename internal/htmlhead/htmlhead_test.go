package htmlhead

import (
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const page = "https://shop.example/products/index.html"

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

func parse(t *testing.T, doc string) *Head {
	t.Helper()
	h, err := Parse(strings.NewReader(doc), mustURL(t, page))
	require.NoError(t, err)
	require.NotNil(t, h)
	return h
}

func hrefs(h *Head) []string {
	var out []string
	for _, l := range h.Links {
		out = append(out, l.Href)
	}
	return out
}

func TestParseFull(t *testing.T) {
	doc := `<!DOCTYPE html>
<html lang="de-AT" class="x">
<head>
  <meta charset="utf-8">
  <title>
     Shop   &amp; more
  </title>
  <meta name="description" content="Everything &lt;cheap&gt;">
  <meta property="og:title" content="Shop">
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'">
  <link rel="describedby" href="/.well-known/knowledge-linkset" type="application/linkset+json">
  <link rel="Alternate  STYLESHEET" href="style.css" type="text/css" media="screen" title="Main">
  <link rel="alternate" hreflang="en" href="https://shop.example/en/">
  <link rel="openagent" type="application/json" href="https://example.com/agents/research.json">
</head>
<body><link rel="describedby" href="/in-body"></body></html>`
	h := parse(t, doc)
	assert.Equal(t, &Head{
		Lang:  "de-AT",
		Title: "Shop & more",
		Links: []Link{
			{Rel: []string{"describedby"}, Href: "https://shop.example/.well-known/knowledge-linkset", RawHref: "/.well-known/knowledge-linkset", Type: "application/linkset+json"},
			{Rel: []string{"alternate", "stylesheet"}, Href: "https://shop.example/products/style.css", RawHref: "style.css", Type: "text/css", Media: "screen", Title: "Main"},
			{Rel: []string{"alternate"}, Href: "https://shop.example/en/", RawHref: "https://shop.example/en/", Hreflang: "en"},
			{Rel: []string{"openagent"}, Href: "https://example.com/agents/research.json", RawHref: "https://example.com/agents/research.json", Type: "application/json"},
		},
		Metas: []Meta{
			{Charset: "utf-8"},
			{Name: "description", Content: "Everything <cheap>"},
			{Property: "og:title", Content: "Shop"},
			{HTTPEquiv: "Content-Security-Policy", Content: "default-src 'self'"},
		},
	}, h)
	assert.Len(t, h.LinksWithRel("DescribedBy"), 1)
	v, ok := h.MetaContent("Description")
	assert.True(t, ok)
	assert.Equal(t, "Everything <cheap>", v)
	_, ok = h.MetaContent("keywords")
	assert.False(t, ok)
}

func TestParse(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		wantHrefs []string
		check     func(t *testing.T, h *Head)
	}{
		{"base resolves every link, even earlier ones",
			`<link rel=a href="x"><base href="/root/sub/"><base href="https://other.example/"><link rel=b href="../y">`,
			[]string{"https://shop.example/root/sub/x", "https://shop.example/root/y"},
			func(t *testing.T, h *Head) { assert.Equal(t, "https://shop.example/root/sub/", h.Base) }},
		{"base without href is skipped",
			`<base target=_blank><base href="https://cdn.example/a/"><link rel=a href=b>`,
			[]string{"https://cdn.example/a/b"},
			func(t *testing.T, h *Head) { assert.Equal(t, "https://cdn.example/a/", h.Base) }},
		{"javascript base is ignored", `<base href="javascript:alert(1)"><link href=/a>`, []string{"https://shop.example/a"},
			func(t *testing.T, h *Head) { assert.Empty(t, h.Base) }},
		{"data base is ignored", `<base href="DATA:text/html,x"><link href=a>`, []string{"https://shop.example/products/a"}, nil},
		{"link inside attribute value", `<meta content="<link href=/bad>"><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"nul in attribute name", "<link hr\x00ef=/x href=/ok>", []string{"https://shop.example/ok"}, nil},
		{"nul in tag name opens body", "<li\x00nk href=/bad><link href=/b>", nil, nil},
		{"unterminated tag at EOF", `<link href=/a><link href="/b`, []string{"https://shop.example/a"}, nil},
		// In HTML content CDATA is a bogus comment ending at the first '>',
		// so "]]>" is text that opens the body.
		{"cdata is a bogus comment", `<link href=/ok><![CDATA[<link href=/bad>]]><link href=/b>`, []string{"https://shop.example/ok"}, nil},
		{"processing instruction", `<?xml version="1.0"?><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"end tag with attributes", `</link href=/bad><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"many attributes", `<link ` + strings.Repeat(`a=b `, 5000) + `href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"comment", `<!-- <link rel=describedby href=/c> --><link rel=x href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"script", `<script>document.write('<link rel=describedby href=/s>')</script><link rel=x href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"script with fake end", `<script>var s = "</scr" + "ipt><link rel=a href=/bad>";</script><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"style", `<style>/* <link rel=a href=/bad> */</style><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"noscript", `<noscript><link rel=stylesheet href=/ns.css></noscript><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"template", `<template><div><link rel=a href=/t1><template><link href=/t2></template><link href=/t3></div></template><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"self-closing script", `<script/><link href=/bad></script><link href=/ok>`, []string{"https://shop.example/ok"}, nil},
		{"title with markup is text", `<title>a <link href=/bad> b</title><link href=/ok>`, []string{"https://shop.example/ok"},
			func(t *testing.T, h *Head) { assert.Equal(t, "a <link href=/bad> b", h.Title) }},
		{"first title wins", `<title>one</title><title>two</title>`, nil,
			func(t *testing.T, h *Head) { assert.Equal(t, "one", h.Title) }},
		{"stops at body", `<link href=/a><body><link href=/b>`, []string{"https://shop.example/a"}, nil},
		{"stops at implied body", `<link href=/a><div>x</div><link href=/b>`, []string{"https://shop.example/a"}, nil},
		{"stops at text", `<link href=/a>hello<link href=/b>`, []string{"https://shop.example/a"}, nil},
		{"whitespace text is fine", "<link href=/a>\n \t<link href=/b>", []string{"https://shop.example/a", "https://shop.example/b"}, nil},
		{"after head still counts", `<head></head><link href=/a><meta name=n content=c><body>`, []string{"https://shop.example/a"},
			func(t *testing.T, h *Head) { assert.Len(t, h.Metas, 1) }},
		{"end body tag opens body", `</body><link href=/a>`, nil, nil},
		{"frameset", `<frameset><link href=/a>`, nil, nil},
		{"leading BOM", "\uFEFF<html lang=en><link href=/a>", []string{"https://shop.example/a"},
			func(t *testing.T, h *Head) { assert.Equal(t, "en", h.Lang) }},
		{"second html tag adds lang", `<html><head><html lang=fr>`, nil,
			func(t *testing.T, h *Head) { assert.Equal(t, "fr", h.Lang) }},
		{"second html tag does not replace lang", `<html lang=en><html lang=fr>`, nil,
			func(t *testing.T, h *Head) { assert.Equal(t, "en", h.Lang) }},
		{"duplicate attributes first wins", `<link rel=a rel=b href=/1 href=/2>`, []string{"https://shop.example/1"},
			func(t *testing.T, h *Head) { assert.Equal(t, []string{"a"}, h.Links[0].Rel) }},
		{"upper-case tags and attributes", `<LINK REL="DescribedBy" HREF="/x" TYPE="a/b">`, []string{"https://shop.example/x"},
			func(t *testing.T, h *Head) {
				assert.Equal(t, []string{"describedby"}, h.Links[0].Rel)
				assert.Equal(t, "a/b", h.Links[0].Type)
			}},
		{"href whitespace stripped", "<link href=\"  /a\tb\n \">", []string{"https://shop.example/ab"},
			func(t *testing.T, h *Head) { assert.Equal(t, "  /a\tb\n ", h.Links[0].RawHref) }},
		{"no href", `<link rel=preconnect>`, []string{""}, nil},
		{"empty href is the page", `<link rel=self href="">`, []string{page}, nil},
		{"unparseable href", `<link href="http://[::1">`, []string{""}, nil},
		{"rel whitespace kinds", "<link rel=\" a\tb\nc\fd \">", []string{""},
			func(t *testing.T, h *Head) { assert.Equal(t, []string{"a", "b", "c", "d"}, h.Links[0].Rel) }},
		{"unclosed comment hides the rest", `<link href=/a><!-- <link href=/b>`, []string{"https://shop.example/a"}, nil},
		{"unclosed attribute quote", `<link href="/a><link href=/b>`, nil, nil},
		{"entities in attributes", `<link href="/a?x=1&amp;y=2&lt;">`, []string{"https://shop.example/a?x=1&y=2<"}, nil},
		{"svg opens body", `<svg><link href=/a></svg>`, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := parse(t, tc.doc)
			assert.Equal(t, tc.wantHrefs, hrefs(h))
			if tc.check != nil {
				tc.check(t, h)
			}
		})
	}
}

func TestParseWithoutPageURL(t *testing.T) {
	h, err := Parse(strings.NewReader(`<link href="/a"><link href="b">`), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"/a", "b"}, hrefs(h))

	h, err = Parse(strings.NewReader(`<base href="https://cdn.example/x/"><link href="b">`), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"https://cdn.example/x/b"}, hrefs(h))
}

func TestParseLimits(t *testing.T) {
	t.Run("links", func(t *testing.T) {
		doc := strings.Repeat(`<link rel=a href=/x>`, MaxLinks+1)
		h, err := Parse(strings.NewReader(doc), nil)
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrLimit)
		assert.Len(t, h.Links, MaxLinks)
	})
	t.Run("exactly max links", func(t *testing.T) {
		doc := strings.Repeat(`<link rel=a href=/x>`, MaxLinks)
		h, err := Parse(strings.NewReader(doc), nil)
		require.NoError(t, err)
		assert.Len(t, h.Links, MaxLinks)
	})
	t.Run("metas", func(t *testing.T) {
		doc := strings.Repeat(`<meta name=a content=b>`, MaxMetas+1)
		h, err := Parse(strings.NewReader(doc), nil)
		assert.ErrorIs(t, err, ErrLimit)
		assert.Len(t, h.Metas, MaxMetas)
	})
	t.Run("huge token", func(t *testing.T) {
		doc := `<link href=/a><link rel="` + strings.Repeat("x", MaxTokenBytes+10) + `">`
		h, err := Parse(strings.NewReader(doc), nil)
		assert.ErrorIs(t, err, ErrLimit)
		assert.Len(t, h.Links, 1)
	})
	t.Run("huge script is fine when under the token bound", func(t *testing.T) {
		doc := `<script>` + strings.Repeat("var x = '<link href=/bad>';\n", 20000) + `</script><link href=/ok>`
		h, err := Parse(strings.NewReader(doc), nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"/ok"}, hrefs(h))
	})
}

func TestParseReaderError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`<title>t</title><link href=/a>`), iotest.ErrReader(boom))
	h, err := Parse(r, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, "t", h.Title)
	assert.Equal(t, []string{"/a"}, hrefs(h))
}

// TestParseStopsReading checks that Parse does not read past the head.
func TestParseStopsReading(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`<head><link href=/a></head><body>`+strings.Repeat(" ", 8192)), iotest.ErrReader(errors.New("read past the head")))
	h, err := Parse(r, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"/a"}, hrefs(h))
}
