package browser_test

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// needBrowser skips the test unless AGENTWEB_BROWSER=1: the tests of this
// package run the system's Chromium, which go test ./... does not need.
var needBrowser = browser.NeedBrowser

// newBrowser starts a Browser for the test and closes it at its end.
func newBrowser(t testing.TB, o *browser.Options) *browser.Browser {
	t.Helper()
	needBrowser(t)
	b, err := browser.New(context.Background(), o)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, b.Close()) })
	return b
}

// htmlPage serves body as an HTML page.
func htmlPage(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

// jsFile serves js as a script.
func jsFile(js string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, js)
	}
}

func TestRenderRegistersToolsOfAScriptFromAnotherHost(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	shop := http.NewServeMux()
	shop.HandleFunc("/{$}", htmlPage(`<!DOCTYPE html><html><head><title>Shop</title><script src="https://cdn.example/tools.js"></script></head><body><h1>Shop</h1></body></html>`))
	n.Site("shop.example", shop)
	cdn := http.NewServeMux()
	cdn.HandleFunc("/tools.js", jsFile(`const m = ["register", "Tool"].join("");
document.modelContext[m]({name: "add_to_cart", description: "Put a product in the cart.",
  inputSchema: {type: "object", properties: {sku: {type: "string", description: "The product."}}},
  execute: async ({sku}) => ({content: [{type: "text", text: sku}]})});`))
	n.Site("cdn.example", cdn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := b.Render(ctx, "https://shop.example/", n.Client())
	require.NoError(t, err)
	require.Len(t, r.Tools, 1, "%+v", r.Requests)
	assert.Equal(t, "add_to_cart", r.Tools[0].Name)
	assert.Equal(t, "Put a product in the cart.", r.Tools[0].Description)
	assert.False(t, r.Tools[0].Declarative)
	assert.Equal(t, "https://cdn.example/tools.js", r.Tools[0].Script)
	assert.JSONEq(t, `{"type":"object","properties":{"sku":{"type":"string","description":"The product."}}}`, string(r.Tools[0].InputSchema))
	assert.True(t, strings.HasPrefix(r.Browser, "Chromium "), r.Browser)
	_ = safefetch.Default
	_ = readiness.Rendering{}
}

// scanRendered scans https://shop.example/ on n, one page, rendered by b.
func scanRendered(t testing.TB, b *browser.Browser, n *fetchtest.Network) (*readiness.Report, time.Duration) {
	t.Helper()
	start := time.Now()
	rep, err := readiness.Scan(context.Background(), "https://shop.example/", &readiness.Options{Client: n.Client(), MaxPages: -1, Renderer: b})
	require.NoError(t, err)
	return rep, time.Since(start)
}

func checkOf(rep *readiness.Report, id string) readiness.CheckResult {
	for _, c := range rep.Checks {
		if c.ID == id {
			return c
		}
	}
	return readiness.CheckResult{}
}

var prose = `<p>` + strings.Repeat("Tents, stoves and boots for every season, shipped in two days. ", 5) + `</p>`

// The pages of the issue that a browser must judge: each gets pass,
// partial, fail or not_applicable, and the receipt says it was rendered in
// Chromium and lists the tools.
func TestScanRenderedPages(t *testing.T) {
	b := newBrowser(t, &browser.Options{Timeout: 8 * time.Second})
	tests := []struct {
		name    string
		page    string
		hosts   map[string]map[string]string // host -> path -> script
		want    readiness.Verdict
		quality readiness.Verdict
		says    []string
	}{
		{
			name: "tools registered by a script from another host, under a computed name",
			page: `<h1>Shop</h1>` + prose + `<script src="https://cdn.example/tools.js"></script>`,
			hosts: map[string]map[string]string{"cdn.example": {"/tools.js": `const verb = "register" + "Tool";
document.modelContext[verb]({name: "add_to_cart", description: "Put a product in the cart.", execute: async () => ({content: []})});`}},
			want: readiness.VerdictPass, quality: readiness.VerdictPass,
			says: []string{"the browser registered 1 tool through document.modelContext", `"add_to_cart" (imperative, https://cdn.example/tools.js)`},
		},
		{
			name: "a shell whose script builds its content and a declared form",
			page: `<div id="app"></div><script src="/app.js"></script>`,
			hosts: map[string]map[string]string{"shop.example": {"/app.js": `document.getElementById("app").innerHTML =
  '<h1>Book a table</h1><p>` + strings.Repeat("Tables for every party, booked in a minute. ", 5) + `</p>' +
  '<form action="/book" method="post" toolname="book_table" tooldescription="Book a table for a party.">' +
  '<input name="date" type="date" toolparamdescription="The day."><button>Book</button></form>';`}},
			want: readiness.VerdictPass, quality: readiness.VerdictPass,
			says: []string{"1 of 1 action forms declared with toolname and tooldescription", `"book_table" (declarative`},
		},
		{
			name: "analytics-like scripts and no action",
			page: `<h1>Shop</h1>` + prose + `<script async src="https://tags.example/gtm.js"></script><script src="https://tags.example/analytics.js"></script>`,
			hosts: map[string]map[string]string{"tags.example": {
				"/gtm.js":       `(function(w,d){var s=d.createElement("script");s.async=true;s.src="https://tags.example/analytics.js?id=1";d.head.appendChild(s);w.dataLayer=w.dataLayer||[];w.dataLayer.push({event:"start"});})(window,document);`,
				"/analytics.js": `window.ga=function(){(window.ga.q=window.ga.q||[]).push(arguments)};ga("send","pageview");fetch("https://tags.example/collect?v=1").catch(()=>{});`}},
			want: readiness.VerdictNotApplicable, quality: readiness.VerdictNotApplicable,
			says: []string{"no tool registered"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := fetchtest.New()
			defer n.Close()
			shop := http.NewServeMux()
			shop.HandleFunc("/{$}", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body>`+tc.page+`</body></html>`))
			hosts := map[string]*http.ServeMux{"shop.example": shop}
			for host, files := range tc.hosts {
				mux := hosts[host]
				if mux == nil {
					mux = http.NewServeMux()
					hosts[host] = mux
				}
				for p, js := range files {
					mux.HandleFunc(p, jsFile(js))
				}
			}
			for host, mux := range hosts {
				n.Site(host, mux)
			}
			rep, _ := scanRendered(t, b, n)
			c := checkOf(rep, "page_actions_declared")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
			assert.Contains(t, c.Receipt.Received, "rendered in "+b.Version())
			for _, s := range tc.says {
				assert.Contains(t, c.Receipt.Received, s)
			}
			q := checkOf(rep, "page_tool_quality")
			assert.Equal(t, tc.quality, q.Verdict, "%s %q", q.Receipt.Received, q.Receipt.Notes)
			r1 := checkOf(rep, "initial_html_content")
			assert.Contains(t, strings.Join(r1.Receipt.Notes, "\n"), "characters of visible text after scripts", "R1 notes the rendered text")
			if strings.Contains(tc.page, `id="app"`) {
				assert.NotEqual(t, readiness.VerdictPass, r1.Verdict, "R1 judges the HTML before scripts")
				assert.Contains(t, r1.Fix, "serve the heading and text in the HTML itself")
			}
		})
	}
}

func mustAddr(s string) netip.Addr { return netip.MustParseAddr(s) }

// What a site can learn about the scanner, as the package documentation
// says: its scripts see HeadlessChrome and navigator.webdriver, and every
// request carries the scan client's User-Agent, not Chromium's.
func TestWhatASiteCanLearn(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	var agent string
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		agent = r.Header.Get("User-Agent")
		htmlPage(`<script>
let gpu = "nogl";
try { const gl = document.createElement("canvas").getContext("webgl"); const d = gl.getExtension("WEBGL_debug_renderer_info"); gpu = /SwiftShader/.test(gl.getParameter(d.UNMASKED_RENDERER_WEBGL)) ? "swiftshader" : "othergl"; } catch (e) {}
document.modelContext.registerTool({name: [
  /HeadlessChrome/.test(navigator.userAgent) ? "headless" : "headful",
  navigator.webdriver ? "webdriver" : "nowebdriver", gpu, "cpus" + navigator.hardwareConcurrency].join("-"), description: "What the page saw.", execute() {}});</script>`)(w, r)
	})
	n.Site("shop.example", mux)
	assert.Equal(t, fmt.Sprintf("headless-webdriver-swiftshader-cpus%d", runtime.NumCPU()), renderToolName(t, b, n, "/"))
	assert.True(t, strings.HasPrefix(agent, "agentweb/"), agent)
}
