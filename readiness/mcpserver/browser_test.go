package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/readiness/mcpserver"
)

// scan_site with "browser": true renders the page in the system's Chromium
// (AGENTWEB_BROWSER=1): a form that only a script writes is judged on the
// rendered DOM, where a scan without the browser cannot see it.
func TestScanSiteWithBrowser(t *testing.T) {
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		t.Skip("set AGENTWEB_BROWSER=1 to run with a real Chromium (apt-get install chromium)")
	}
	n := world(t)
	n.Site("script.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!DOCTYPE html><html lang="en"><head><title>Teas</title></head><body><h1>Teas</h1>
<p>Loose-leaf tea from small gardens, shipped within the European Union in two working days.</p>
<script>document.body.insertAdjacentHTML('beforeend', '<form toolname="search_teas" tooldescription="Search the tea catalogue" action="/search"><input name="q" toolparamdescription="What to look for"><button>Search</button></form>')</script>
</body></html>`)
	}))
	b, err := browser.New(context.Background(), nil)
	require.NoError(t, err)
	defer b.Close()
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), Renderer: b, TargetPerMinute: -1})
	require.NoError(t, err)
	cs := connectStdio(t, srv)
	verdict := func(browser bool) readiness.Verdict {
		var rep readiness.Report
		structured(t, callTool(t, cs, "scan_site", map[string]any{"url": "https://script.example/", "browser": browser}), &rep)
		for _, c := range rep.Checks {
			if c.ID == "page_actions_declared" {
				return c.Verdict
			}
		}
		t.Fatal("no page_actions_declared")
		return ""
	}
	without, with := verdict(false), verdict(true)
	assert.Equal(t, readiness.VerdictPass, with, "the rendered form declares its tool")
	assert.NotEqual(t, with, without, "without the browser the script's form is not seen")
}
