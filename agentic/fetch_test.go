package agentic

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func TestDiscoverRedirectLimit(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("hops.example", siteHandler(map[string]page{
		"/":        {ctype: htmlType, body: `<title>Hops</title><a href="/docs/a1">three hops docs</a><a href="/docs/b1">four hops docs</a>`},
		"/docs/a1": {loc: "/docs/a2"},
		"/docs/a2": {loc: "https://www.hops.example/docs/a3"},
		"/docs/a4": {ctype: htmlType, body: `<title>A</title>`},
		"/docs/b1": {loc: "/docs/b2"},
		"/docs/b2": {loc: "/docs/b3"},
		"/docs/b3": {loc: "/docs/b4"},
		"/docs/b4": {loc: "/docs/b5"},
		"/docs/b5": {ctype: htmlType, body: `<title>B</title>`},
	}))
	n.Site("www.hops.example", siteHandler(map[string]page{"/docs/a3": {loc: "https://hops.example/docs/a4"}}))
	d, err := Discover(t.Context(), "https://hops.example", &DiscoverOptions{Client: n.Client()})
	require.NoError(t, err)
	a := findResource(d.Site, KindDocumentation, "https://hops.example/docs/a4")
	require.NotNil(t, a, "three hops, through the www counterpart, are followed")
	assert.Equal(t, AvailabilityRetrieved, a.Availability)
	b := findResource(d.Site, KindDocumentation, "https://hops.example/docs/b1")
	require.NotNil(t, b)
	assert.Equal(t, AvailabilityLinked, b.Availability, "a fourth hop is refused")
	assert.Nil(t, findResource(d.Site, KindDocumentation, "https://hops.example/docs/b5"))
	var reason string
	for _, f := range d.Report.Failures {
		if f.URL == "https://hops.example/docs/b1" {
			reason = f.Reason
		}
	}
	assert.Contains(t, reason, "redirect")
}
