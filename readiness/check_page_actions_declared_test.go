package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/stretchr/testify/assert"
)

// scriptHost serves the given scripts by path as text/javascript.
func scriptHost(scripts map[string]string) http.Handler {
	mux := http.NewServeMux()
	for p, js := range scripts {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, js)
		})
	}
	return mux
}

var longText = `<p>` + strings.Repeat("Tables for every party, booked in a minute. ", 6) + `</p>`

// Scripts of other hosts are read like the site's own: a tag manager,
// analytics, a framework's chunks on a CDN. When none registers a tool and
// no form is an action, R8 is met as not applicable, without a browser.
func TestActScriptsOfOtherHostsAreRead(t *testing.T) {
	analytics := map[string]string{
		"/gtm.js":       "(function(w,d){var s=d.createElement('script');s.async=true;d.head.appendChild(s);w.dataLayer=w.dataLayer||[];})(window,document);",
		"/analytics.js": "window.ga=function(){(window.ga.q=window.ga.q||[]).push(arguments)};",
	}
	framework := map[string]string{"/chunk-1.js": "export function render(el){el.textContent='hi'}"}
	tests := []struct {
		name     string
		body     string
		cdn      map[string]string
		want     Verdict
		received string
	}{
		{
			name: "analytics and a framework from other hosts, no action",
			body: longText + `<script async src="https://tags.example/gtm.js"></script><script src="https://tags.example/analytics.js"></script><script type="module" src="https://cdn.example/chunk-1.js"></script>`,
			want: VerdictNotApplicable, received: "in every script and page read (3 scripts)",
		},
		{
			name: "a tool registered by a script of another host",
			body: longText + `<script src="https://cdn.example/webmcp.js"></script>`,
			cdn:  map[string]string{"/webmcp.js": `document.modelContext.registerTool({name: "book", description: "Book a table.", execute() {}});`},
			want: VerdictPass, received: "1 tool registration call through document.modelContext, read in https://cdn.example/webmcp.js",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cdn := framework
			for k, v := range tc.cdn {
				cdn = map[string]string{k: v}
			}
			r := scanHosts(t, "shop.example", map[string]http.Handler{
				"shop.example": actPage(tc.body, "", nil),
				"tags.example": scriptHost(analytics),
				"cdn.example":  scriptHost(cdn),
			}, 5*time.Second)
			c := checkByID(r, "page_actions_declared")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
			assert.Contains(t, c.Receipt.Received, tc.received)
			assert.True(t, requirementMet(r, "R8"), "R8 is met")
		})
	}
}

// The bytes of all scripts are bounded: past MaxScriptBytes, and past the
// scan's cap for one script, a script is named as not read and the check
// is unverified.
func TestActScriptBytesBounded(t *testing.T) {
	big := strings.Repeat("x", DefaultMaxBodyBytes-100)
	scripts := map[string]string{"/huge.js": strings.Repeat("y", DefaultMaxBodyBytes+1)}
	var tags strings.Builder
	for i := range 5 {
		p := fmt.Sprintf("/s%d.js", i)
		scripts[p] = "/*" + big + "*/"
		fmt.Fprintf(&tags, `<script src="%s"></script>`, p)
	}
	tags.WriteString(`<script src="/huge.js"></script>`)
	r := scanMux(t, "shop.example", actPage(longText+tags.String(), "", scripts), 10*time.Second)
	c := checkByID(r, "page_actions_declared")
	assert.Equal(t, VerdictUnverified, c.Verdict)
	assert.Contains(t, c.Receipt.Received, "scripts over the bound on script bytes (4 MiB in all, the scan's cap each), not read: ")
	assert.Contains(t, c.Receipt.Received, "https://shop.example/s4.js")
	assert.Contains(t, c.Receipt.Received, "https://shop.example/huge.js")
	read := 0
	for _, q := range c.Receipt.Requests {
		if q.Response != nil && strings.HasSuffix(q.URL, ".js") {
			read += q.Response.Bytes
		}
	}
	assert.LessOrEqual(t, read, MaxScriptBytes, "the scripts read stay within MaxScriptBytes")
	assert.Greater(t, read, 3*DefaultMaxBodyBytes, "four scripts of almost a MiB each were read")
}

// A data block is not a script: its type is not JavaScript, as with JSON-LD.
// A short page whose only script elements are data blocks is no app shell,
// and initial_html_content counts no script.
func TestActDataBlocksAreNotScripts(t *testing.T) {
	body := `<p>Tea, shipped.</p><script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Tea"}</script>` +
		`<script type="text/template"><form toolname="x"></form></script><script type="text/javascript; charset=utf-8">document.modelContext.registerTool({})</script>`
	r := scanMux(t, "shop.example", actPage(body, "", nil), 5*time.Second)
	c := checkByID(r, "page_actions_declared")
	assert.Equal(t, VerdictNotApplicable, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, checkByID(r, "initial_html_content").Receipt.Received, "0 scripts")
	assert.NotContains(t, checkByID(r, "initial_html_content").Receipt.Received, "app shell")
}

// A short page with a script that runs is an app shell: unverified. Every
// request answered, so the fix does not ask for requests to answer within
// the budget.
func TestActShellFixNamesWhatWasNotRead(t *testing.T) {
	body := `<div id="app"></div><script src="/app.js"></script>`
	r := scanMux(t, "shop.example", actPage(body, "", map[string]string{"/app.js": "document.getElementById('app').textContent='hi'"}), 5*time.Second)
	c := checkByID(r, "page_actions_declared")
	assert.Equal(t, VerdictUnverified, c.Verdict)
	assert.NotContains(t, c.Fix, "answer within the budget")
	assert.Contains(t, c.Fix, "Every request of this check answered")
	assert.Contains(t, c.Fix, "readiness/browser")
}

// The receipt counts registrations (registerTool calls), not scripts: two
// calls in one script are two registrations read in one script.
func TestActReceiptCountsRegistrations(t *testing.T) {
	body := longText + `<script src="/tools.js"></script>`
	js := `document.modelContext.registerTool({name: "a", description: "A."}); document.modelContext.registerTool({name: "b", description: "B."});`
	r := scanMux(t, "shop.example", actPage(body, "", map[string]string{"/tools.js": js}), 5*time.Second)
	c := checkByID(r, "page_actions_declared")
	assert.Equal(t, VerdictPass, c.Verdict)
	assert.Contains(t, c.Receipt.Received, "2 tool registration calls through document.modelContext, read in https://shop.example/tools.js")
}

func TestActUnverified(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body>`+bareForm+`<script src="/slow.js"></script></body></html>`)
	})
	mux.HandleFunc("/slow.js", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	r := scanMux(t, "shop.example", mux, 300*time.Millisecond)
	c := checkByID(r, "page_actions_declared")
	assert.Equal(t, VerdictUnverified, c.Verdict, "a script that did not answer might register tools: %s", c.Receipt.Received)
	assert.Contains(t, c.Receipt.Received, "timeout")
}

// Scripts are fetched at most scriptFetchesAtOnce at a time, even when the
// budget and the bound on script bytes would let more run at once.
func TestActScriptFetchesAtOnce(t *testing.T) {
	const n = 3 * scriptFetchesAtOnce
	var mu sync.Mutex
	inflight, peak, served := 0, 0, 0
	mux := http.NewServeMux()
	var tags strings.Builder
	for i := range n {
		fmt.Fprintf(&tags, `<script src="/s%d.js"></script>`, i)
	}
	mux.Handle("/{$}", actPage(longText+tags.String(), "", nil))
	mux.HandleFunc("/{name}", func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, ".js") {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		inflight++
		peak = max(peak, inflight)
		served++
		mu.Unlock()
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		inflight--
		mu.Unlock()
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, "console.log(1)")
	})
	r := scanWith(t, mux, &Options{MaxPages: -1, MaxBodyBytes: 64 << 10, Budget: safefetch.BudgetLimits{Concurrency: 4 * scriptFetchesAtOnce}})
	c := checkByID(r, "page_actions_declared")
	assert.Equal(t, VerdictNotApplicable, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, n, served, "every script is read")
	assert.LessOrEqual(t, peak, scriptFetchesAtOnce, "scripts fetched at once")
	assert.Greater(t, peak, 1, "scripts are fetched concurrently")
}
