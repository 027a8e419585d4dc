package agentic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func TestDiscoverBudgetHolds(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	var links strings.Builder
	pages := map[string]page{}
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&links, `<a href="/docs/p%d">docs %d</a>`, i, i)
		pages[fmt.Sprintf("/docs/p%d", i)] = page{ctype: htmlType, body: fmt.Sprintf(`<title>P%d</title><a href="/docs/q%d">more docs</a>`, i, i)}
	}
	pages["/"] = page{ctype: htmlType, body: "<title>Many</title>" + links.String()}
	n.Site("many.example", siteHandler(pages))
	d, err := Discover(t.Context(), "https://many.example", &DiscoverOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.Equal(t, scanMaxAttempts, n.Requests("many.example"))
	assert.Equal(t, scanMaxAttempts, d.Report.Budget.Attempts)
	assert.LessOrEqual(t, d.Report.Budget.PeakConcurrency, scanMaxConcurrent)
	assert.Len(t, d.Site.Resources, maxResources)
	assert.NotEmpty(t, d.Report.Truncations)
	require.NoError(t, d.Site.Validate())
}

func TestClassify(t *testing.T) {
	tests := []struct {
		href, rel, typ, text string
		want                 Kind
	}{
		{"https://s.example/agentic.json", "", "", "", KindAgentic},
		{"https://s.example/.well-known/agent-card.json", "", "", "", KindA2A},
		{"https://s.example/.well-known/agent-configuration", "", "", "", KindAgentAuth},
		{"https://s.example/mcp", "", "", "", KindMCP},
		{"https://mcp.s.example/", "", "", "", KindMCP},
		{"https://s.example/connect", "", "", "Our MCP server", KindMCP},
		{"https://s.example/llms.txt", "", "", "", KindLLMs},
		{"https://s.example/spec", "service-desc", "", "", KindOpenAPI},
		{"https://s.example/spec", "", "application/vnd.oai.openapi+json", "", KindOpenAPI},
		{"https://s.example/v2/openapi-v2.json", "", "", "", KindOpenAPI},
		{"https://s.example/guide.md", "", "", "", KindDocumentation},
		{"https://s.example/docs/start", "", "", "", KindDocumentation},
		{"https://s.example/x", "", "", "API reference", KindDocumentation},
		{"https://s.example/pricing", "", "", "Pricing", ""},
		{"https://s.example/about", "", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.href+" "+tc.text, func(t *testing.T) {
			l := pageLink{href: tc.href, rel: strings.Fields(tc.rel), typ: tc.typ, text: tc.text}
			assert.Equal(t, tc.want, classify(l, mustURL(t, tc.href)))
		})
	}
}
