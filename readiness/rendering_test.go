package readiness

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// renderedAs is a Renderer of the test's own. It answers every page with the
// same rendering or error, so the checks' reading of a rendering is tested
// without a browser. Package browser tests the real one.
type renderedAs struct {
	r   Rendering
	err error
}

func (f renderedAs) Render(ctx context.Context, pageURL string, client *safefetch.Client) (*Rendering, error) {
	if f.err != nil {
		return nil, f.err
	}
	r := f.r
	r.URL = pageURL
	return &r, nil
}

func TestActJudgedOnRendering(t *testing.T) {
	shell := `<div id="app"></div><script src="/app.js"></script>`
	rendered := `<html><head></head><body><h1>Shop</h1>` + longText + declaredForm + `</body></html>`
	tests := []struct {
		name     string
		renderer Renderer
		want     Verdict
		received []string
	}{
		{"a shell whose script builds a declared form", renderedAs{r: Rendering{Browser: "Chromium 156.0", HTML: []byte(rendered),
			Tools: []RenderedTool{{Name: "book_table", Description: "Book a table for a party.", Declarative: true, Frame: "https://shop.example/"}}}},
			VerdictPass, []string{"1 of 1 action forms declared", `rendered in Chromium 156.0 (1 page): 1 tool registered: "book_table" (declarative, https://shop.example/)`}},
		{"a tool registered by a computed name", renderedAs{r: Rendering{Browser: "Chromium 156.0", HTML: []byte(`<html><body><h1>Shop</h1>` + longText + `</body></html>`),
			Tools: []RenderedTool{{Name: "add_to_cart", Description: "Add a product.", Script: "https://shop.example/app.js"}}}},
			VerdictPass, []string{"the browser registered 1 tool through document.modelContext"}},
		{"a rendering that registers nothing and has no form", renderedAs{r: Rendering{Browser: "Chromium 156.0", HTML: []byte(`<html><body><h1>Shop</h1>` + longText + `</body></html>`)}},
			VerdictNotApplicable, []string{"rendered in Chromium 156.0 (1 page): no tool registered"}},
		{"a render that failed", renderedAs{err: errors.New("browser: the page did not settle within 10s")},
			VerdictUnverified, []string{"pages whose rendering failed: https://shop.example/ (browser: the page did not settle within 10s)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := fetchtest.New()
			t.Cleanup(n.Close)
			n.Site("shop.example", actPage(shell, "", map[string]string{"/app.js": "build()"}))
			r, err := Scan(context.Background(), "https://shop.example/", &Options{Client: n.Client(), MaxPages: -1, Renderer: tc.renderer})
			require.NoError(t, err)
			c := checkByID(r, "page_actions_declared")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
			for _, s := range tc.received {
				assert.Contains(t, c.Receipt.Received, s)
			}
			ih := checkByID(r, "initial_html_content")
			assert.NotEqual(t, VerdictPass, ih.Verdict, "R1 stays a judgement of the HTML before scripts")
			if tc.renderer.(renderedAs).err == nil {
				assert.Contains(t, strings.Join(ih.Receipt.Notes, "\n"), "characters of visible text after scripts, 4 before")
				assert.Contains(t, ih.Fix, "serve the heading and text in the HTML itself")
			}
		})
	}
}

// With a Renderer and no attempts set, the default budget grows by
// DefaultRenderAttempts for each page that may be rendered.
func TestRendererGrowsTheDefaultBudget(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", actPage(longText, "", nil))
	for _, tc := range []struct {
		opts Options
		want int
	}{
		{Options{MaxPages: -1}, DefaultAttempts},
		{Options{MaxPages: -1, Renderer: renderedAs{r: Rendering{HTML: []byte("<p>x</p>")}}}, DefaultAttempts + DefaultRenderAttempts},
		{Options{Renderer: renderedAs{r: Rendering{HTML: []byte("<p>x</p>")}}}, DefaultAttempts + (1+DefaultMaxPages)*DefaultRenderAttempts},
		{Options{Renderer: renderedAs{}, Budget: safefetch.BudgetLimits{Attempts: 40}}, 40},
	} {
		tc.opts.Client = n.Client()
		r, err := Scan(context.Background(), "https://shop.example/", &tc.opts)
		require.NoError(t, err)
		assert.Equal(t, tc.want, r.Scope.Budget.MaxAttempts)
	}
}

func FuzzReadRendering(f *testing.F) {
	f.Add([]byte(`<html><body><form toolname="a" tooldescription="b"><input name="x"></form></body></html>`), "t", "d", false)
	f.Add([]byte(`<div><template><form toolname=x></form></template>`), "", "", true)
	f.Add([]byte("\xff<form><form><script>"), "\x00", "", false)
	f.Fuzz(func(t *testing.T, dom []byte, name, desc string, declarative bool) {
		r := &Rendering{URL: "https://shop.example/", HTML: dom, Tools: []RenderedTool{{Name: name, Description: desc, Declarative: declarative}}}
		pr := readRendering("https://shop.example/", r)
		if len(pr.forms) > maxForms || len(pr.tools) > 1 || pr.text < 0 {
			t.Fatalf("%d forms, %d tools, %d characters", len(pr.forms), len(pr.tools), pr.text)
		}
		if declarative && len(pr.tools) != 0 {
			t.Fatal("a declarative tool is read from its form")
		}
	})
}

func BenchmarkReadRendering(b *testing.B) {
	dom := []byte(`<!DOCTYPE html><html><body><h1>Shop</h1>` + longText + searchForm + declaredForm + bareForm + halfForm + `</body></html>`)
	r := &Rendering{URL: "https://shop.example/", HTML: dom, Tools: []RenderedTool{{Name: "a", Description: "b", Script: "https://cdn.example/a.js"}}}
	b.ReportAllocs()
	b.SetBytes(int64(len(dom)))
	for b.Loop() {
		if pr := readRendering("https://shop.example/", r); len(pr.forms) != 4 || len(pr.tools) != 1 {
			b.Fatal(len(pr.forms), len(pr.tools))
		}
	}
}
