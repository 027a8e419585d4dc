package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// actPage serves body at / (with the Permissions-Policy header when policy is
// not empty) and the scripts given by path.
func actPage(body, policy string, scripts map[string]string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if policy != "" {
			w.Header().Set("Permissions-Policy", policy)
		}
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+body+`</body></html>`)
	})
	for p, js := range scripts {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, js)
		})
	}
	return mux
}

const (
	searchForm   = `<search><form action="/search"><input name="q"><button>Search</button></form></search>`
	declaredForm = `<form action="/book" method="post" toolname="book_table" tooldescription="Book a table for a party." toolautosubmit>
<input type="date" name="date" toolparamdescription="The day of the booking.">
<input type="number" name="people" toolparamdescription="How many guests.">
<input type="hidden" name="csrf" value="x"><button>Book</button></form>`
	bareForm = `<form action="/contact" method="post"><input name="email"><textarea name="message"></textarea><button>Send</button></form>`
	halfForm = `<form action="/subscribe" method="post" toolname="subscribe"><input name="email"></form>`
)

// TestActChecks scans pages with forms, scripts and policies and judges the
// three Act checks together. Each case asserts all three verdicts, so the
// table stays whole. Tests of one Act check live in its check_<id>_test.go.
func TestActChecks(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		policy  string
		scripts map[string]string
		want    [3]Verdict // page_actions_declared, page_tool_quality, page_tool_permissions
		check   func(t *testing.T, r *Report)
	}{
		{
			name: "declarative forms", body: searchForm + declaredForm,
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "page_actions_declared")
				assert.Equal(t, "1 of 1 action forms declared with toolname and tooldescription", c.Receipt.Received)
				assert.Contains(t, c.Receipt.Notes, "1 plain site search form, not counted as actions")
				assert.Contains(t, checkByID(r, "page_tool_permissions").Receipt.Received, "default allowlist 'self'")
			},
		},
		{
			name: "imperative registration, inline and same-origin script",
			body: bareForm + `<script>
if ("modelContext" in document) {
  document.modelContext.registerTool({
    name: "add_to_cart",
    description: "Put a product in the cart.",
    inputSchema: {type: "object", properties: {sku: {type: "string"}}},
    async execute({sku}) { return cart.add(sku); }
  });
}
</script><script src="/app.js"></script><script src="https://cdn.other.example/x.js"></script>`,
			scripts: map[string]string{"/app.js": "const mc = navigator.modelContext;\nmc.registerTool({ name: 'checkout', execute: go });\n"},
			want:    [3]Verdict{VerdictPass, VerdictPartial, VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "page_actions_declared")
				assert.Contains(t, c.Receipt.Received, "2 tool registration calls through document.modelContext and navigator.modelContext, read in https://shop.example/, https://shop.example/app.js")
				q := checkByID(r, "page_tool_quality")
				assert.Equal(t, "1 of 2 tools fully described", q.Receipt.Received)
				assert.Equal(t, []string{`registered tool "checkout" in https://shop.example/app.js: registered through navigator.modelContext, the deprecated form (Chrome 150 deprecates it for document.modelContext); no literal description`}, q.Receipt.Notes)
				var urls []string
				for _, rq := range c.Receipt.Requests {
					urls = append(urls, rq.URL)
				}
				assert.Contains(t, urls, "https://shop.example/app.js")
				assert.Contains(t, urls, "https://cdn.other.example/x.js", "scripts of other origins are read too")
			},
		},
		{
			name: "a plain search form only", body: searchForm + `<form action="/find" role="search"><input type="search" name="term"></form>`,
			want: [3]Verdict{VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable},
		},
		{
			name: "tools=() with tools declared", body: declaredForm, policy: "geolocation=(), tools=()",
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "tools=(): tools disabled", checkByID(r, "page_tool_permissions").Receipt.Received)
			},
		},
		{
			name: "tools=*", body: declaredForm, policy: "tools=*",
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictPartial},
		},
		{
			name: "tools=(self) and a partner", body: declaredForm, policy: `tools=(self "https://partner.example")`,
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictPass},
		},
		{
			name: "tools allowed to other origins only", body: declaredForm, policy: `tools=("https://partner.example")`,
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictFail},
		},
		{
			name: "a header that does not parse is ignored", body: declaredForm, policy: "tools=(self",
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictPass},
		},
		{
			name: "action forms, none declared", body: searchForm + bareForm,
			want: [3]Verdict{VerdictFail, VerdictNotApplicable, VerdictNotApplicable},
		},
		{
			name: "some forms declared, one tool half described", body: bareForm + halfForm + declaredForm,
			want: [3]Verdict{VerdictPartial, VerdictPartial, VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "1 of 3 action forms declared with toolname and tooldescription (1 more with a toolname only)", checkByID(r, "page_actions_declared").Receipt.Received)
				assert.Equal(t, []string{`form tool "subscribe" on https://shop.example/: no tooldescription; no toolparamdescription on email`},
					checkByID(r, "page_tool_quality").Receipt.Notes)
			},
		},
		{
			name: "forms in a template are not offered", body: `<template>` + bareForm + `</template>`,
			want: [3]Verdict{VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable},
		},
		{
			// Chromium registers no declarative tool without a description.
			name: "a form tool without tooldescription does not meet R8", body: halfForm,
			want: [3]Verdict{VerdictPartial, VerdictFail, VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "page_actions_declared")
				assert.Equal(t, "0 of 1 action forms declared with toolname and tooldescription (1 more with a toolname only)", c.Receipt.Received)
				assert.Contains(t, c.Receipt.Notes, `form tools with a toolname but no tooldescription, which browsers do not register: "subscribe" on https://shop.example/`)
				assert.False(t, requirementMet(r, "R8"))
			},
		},
		{
			name: "navigator.modelContext alone is partial",
			body: bareForm + `<script>navigator.modelContext.registerTool({name: "send", description: "Send a message."});</script>`,
			want: [3]Verdict{VerdictPartial, VerdictFail, VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "page_actions_declared")
				assert.Contains(t, c.Receipt.Received, "only through navigator.modelContext, the deprecated form (Chrome 150 deprecates it for document.modelContext)")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "deprecated WebMCP forms read: navigator.modelContext (deprecated by Chrome 150 for document.modelContext, the object the WebMCP draft defines) on 1 registration")
			},
		},
		{
			name: "the current forms of the WebMCP draft are credited",
			body: bareForm + `<script>const ctl = new AbortController();
await document.modelContext.registerTool({name: "send", description: "Send a message.", inputSchema: {type: "object"},
  annotations: {readOnlyHint: false, untrustedContentHint: true}, execute: send}, {signal: ctl.signal, exposedTo: ["https://agent.example"]});</script>`,
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictPass},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "page_actions_declared")
				notes := strings.Join(c.Receipt.Notes, "\n")
				assert.Contains(t, notes, "current WebMCP forms read: the readOnlyHint annotation on 1 registration; the untrustedContentHint annotation on 1 registration; exposedTo on 1 registration; an abort signal on 1 registration")
				assert.NotContains(t, notes, "deprecated")
				assert.Contains(t, strings.Join(checkByID(r, "page_tool_quality").Receipt.Notes, "\n"), "the untrustedContentHint annotation on 1 registration")
			},
		},
		{
			name: "an app shell whose forms a script builds",
			body: `<div id="app"></div><script>document.getElementById("app").innerHTML = "<form toolname=book tooldescription=Book><input name=d></form>";</script>`,
			want: [3]Verdict{VerdictUnverified, VerdictUnverified, VerdictUnverified},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "page_actions_declared")
				assert.Contains(t, c.Receipt.Received, "app-shell pages whose content is built by script, which the scan does not run: https://shop.example/")
				assert.NotEqual(t, VerdictPass, checkByID(r, "initial_html_content").Verdict)
			},
		},
		{
			name: "scripts past the bound on their number are not read",
			body: `<p>` + strings.Repeat("Tables for every party, booked in a minute. ", 6) + `</p>` + func() string {
				var b strings.Builder
				for i := range MaxScripts + 1 {
					fmt.Fprintf(&b, `<script src="/s%d.js"></script>`, i)
				}
				return b.String()
			}(),
			scripts: func() map[string]string {
				m := map[string]string{}
				for i := range MaxScripts + 1 {
					m[fmt.Sprintf("/s%d.js", i)] = "console.log(1)"
				}
				return m
			}(),
			want: [3]Verdict{VerdictUnverified, VerdictUnverified, VerdictUnverified},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "page_actions_declared").Receipt.Received,
					fmt.Sprintf("scripts past the first %d, not fetched: https://shop.example/s%d.js", MaxScripts, MaxScripts))
			},
		},
		{
			name:    "a page with no form whose every script was read is not applicable",
			body:    `<p>` + strings.Repeat("Tables for every party, booked in a minute. ", 6) + `</p><script src="/app.js"></script>`,
			scripts: map[string]string{"/app.js": "console.log('hi')"},
			want:    [3]Verdict{VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scanMux(t, "shop.example", actPage(tc.body, tc.policy, tc.scripts), 5*time.Second)
			for i, id := range []string{"page_actions_declared", "page_tool_quality", "page_tool_permissions"} {
				c := checkByID(r, id)
				assert.Equal(t, tc.want[i], c.Verdict, "%s: %s %q", id, c.Receipt.Received, c.Receipt.Notes)
				assert.Equal(t, []string{"https://shop.example/"}, c.Scope, id)
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}
