package agentic

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustURL(t testing.TB, s string) *url.URL {
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

func TestParseHTML(t *testing.T) {
	page := `<!doctype html><html><head><title> Shop
	 Example </title>
	<meta name="description" content="Buy\u202e things.">
	<meta property="og:site_name" content="Shop">
	<link rel="service-desc" type="application/openapi+json" href="/openapi.json">
	<!-- <link rel="service-doc" href="/commented"> -->
	<script>document.write('<a href="/scripted">x</a>')</script>
	<noscript><a href="/noscript">n</a></noscript>
	<base href="https://shop.example/base/">
	</head><body>
	<a href="docs/intro#top">Read the <b>docs</b></a>
	<a href="https://docs.other.example/shop">Documentation</a>
	<a href="javascript:alert(1)">js</a>
	<a href="mailto:x@example.com">mail</a>
	<template><a href="/template">t</a></template>
	<a href="#frag">frag</a>
	</body></html>`
	info := parseHTML([]byte(page), mustURL(t, "https://shop.example/"))
	assert.Equal(t, "Shop Example", info.title)
	assert.Equal(t, "Shop", info.siteName)
	assert.Equal(t, `Buy\u202e things.`, info.description) // entity-free text kept as written
	var hrefs []string
	for _, l := range info.links {
		hrefs = append(hrefs, l.href)
	}
	assert.Equal(t, []string{"https://shop.example/openapi.json", "https://shop.example/base/docs/intro", "https://docs.other.example/shop"}, hrefs)
	assert.Equal(t, "Read the docs", info.links[1].text)
	assert.Equal(t, []string{"service-desc"}, info.links[0].rel)
}

func TestParseMarkdown(t *testing.T) {
	md := "# Shop\n\n> Buy things online.\n\n## Docs\n- [API guide](/docs/api.md): how to\n- [Spec](https://shop.example/openapi.json \"OpenAPI\")\n- <https://mcp.shop.example/mcp>\n- [bad](javascript:alert(1))\n"
	info := parseMarkdown([]byte(md), mustURL(t, "https://shop.example/llms.txt"))
	assert.Equal(t, "Shop", info.title)
	assert.Equal(t, "Buy things online.", info.description)
	require.Len(t, info.links, 3)
	assert.Equal(t, "https://shop.example/docs/api.md", info.links[0].href)
	assert.Equal(t, "API guide", info.links[0].text)
	assert.Equal(t, "https://shop.example/openapi.json", info.links[1].href)
	assert.Equal(t, "https://mcp.shop.example/mcp", info.links[2].href)
}

func TestParseOpenAPIOrder(t *testing.T) {
	doc := `{"openapi":"3.1.0","info":{"title":"Shop API"},"paths":{
	"/z":{"post":{"operationId":"createZ","summary":"  Create z  "},"get":{"operationId":"listZ"},"parameters":[]},
	"/a/{id}":{"delete":{},"x-internal":{"get":1},"GET":{"operationId":"upper"}},
	"/n":{"get":{"operationId":5}}}}`
	d, err := parseOpenAPI([]byte(doc))
	require.NoError(t, err)
	assert.Equal(t, "3.1.0", d.version)
	assert.Equal(t, "Shop API", d.title)
	var got []string
	for _, o := range d.ops {
		id := "-"
		if o.operationID != nil {
			id = *o.operationID
		}
		if o.operationIDNotText {
			id = "!"
		}
		got = append(got, o.method+" "+o.path+" "+id)
	}
	assert.Equal(t, []string{"POST /z createZ", "GET /z listZ", "DELETE /a/{id} -", "GET /n !"}, got)

	for name, bad := range map[string]string{
		"swagger 2":  `{"swagger":"2.0","paths":{}}`,
		"array":      `[]`,
		"duplicates": `{"openapi":"3.0.0","openapi":"3.1.0"}`,
		"not json":   `openapi: 3.1.0`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseOpenAPI([]byte(bad))
			assert.Error(t, err)
		})
	}
}

func TestCleanTextAndCut(t *testing.T) {
	assert.Equal(t, "a b c", cleanText(" a\t\n b\u2028\u00a0c\u202e\u200b "))
	assert.Equal(t, "a b", cleanText("a\x00b\ufeff"))
	assert.Equal(t, "héé", cutRunes("hééllo", 3))
	assert.Equal(t, "abc", cutRunes("abc", 5))
}
