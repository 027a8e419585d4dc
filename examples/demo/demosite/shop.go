package demosite

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"

	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness/publish"
)

// updated is the day every page was last changed: the JSON-LD
// dateModified, the sitemap's lastmod and the Markdown front matter's
// updated agree on it.
var updated = time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)

// page is one human page of the shop. The shop writes its HTML body and
// its own Markdown; the publish kit negotiates between them and adds the
// head elements, Link header fields and front matter.
type page struct {
	path        string
	title       string
	description string
	paragraphs  []string
	jsonld      func(s *Site) []string
	form        bool // the add-to-cart page tool
}

func (s *Site) pages() []*page {
	return []*page{
		{
			path: "/", title: "Example Shop",
			description: "Outdoor gear for hikers and campers, shipped within the EU in two working days.",
			paragraphs: []string{
				"Example Shop sells tents, sleeping bags and stoves for every season. Every product is tested in the Alps by our own staff before it reaches the shelves, and every order ships from Lyon within two working days.",
				"Agents are welcome: read our catalogue through the MCP server or the OpenAPI description, and ask a person whenever you are unsure. Placing an order needs a token that a human owner grants.",
			},
			jsonld: func(s *Site) []string { return []string{s.organizationLD(), s.webPageLD("/", "Example Shop")} },
			form:   true,
		},
		{
			path: "/products", title: "Products",
			description: "The Example Shop catalogue: tents, sleeping bags and stoves with prices in euros.",
			paragraphs: []string{
				"Trail Tent 2 (TENT-2, 249 EUR): a two-person, three-season tent of 1.9 kg with two doors and two vestibules. Alpine Bag -10 (BAG-10, 189 EUR): a down sleeping bag rated to minus ten degrees. Pocket Stove (STOVE-1, 39 EUR): a 70 g canister stove.",
				"Prices include VAT. Stock is updated every hour; the MCP tool search_products and GET /api/products give the same answers as this page.",
			},
			jsonld: func(s *Site) []string { return []string{s.productLD(), s.webPageLD("/products", "Products")} },
			form:   true,
		},
		{
			path: "/contact", title: "Contact",
			description: "How to reach a person at Example Shop: email, phone and the returns address.",
			paragraphs: []string{
				"Write to agents@shop.example for anything an agent cannot settle on its own, or to help@shop.example for orders and returns. A person answers within one working day, in English or French.",
				"By phone: +33 4 00 00 00 00, Monday to Friday, 9:00 to 17:00 Paris time. Returns go to Example Shop, 1 rue de l'Exemple, 69000 Lyon, France.",
			},
			jsonld: func(s *Site) []string { return []string{s.organizationLD(), s.webPageLD("/contact", "Contact")} },
		},
		{
			path: "/terms", title: "Terms for agents",
			description: "The terms under which agents may read the shop and act for their human owners.",
			paragraphs: []string{
				termsText,
				"Reading the catalogue needs no account. Placing an order needs an OAuth token granted by the human owner (scope orders:write); agents sign up through the agent-identity-v1 endpoint named in /.well-known/agent-signup.json.",
			},
			jsonld: func(s *Site) []string { return []string{s.webPageLD("/terms", "Terms for agents")} },
		},
		{
			path: "/docs", title: "Developer documentation",
			description: "How agents and programs use Example Shop: MCP, OpenAPI, llms.txt and the knowledge linkset.",
			paragraphs: []string{
				"The MCP server at /mcp offers search_products and get_product to anyone and place_order to a client holding a token (RFC 9728 metadata at /.well-known/oauth-protected-resource/mcp, PKCE S256 required).",
				"The same catalogue is described in OpenAPI 3.1 at /openapi.json. Our public documents are indexed in /agentic.json and /llms.txt, and the knowledge linkset at /.well-known/knowledge-linkset lists them with their digests.",
			},
			jsonld: func(s *Site) []string { return []string{s.webPageLD("/docs", "Developer documentation")} },
		},
	}
}

// publishSite is the shop as the publish kit sees it: the facts every
// agent document is built from, and the pages. It adds the MCP endpoint
// with its authorization server, the OpenAPI document and the four spec
// documents, built with their own packages.
func (s *Site) publishSite() (*publish.Site, error) {
	b := strings.TrimSuffix(s.URL, "/")
	ps := &publish.Site{
		Origin: b, Name: "Example Shop", Language: "en",
		Description: "Outdoor gear for hikers and campers, shipped within the EU in two working days.",
		Summary:     "Agents may read everything here. Placing an order needs a token granted by the human owner.",
		Contact:     publish.Contact{Email: "agents@" + s.Host, URL: "/contact"},
		Crawlers:    publish.Crawlers{Training: publish.Disallow},
		Disallow:    []string{"/cart"},
		Logo:        "/logo.png",
		SameAs:      []string{"https://social.example/exampleshop"},
		MCP: &publish.MCP{
			Path: "/mcp", Handler: s.mcpHandler(),
			Name: "Example Shop MCP server", Description: "the catalogue and orders",
			AuthorizationServers: []string{b}, Scopes: []string{scopeOrders},
			PublicTools: []string{"search_products", "get_product"}, TokenTools: []string{"place_order"},
		},
		OpenAPI:   s.openAPI(),
		Agentic:   s.agenticSite(),
		OpenAgent: shoppingAgent(),
		Skills: []publish.Skill{{Name: "product-search", Description: "Find outdoor gear in the Example Shop catalogue by need, size and budget.",
			Instructions: "# Product search\n\nCall the MCP tool search_products with the visitor's need, then get_product for the two best matches.\n"}},
		// The AI catalog names the skill, and the kit advertises the
		// catalog with a Link header on every page.
		Catalog: []publish.CatalogEntry{{Identifier: "urn:air:" + s.Host + ":skills:product-search", DisplayName: "Product search",
			Type: `text/markdown; profile="urn:air:agent-skills"`, URL: "/.well-known/agent-skills/product-search/SKILL.md",
			Description:           "Find outdoor gear in the Example Shop catalogue.",
			RepresentativeQueries: []string{"find a two-person tent under 2 kg", "which sleeping bags are rated to -5 °C"}}},
	}
	for _, p := range s.pages() {
		ps.Pages = append(ps.Pages, publish.Page{Path: p.path, Title: p.title, Description: p.description,
			Updated: updated, Markdown: []byte(s.markdown(p)), Section: "Docs"})
	}
	ls, err := s.shopLinkset()
	if err != nil {
		return nil, fmt.Errorf("demosite: linkset: %w", err)
	}
	ps.Linkset = ls
	doc, err := s.signupDocument()
	if err != nil {
		return nil, fmt.Errorf("demosite: agent-signup: %w", err)
	}
	// A StaleTerms document cannot be given to the kit, which (rightly)
	// refuses to publish it: the shop's own handler serves it instead.
	if !s.Defects.Has(StaleTerms) {
		ps.AgentSignup = doc
	}
	return ps, nil
}

func (s *Site) organizationLD() string {
	b := s.URL
	return `{"@context":"https://schema.org","@type":"Organization","name":"Example Shop","url":"` + b + `","logo":"` + b + `logo.png",` +
		`"sameAs":["https://social.example/exampleshop"],"email":"agents@` + s.Host + `",` +
		`"contactPoint":{"@type":"ContactPoint","contactType":"customer support","email":"help@` + s.Host + `","telephone":"+33-4-00-00-00-00","availableLanguage":["en","fr"]}}`
}

func (s *Site) productLD() string {
	b := s.URL
	return `{"@context":"https://schema.org","@type":"Product","name":"Trail Tent 2","sku":"TENT-2","url":"` + b + `products",` +
		`"description":"A two-person, three-season tent of 1.9 kg.","brand":{"@type":"Brand","name":"Example Shop"},` +
		`"offers":{"@type":"Offer","price":"249.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}`
}

func (s *Site) webPageLD(path, name string) string {
	return `{"@context":"https://schema.org","@type":"WebPage","name":"` + name + `","url":"` + strings.TrimSuffix(s.URL, "/") + path +
		`","inLanguage":"en","datePublished":"2026-03-01","dateModified":"` + updated.Format(time.DateOnly) + `"}`
}

// html is the page as the shop writes it: its title, JSON-LD, the
// linkset and OpenAgent head links, and its body. The kit adds the html
// lang, canonical, meta description and the llms.txt, card and Markdown
// links.
func (s *Site) html(p *page) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n")
	fmt.Fprintf(&b, "<title>%s · Example Shop</title>\n", html.EscapeString(p.title))
	b.WriteString(linkset.LinkElement + "\n")
	b.WriteString(openagent.LinkElement(openagent.WellKnownPath) + "\n")
	for _, ld := range p.jsonld(s) {
		fmt.Fprintf(&b, "<script type=\"application/ld+json\">%s</script>\n", ld)
	}
	if s.Defects.Has(BrokenJSONLD) {
		b.WriteString("<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Product\",\"name\":\"Trail Tent 2\",}</script>\n")
	}
	b.WriteString("<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}nav a{margin-right:1rem}</style>\n</head>\n<body>\n")
	b.WriteString("<nav><a href=\"/\">Home</a><a href=\"/products\">Products</a><a href=\"/docs\">Docs</a><a href=\"/terms\">Terms</a><a href=\"/contact\">Contact</a></nav>\n")
	fmt.Fprintf(&b, "<main>\n<h1>%s</h1>\n", html.EscapeString(p.title))
	for _, para := range p.paragraphs {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(para))
	}
	b.WriteString("<form role=\"search\" action=\"/search\"><input type=\"search\" name=\"q\" aria-label=\"Search\"><button>Search</button></form>\n")
	if p.form {
		b.WriteString(`<form action="/cart" method="post" toolname="add_to_cart" tooldescription="Put a product in the visitor's cart; nothing is ordered or paid.">
<label>SKU <input name="sku" required toolparamdescription="The product's SKU, for example TENT-2."></label>
<label>Quantity <input type="number" name="quantity" min="1" max="10" value="1" toolparamdescription="How many items, 1 to 10."></label>
<button>Add to cart</button>
</form>
`)
	}
	fmt.Fprintf(&b, "</main>\n<footer><p>Questions? <a href=\"mailto:agents@%[1]s\">agents@%[1]s</a> · <a href=\"/contact\">Contact a person</a> · <a href=\"/terms\">Terms for agents</a></p></footer>\n</body>\n</html>\n", s.Host)
	return b.String()
}

// markdown is the page's own Markdown body; the kit adds the front matter.
func (s *Site) markdown(p *page) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", p.title)
	for _, para := range p.paragraphs {
		fmt.Fprintf(&b, "\n%s\n", para)
	}
	fmt.Fprintf(&b, "\nQuestions? Write to <agents@%s> or see [Contact](/contact).\n", s.Host)
	return b.String()
}

// pageHandler serves a page's HTML; the kit answers Accept: text/markdown
// with the page's Markdown.
func (s *Site) pageHandler(p *page) http.Handler {
	body := []byte(s.html(p))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(body)
	})
}
