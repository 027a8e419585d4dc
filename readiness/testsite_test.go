package readiness

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentweb/agentweb/internal/webread"
	"github.com/agentweb/agentweb/readiness/publish"
)

// testSite is a configurable agent-ready site for the scan tests. With no
// faults it is the well-made site, on which every check of this scanner
// passes. Each fault breaks one thing.
type testSite struct {
	host   string
	faults []siteFault // what the site does wrong; a failing test can print it
	robots string      // a robots.txt of the test's own; "" serves the kit's

	mu     sync.Mutex
	counts map[string]int // method path accept -> requests

	mcpOnce sync.Once
	mcp     http.Handler // a real MCP server (go-sdk), tools listed without a token

	kitOnce sync.Once
	kit     http.Handler // llms.txt, robots.txt and the card, from the publish kit
	oldCard []byte       // the card under another name, for twinsDiffer
}

// siteFault is one thing the test site does wrong, said in words.
type siteFault string

// The faults of the test site. Each breaks one thing of the well-made site.
const (
	ignoresAccept         siteFault = "serves HTML whatever the Accept header"
	noVary                siteFault = "never sends Vary"
	spaShellOnly          siteFault = "serves an empty single-page-app shell, and nothing else"
	sitemapIsHTML         siteFault = "serves an HTML page at /sitemap.xml"
	sitemapForeign        siteFault = "lists a location on another host in its sitemap"
	twinsDiffer           siteFault = "serves another card at /agents.json"
	brokenJSONLD          siteFault = "adds a JSON-LD block that does not parse"
	llmsNeverAnswers      siteFault = "never answers for /llms.txt"
	redirectsForever      siteFault = "redirects every path to another"
	markdownAlternateOnly siteFault = "negotiates no Markdown, but announces an /index.md alternate"
	frontMatterNoDay      siteFault = "writes front matter without updated"
)

// has reports whether the site has fault f.
func (ts *testSite) has(f siteFault) bool { return slices.Contains(ts.faults, f) }

// documents is the publish kit's handler for the site's facts: the
// scanner is tested against what the kit writes for llms.txt, robots.txt
// and the card. The pages, their Markdown and the sitemap stay written by
// hand, since faults break them in ways the kit cannot (an alternate URL of
// its own, a location on another host).
func (ts *testSite) documents() http.Handler {
	ts.kitOnce.Do(func() {
		b := ts.base()
		site := publish.Site{
			Origin: b, Name: "Example Shop", Description: "Outdoor gear, shipped within the EU.",
			Contact:  publish.Contact{Email: "agents@" + ts.host, URL: "/contact"},
			Pages:    []publish.Page{{Path: "/products", Title: "Products", Description: "what we sell", Section: "Docs"}},
			Crawlers: publish.Crawlers{Training: publish.Disallow},
			MCP: &publish.MCP{Path: "/mcp", Handler: http.NotFoundHandler(), AuthorizationServers: []string{b}, Scopes: []string{"orders"},
				PublicTools: []string{"search_products"}, TokenTools: []string{"place_order"}},
			NoAgentic: true,
		}
		h, err := site.Handler(http.NotFoundHandler())
		if err != nil {
			panic(err) // a test site the kit refuses is a bug of the test
		}
		ts.kit = h
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, b+"/.well-known/agents.json", nil))
		ts.oldCard = []byte(strings.Replace(rec.Body.String(), `"name": "Example Shop"`, `"name": "Example Shop (old)"`, 1))
	})
	return ts.kit
}

func (ts *testSite) base() string { return "https://" + ts.host }

func (ts *testSite) count(r *http.Request) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.counts == nil {
		ts.counts = map[string]int{}
	}
	key := r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get("Accept")
	if r.UserAgent() == userAccessUA {
		// document_contracts asks for the page once more as an AI agent,
		// by design: a request of its own, counted apart.
		key += " as " + userAccessUA
	}
	ts.counts[key]++
}

// repeats lists the requests the site received more than once.
func (ts *testSite) repeats() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var out []string
	for k, n := range ts.counts {
		// The MCP endpoint is a conversation, not a resource: the probe
		// posts one request per protocol offer, and a redirect of each
		// leads to the same GET.
		if n > 1 && !strings.Contains(k, " /mcp") {
			out = append(out, fmt.Sprintf("%s (%d times)", k, n))
		}
	}
	return out
}

var pageText = strings.Repeat("Tents, sleeping bags and stoves for every season, tested in the Alps before they reach our shelves. ", 4)

func (ts *testSite) html(path, title string) string {
	b := ts.base()
	ld := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Example Shop","url":"` + b + `/","logo":"` + b + `/logo.png","sameAs":["https://social.example/shop"]}</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebPage","name":"` + title + `","dateModified":"2026-09-15"}</script>`
	if ts.has(brokenJSONLD) {
		ld += `
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product", "name": "Tent",}</script>`
	}
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>` + title + ` · Example Shop</title>
<meta name="description" content="Outdoor gear, shipped within the EU.">
<link rel="canonical" href="` + b + path + `">
<link rel="describedby" href="/llms.txt" type="text/plain">
<link rel="alternate" href="/agents.json" type="application/json">
<link rel="alternate" href="` + path + `index.md" type="text/markdown">
` + ld + `
</head>
<body>
<h1>` + title + `</h1>
<p>` + pageText + `</p>
<a href="/about">About</a> <a href="/products">Products</a> <a href="mailto:agents@` + ts.host + `">Write to us</a>
<form role="search" action="/search"><input type="search" name="q"></form>
<form action="/cart" method="post" toolname="add_to_cart" tooldescription="Put a product in the cart.">
<input name="sku" toolparamdescription="The product's SKU."><input type="number" name="quantity" toolparamdescription="How many."><button>Add</button>
</form>
</body>
</html>
`
}

func (ts *testSite) markdown(path, title string) string {
	updated := "updated: 2026-09-15\n"
	if ts.has(frontMatterNoDay) {
		updated = ""
	}
	return "---\ntitle: " + title + "\ndescription: Outdoor gear, shipped within the EU.\ncanonical: " + ts.base() + path + "\n" + updated + "language: en\n---\n# " + title + "\n\n" + pageText + "\n"
}

func (ts *testSite) links(path string) []string {
	return []string{
		`</llms.txt>; rel="describedby"; type="text/plain"`,
		`</agents.json>; rel="alternate"; type="application/json"`,
		`<` + path + `index.md>; rel="alternate"; type="text/markdown"`,
	}
}

const spaShell = `<!DOCTYPE html><html><head><title>Shop</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>`

func (ts *testSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/mcp" && !ts.has(redirectsForever) && !ts.has(spaShellOnly) {
		// MCP requests repeat by design (one POST per message): not counted.
		ts.mcpOnce.Do(func() { ts.mcp = newMCPServer(5, true, nil, 0) })
		ts.mcp.ServeHTTP(w, r)
		return
	}
	ts.count(r)
	h := w.Header()
	if ts.has(redirectsForever) {
		http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
		return
	}
	if ts.has(spaShellOnly) {
		h.Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, spaShell)
		return
	}
	if !ts.has(noVary) {
		h.Set("Vary", "Accept")
	}
	wantsMD := webread.Preferred(r.Header.Get("Accept"), []string{"text/html", "text/markdown"}) == "text/markdown"
	page := func(path, title string) {
		for _, l := range ts.links(path) {
			h.Add("Link", l)
		}
		if wantsMD && !ts.has(ignoresAccept) && !ts.has(markdownAlternateOnly) {
			h.Set("Content-Type", "text/markdown; charset=utf-8")
			fmt.Fprint(w, ts.markdown(path, title))
			return
		}
		h.Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, ts.html(path, title))
	}
	switch r.URL.Path {
	case "/":
		page("/", "Example Shop")
	case "/about":
		page("/about", "About us")
	case "/products":
		page("/products", "Products")
	case "/index.md", "/aboutindex.md", "/productsindex.md":
		if !ts.has(markdownAlternateOnly) {
			http.NotFound(w, r)
			return
		}
		h.Set("Content-Type", "text/markdown; charset=utf-8")
		fmt.Fprint(w, ts.markdown("/", "Example Shop"))
	case "/robots.txt":
		if ts.robots != "" {
			h.Set("Content-Type", "text/plain")
			fmt.Fprint(w, ts.robots)
			return
		}
		ts.documents().ServeHTTP(w, r)
	case "/sitemap.xml":
		if ts.has(sitemapIsHTML) {
			h.Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, spaShell)
			return
		}
		h.Set("Content-Type", "application/xml")
		foreign := ""
		if ts.has(sitemapForeign) {
			foreign = "<url><loc>https://elsewhere.example/offers</loc></url>"
		}
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/</loc><lastmod>2026-09-15</lastmod></url>
<url><loc>%[1]s/about</loc></url>
<url><loc>%[1]s/products</loc></url>
<url><loc>https://www.%[2]s/contact</loc></url>
%[3]s
</urlset>
`, ts.base(), ts.host, foreign)
	case "/llms.txt":
		if ts.has(llmsNeverAnswers) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		ts.documents().ServeHTTP(w, r)
	case "/.well-known/oauth-protected-resource/mcp":
		h.Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"resource": "%[1]s/mcp", "authorization_servers": ["%[1]s"], "scopes_supported": ["orders"]}`, ts.base())
	case "/.well-known/oauth-authorization-server":
		h.Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer": "%[1]s", "authorization_endpoint": "%[1]s/authorize", "token_endpoint": "%[1]s/token", "response_types_supported": ["code"], "code_challenge_methods_supported": ["S256"]}`, ts.base())
	case "/.well-known/agents.json", "/agents.json":
		d := ts.documents()
		if ts.has(twinsDiffer) && r.URL.Path == "/agents.json" {
			h.Set("Content-Type", "application/json")
			w.Write(ts.oldCard)
			return
		}
		d.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// overrides serves the given paths itself and the rest from the well-made
// site.
type overrides struct {
	ts    *testSite
	paths map[string]http.HandlerFunc
}

func (o overrides) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h, ok := o.paths[r.URL.Path]; ok {
		if r.Method == http.MethodGet {
			// An MCP session POSTs many times by design.
			o.ts.count(r)
		}
		h(w, r)
		return
	}
	o.ts.ServeHTTP(w, r)
}
