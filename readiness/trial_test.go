package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Understand checks read the JSON-LD of every page the scan read: a
// Product block on the product page meets R7 ("the site publishes
// structured business or product metadata", the scoring method Section 03; the
// check catalogue, Understand, structured_business_data) even when the
// start page has none, and the receipt names the routes it was read from
// (Section 07, "findings state their scope").
func TestStructuredDataFromEveryPageRead(t *testing.T) {
	page := func(title, extra string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>%s</title></head><body><h1>%s</h1>%s
<a href="/products">Products</a> <a href="/about">About</a></body></html>`, title, title, extra)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", page("Shop", ""))
	mux.HandleFunc("/about", page("About", ""))
	mux.HandleFunc("/products", page("Products", `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Tent","url":"https://shop.example/products"}</script>`))
	r := scanWith(t, mux, nil)
	c := checkByID(r, "structured_business_data")
	assert.Equal(t, VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Scope, "https://shop.example/products")
	for _, f := range r.Fixes {
		assert.NotEqual(t, "structured_business_data", f.Check, "no fix for what the site publishes")
	}
}

// A short page that runs no script meets R1: the check catalogue's partial
// for initial_html_content is the app shell ("some text but an app shell,
// mostly scripts, < 200 characters"), and a page without a script cannot
// be one; its content is all in the HTML. The same short page with a
// script that runs is still an app shell.
func TestShortServerRenderedPageMeetsR1(t *testing.T) {
	for _, tc := range []struct {
		name, extra string
		want        Verdict
	}{
		{"no script", "", VerdictPass},
		{"a script that runs", `<script src="/app.js"></script>`, VerdictPartial},
		{"only a JSON-LD data block", `<script type="application/ld+json">{"@type":"Thing"}</script>`, VerdictPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/javascript")
				fmt.Fprint(w, "document.body.append('x')")
			})
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Contact</title></head><body><h1>Contact</h1><p>Write to people@shop.example.</p>%s</body></html>`, tc.extra)
			})
			r := scanWith(t, mux, &Options{MaxPages: -1})
			c := checkByID(r, "initial_html_content")
			assert.Equal(t, tc.want, c.Verdict, c.Receipt.Received)
			r1 := r.Requirements[0]
			assert.Equal(t, "R1", r1.ID)
			assert.Equal(t, tc.want == VerdictPass, r1.Met, r1.Why)
		})
	}
}

// brochure is a site with no tool or API and no page action that does not
// say so: backend_interface_declared fails, everything else passes or does
// not apply.
func brochure(extra ...CheckResult) []CheckResult {
	base := []CheckResult{
		result("backend_interface_declared", VerdictFail),
		result("mcp_discovery", VerdictNotApplicable),
		result("mcp_documented_access", VerdictNotApplicable),
		result("mcp_signin_discovery", VerdictNotApplicable),
		result("mcp_tested_execution", VerdictNotApplicable),
		result("auth_discovery", VerdictNotApplicable),
	}
	over := map[string]bool{}
	for _, e := range extra {
		over[e.ID] = true
	}
	for _, b := range base {
		if !over[b.ID] {
			extra = append(extra, b)
		}
	}
	return everyCheck(extra...)
}

// Every entry of the fix-first list can be acted on and earns what it
// says. mcp_tested_execution never appears: the scanner never executes a
// tool, so no change of the site's makes it pass (the scoring method, Section 07,
// "no perfect connection score"; the check catalogue, Connect). A brochure
// site's backend fix leads with the cheap true answer, the card stating
// that the site offers none (the catalogue: "n/a only when the card states
// the site offers no tool or API"), and its points count the
// mcp_tested_execution weight a live interface brings: 20 × 8/10, not 20.
// access_policy's fix names MCP fields only for a site with MCP.
func TestFixFirstCanBeActedOn(t *testing.T) {
	r, err := Compose("https://shop.example/", at, brochure(), Scope{})
	require.NoError(t, err)
	require.Len(t, r.Fixes, 1)
	f := r.Fixes[0]
	assert.Equal(t, "backend_interface_declared", f.Check)
	assert.InDelta(t, 16.0, f.Points, 1e-9, "a live interface brings mcp_tested_execution, unverified")
	live, err := Compose("https://shop.example/", at, brochure(result("backend_interface_declared", VerdictPass), result("mcp_tested_execution", VerdictUnverified)), Scope{})
	require.NoError(t, err)
	assert.InDelta(t, r.Earned+f.Points, live.Earned, 1e-9, "the fix earns what it says")
	assert.True(t, strings.HasPrefix(fixFor("backend_interface_declared", VerdictFail), "If the site offers no tool or API, say so in the card"))

	// A site with MCP whose only shortfall is the execution nobody tests
	// has nothing to fix.
	mcp, err := Compose("https://shop.example/", at, everyCheck(result("mcp_tested_execution", VerdictUnverified)), Scope{})
	require.NoError(t, err)
	assert.Empty(t, mcp.Fixes)
	assert.Less(t, mcp.Score, 100.0, "the points stay unverified")

	assert.Contains(t, fixFor("access_policy", VerdictFail), "nothing needs sign-in for a site without an MCP endpoint")
}

// The report adds up for a reader in every form: the total states its
// denominator when a section does not apply ("60.0 of the 80 points that
// apply"; the scoring method, Section 02: checks that cannot apply leave the
// denominator), the section scores sum to Earned, and fix points are in
// the sections' points: failing page_actions_declared (12 of Act's 20)
// is "+12.0 points" beside "Act 8.0 / 20", not +15.0 in score units.
func TestReportAddsUp(t *testing.T) {
	r, err := Compose("https://shop.example/", at, everyCheck(
		result("backend_interface_declared", VerdictNotApplicable),
		result("mcp_discovery", VerdictNotApplicable),
		result("mcp_documented_access", VerdictNotApplicable),
		result("mcp_signin_discovery", VerdictNotApplicable),
		result("mcp_tested_execution", VerdictNotApplicable),
		result("page_actions_declared", VerdictFail),
	), Scope{})
	require.NoError(t, err)
	sum := 0.0
	for _, s := range r.Sections {
		sum += s.Score
	}
	assert.InDelta(t, r.Earned, sum, 1e-9)
	assert.InDelta(t, 80.0, r.Applicable, 1e-9)
	assert.InDelta(t, 100*r.Earned/r.Applicable, r.Score, 1e-9)
	require.Len(t, r.Fixes, 1)
	assert.InDelta(t, 12.0, r.Fixes[0].Points, 1e-9)

	md := string(r.Markdown())
	assert.Contains(t, md, "- Score: **85.0 / 100**: 68.0 of the 80 points that apply (Connect does not apply, so 20 points leave the denominator)")
	assert.Contains(t, md, "**+12.0 points** [`page_actions_declared`]")
	assert.Contains(t, md, "| Act | 8.0 | 20 |")
	assert.Contains(t, md, "| Connect | does not apply | 20 |")
	html := string(r.HTML())
	assert.Contains(t, html, "Score 85.0 of 100: 68.0 of the 80 points that apply")
	assert.Contains(t, html, "<strong>+12.0 points</strong>")
	assert.NotContains(t, html, ": scored<", "a section's line says what it earned")
	assert.Contains(t, html, "Discover: 15.0 of 15 points")
	js, err := r.JSON()
	require.NoError(t, err)
	assert.Contains(t, string(js), `"earned": 68`)
	assert.Contains(t, string(js), `"applicable": 80`)
}

// A page over the per-response cap is said to be over the cap: the report
// names it at its top in every form (the scope's over_cap), and each check
// it left unverified says to serve a smaller page or raise the cap, not
// "within the budget" followed by the check's usual fix (the scoring
// method, Section 06: could not check is never a pass, and the report says why).
func TestPageOverTheCapSaysSo(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!DOCTYPE html><html lang=en><title>x</title><h1>Big</h1><p>"+strings.Repeat("big ", 16<<10))
	})
	r := scanWith(t, mux, &Options{MaxBodyBytes: 16 << 10})
	assert.Equal(t, []string{"https://shop.example/"}, r.Scope.OverCap)
	assert.Equal(t, int64(16<<10), r.Scope.Budget.MaxBodyBytes)
	c := checkByID(r, "initial_html_content")
	require.Equal(t, VerdictUnverified, c.Verdict)
	assert.True(t, strings.HasPrefix(c.Fix, "An answer this check needs is larger than the scan's cap of 16 KiB per response"), c.Fix)
	assert.NotContains(t, c.Fix, "within the budget")
	assert.NotContains(t, c.Fix, fixOf("initial_html_content"), "the usual fix is not repeated")
	assert.Contains(t, string(r.Markdown()), "- **Over the cap: https://shop.example/ answered more than the scan's cap of 16 KiB per response, so ")
	assert.Contains(t, string(r.HTML()), `id="over-cap"`)
	js, err := r.JSON()
	require.NoError(t, err)
	assert.Contains(t, string(js), `"over_cap": [`)
}

// A tool a script registers from a variable (name, description and schema
// built before the call) cannot be judged without running the script:
// page_tool_quality is unverified, not fail (the scoring method, Section 06:
// could not check is never a pass, and an unread description is no
// missing one; the check catalogue, Act). A literal registration is still
// judged.
func TestStaticToolQualityOfUnreadRegistrationIsUnverified(t *testing.T) {
	for _, tc := range []struct {
		name, js string
		want     Verdict
	}{
		{"from a variable", `const tool = {name: "search", description: "Search the teas.", inputSchema: {type: "object", properties: {q: {type: "string", description: "words"}}}, execute: (a) => a};
document.modelContext.registerTool(tool);`, VerdictUnverified},
		{"a literal", `document.modelContext.registerTool({name: "search", description: "Search the teas.", execute() {}});`, VerdictPass},
		{"a literal without description", `document.modelContext.registerTool({name: "search", execute() {}});`, VerdictFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Teas</title></head><body><h1>Teas</h1><p>%s</p><script>%s</script></body></html>`, strings.Repeat("Tea from small gardens. ", 12), tc.js)
			})
			r := scanWith(t, mux, &Options{MaxPages: -1})
			c := checkByID(r, "page_tool_quality")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
		})
	}
}

// identity_node's logo must answer when it alone completes the node: a
// logo URL that answers 404 is no logo (the check catalogue, Understand:
// name, url, and logo or sameAs).
func TestIdentityNodeLogoMustAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, node string
		logo       int
		want       Verdict
	}{
		{"a logo that answers", `"logo":"/logo.png"`, http.StatusOK, VerdictPass},
		{"a logo that is 404", `"logo":"/logo.png"`, http.StatusNotFound, VerdictPartial},
		{"an ImageObject that is 404", `"logo":{"@type":"ImageObject","url":"https://shop.example/logo.png"}`, http.StatusNotFound, VerdictPartial},
		{"sameAs beside a 404 logo", `"logo":"/logo.png","sameAs":["https://social.example/shop"]`, http.StatusNotFound, VerdictPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/logo.png", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(tc.logo) })
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Shop","url":"https://shop.example/",%s}</script></head><body><h1>Shop</h1></body></html>`, tc.node)
			})
			r := scanWith(t, mux, &Options{MaxPages: -1})
			c := checkByID(r, "identity_node")
			assert.Equal(t, tc.want, c.Verdict, c.Receipt.Received)
		})
	}
}

// A rendering's request the renderer skips by design (a stylesheet) is
// listed in the receipt as skipped, not as an error; a refused one stays
// an error.
func TestRenderedSkippedRequestIsNoError(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1></body></html>`)
	})
	ren := renderedAs{r: Rendering{Browser: "Chromium 156.0", HTML: []byte(`<html><body><h1>Shop</h1></body></html>`), Requests: []RenderedRequest{
		{Method: "GET", URL: "https://shop.example/", Type: "Document", Status: 200, Bytes: 90},
		{Method: "GET", URL: "https://shop.example/site.css", Type: "Stylesheet", Refused: "not fetched: a rendering does not need it", Skipped: true},
		{Method: "GET", URL: "https://cdn.example/x.js", Type: "Script", Refused: "refused by safefetch: no answer"},
	}}}
	r := scanWith(t, mux, &Options{MaxPages: -1, Renderer: ren})
	c := checkByID(r, "page_actions_declared")
	var css, js *RequestRecord
	for i, q := range c.Receipt.Requests {
		switch q.URL {
		case "https://shop.example/site.css":
			css = &c.Receipt.Requests[i]
		case "https://cdn.example/x.js":
			js = &c.Receipt.Requests[i]
		}
	}
	require.NotNil(t, css)
	require.NotNil(t, js)
	assert.Empty(t, css.Error)
	assert.Equal(t, "not fetched: a rendering does not need it", css.Skipped)
	assert.NotEmpty(t, js.Error)
	md := string(r.Markdown())
	assert.Contains(t, md, "-> skipped: not fetched: a rendering does not need it")
	assert.NotContains(t, md, "-> error: not fetched")
}
