package htmlhead_test

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/htmlhead"
)

func ExampleParse() {
	page := `<!doctype html>
<html lang="en">
<head>
  <title>Example Shop</title>
  <meta name="description" content="Things for agents">
  <!-- <link rel="describedby" href="/old-linkset"> -->
  <link rel="describedby" href="/.well-known/knowledge-linkset" type="application/linkset+json">
  <link rel="alternate" type="text/markdown" href="index.md">
</head>
<body>...</body>
</html>`
	pageURL, _ := url.Parse("https://shop.example/docs/")
	h, err := htmlhead.Parse(strings.NewReader(page), pageURL)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Lang, h.Title)
	desc, _ := h.MetaContent("description")
	fmt.Println(desc)
	for _, l := range h.Links {
		fmt.Println(l.Rel, l.Type, l.Href)
	}
	// Output:
	// en Example Shop
	// Things for agents
	// [describedby] application/linkset+json https://shop.example/.well-known/knowledge-linkset
	// [alternate] text/markdown https://shop.example/docs/index.md
}
