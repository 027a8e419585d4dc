package agentic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func TestDiscoverFitsSizeLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.1.0","paths":{`)
	for i := 0; i < 160; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/%s/%d":{"get":{"operationId":"%s%d","summary":"%s"}}`, strings.Repeat("segment", 40), i, strings.Repeat("op", 70), i, strings.Repeat("s", 240))
	}
	b.WriteString(`}}`)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("big.example", siteHandler(map[string]page{
		"/":             {ctype: htmlType, body: "<title>Big</title>"},
		"/openapi.json": {ctype: "application/json", body: b.String()},
	}))
	d, err := Discover(t.Context(), "https://big.example", &DiscoverOptions{Client: n.Client(), TextVersion: "1.2"})
	require.NoError(t, err)
	require.Len(t, d.Site.APIs, 1)
	ops := len(d.Site.APIs[0].Operations)
	assert.Less(t, ops, 160)
	assert.Greater(t, ops, 50)
	assert.LessOrEqual(t, len(d.Site.compact()), maxProfileBytes)
	assert.LessOrEqual(t, len(d.Text), maxTextBytes)
	assert.Contains(t, string(d.Text), "Agentic-Text: 1.2\n")
	found := false
	for _, tr := range d.Report.Truncations {
		if tr.Pointer == "/apis/0/operations" && strings.Contains(tr.Reason, "64 KiB") {
			found = true
			assert.Equal(t, 160-ops, tr.Dropped)
		}
	}
	assert.True(t, found, "truncations: %+v", d.Report.Truncations)
}
