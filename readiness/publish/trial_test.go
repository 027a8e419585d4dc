package publish_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness"
)

// sniffedPages serves the tea shop's pages the idiomatic way: no handler
// sets Content-Type, so net/http sniffs "text/html; charset=utf-8".
func sniffedPages() http.Handler {
	mux := http.NewServeMux()
	page := func(title, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<!DOCTYPE html>
<html><head><title>%s</title></head>
<body><main><h1>%s</h1><p>%s</p></main>
<footer><a href="/contact">Contact us</a></footer></body></html>`, title, title, body)
		}
	}
	mux.HandleFunc("/{$}", page("Tea Shop", "Loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in Vienna and shipped within the European Union in two working days."))
	mux.HandleFunc("/teas", page("Our teas", "The catalogue: black, green, oolong and white teas."))
	mux.HandleFunc("/contact", page("Contact", "Write to people@tea.example."))
	return mux
}

// A page whose handler sets no Content-Type is HTML to the kit exactly as
// it is to net/http (which sniffs it): it is negotiated to Markdown, its
// head is completed, and it carries the Link and Vary fields.
func TestKitDecoratesPagesWithoutContentType(t *testing.T) {
	s := teaSite()
	h, err := s.Handler(sniffedPages())
	require.NoError(t, err)
	get := func(accept string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, "https://tea.example/teas", nil)
		req.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	html := get("text/html")
	body, _ := io.ReadAll(html.Body)
	assert.Equal(t, "text/html; charset=utf-8", html.Header.Get("Content-Type"))
	assert.Contains(t, html.Header.Values("Vary"), "Accept")
	assert.Contains(t, strings.Join(html.Header.Values("Link"), ", "), `</llms.txt>; rel="describedby"`)
	assert.Contains(t, string(body), `<html lang="en"`, "the head is completed")
	assert.Contains(t, string(body), `rel="canonical"`)

	md := get("text/markdown")
	mdBody, _ := io.ReadAll(md.Body)
	assert.Equal(t, "text/markdown; charset=utf-8", md.Header.Get("Content-Type"))
	assert.Contains(t, string(mdBody), "# Our teas")

	// A body that is not HTML is still passed through with the type
	// net/http would have sniffed.
	plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "just text") })
	h2, err := s.Handler(plain)
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h2.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://tea.example/x", nil))
	assert.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
	assert.Empty(t, rec.Header().Values("Link"))
	assert.Equal(t, "just text", rec.Body.String())
}

// teaAgent is a minimal conforming OpenAgent 0.1 profile.
func teaAgent() *openagent.Profile {
	return &openagent.Profile{
		Type: openagent.Type, Version: openagent.Version,
		Name: "Tea Assistant", DID: "assistant.teashop", OwnerDID: "owner.teashop",
		Description: "Answers questions about the Tea Shop's catalogue.",
		Skills:      []string{"tea-advice"},
	}
}

// On a development origin the kit skips only the Agentic Site Profile
// (none can be valid there) and serves every other spec document as it
// would in production: listed in the card and llms.txt, linked from pages.
func TestDevOriginServesTheOtherSpecDocuments(t *testing.T) {
	s := teaSite()
	s.OpenAgent = teaAgent()
	origin, client, get := serveOnLoopback(t, &s, sniffedPages())
	code, _ := get("/agentic.json")
	assert.Equal(t, http.StatusNotFound, code, "no profile where none can be valid")
	code, doc := get(openagent.WellKnownPath)
	require.Equal(t, http.StatusOK, code, doc)
	_, card := get("/.well-known/agents.json")
	assert.Contains(t, card, "openagent.json", "the card lists it")
	_, llms := get("/llms.txt")
	assert.Contains(t, llms, origin+openagent.WellKnownPath, "llms.txt lists it")

	rep, err := readiness.Scan(context.Background(), origin+"/", &readiness.Options{Client: client})
	require.NoError(t, err)
	assert.Contains(t, checkOf(rep, "openagent_profile").Receipt.Received, "found")
}

// The kit adds its JSON-LD to every page without a JSON-LD script element:
// a page whose prose names "application/ld+json" still gets it, and a page
// with its own block gets no second one.
func TestKitJSONLDOnlyWhereNoScriptElement(t *testing.T) {
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/teas":
			fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Teas</title></head><body><h1>Teas</h1>
<script type="Application/LD+JSON; charset=utf-8">{"@context":"https://schema.org","@type":"Product","name":"Assam","url":"https://tea.example/teas"}</script></body></html>`)
		default:
			fmt.Fprint(w, `<!DOCTYPE html><html><head><title>About</title></head><body><h1>About</h1>
<p>Our pages carry <code>&lt;script type="application/ld+json"&gt;</code> blocks.</p><a data-type="application/ld+json" href="/">home</a></body></html>`)
		}
	})
	s := teaSite()
	h, err := s.Handler(pages)
	require.NoError(t, err)
	body := func(path string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://tea.example"+path, nil))
		return rec.Body.String()
	}
	about := body("/about")
	assert.Equal(t, 1, strings.Count(about, `<script type="application/ld+json">`), "prose is not a JSON-LD block: %s", about)
	assert.Contains(t, about, `"@type":"Organization"`)
	teas := body("/teas")
	assert.NotContains(t, teas, `"@type":"Organization"`, "the page's own block stands alone")
	assert.Equal(t, 1, strings.Count(strings.ToLower(teas), `application/ld+json`))
}

// The Markdown form of a page keeps its forms: each is described (its
// WebMCP toolname and tooldescription, method and action) with its named
// fields, where html-to-markdown alone drops every input.
func TestMarkdownTwinDescribesForms(t *testing.T) {
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Contact</title></head><body><h1>Contact</h1>
<form toolname="send_message" tooldescription="Send a message to a person at the shop." method="post" action="/contact">
<label>Your email <input type="email" name="email" required toolparamdescription="Where the answer goes"></label>
<textarea name="message" placeholder="What would you like to ask?"></textarea>
<input type="hidden" name="csrf" value="x"><button type="submit">Send</button>
</form></body></html>`)
	})
	s := teaSite()
	h, err := s.Handler(pages)
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodGet, "https://tea.example/contact", nil)
	req.Header.Set("Accept", "text/markdown")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	md := rec.Body.String()
	assert.Contains(t, md, "**Form** `send_message`: Send a message to a person at the shop. (POST /contact)")
	assert.Contains(t, md, "- `email` (email, required): Where the answer goes\n")
	assert.Contains(t, md, "- `message` (textarea): What would you like to ask?\n")
	assert.NotContains(t, md, "csrf")
	assert.Contains(t, md, "Send")
}
