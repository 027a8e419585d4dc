package agentic

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func TestDiscoverLinkHeader(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("api.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Link", `</spec/v1.json>; rel="service-desc"; type="application/openapi+json", <https://status.other.example/docs>; rel="service-doc"`)
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("# API\n"))
		case "/spec/v1.json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"openapi":"3.0.3","paths":{"/ping":{"get":{}}}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	d, err := Discover(t.Context(), "https://api.example", &DiscoverOptions{Client: n.Client()})
	require.NoError(t, err)
	r := findResource(d.Site, KindOpenAPI, "https://api.example/spec/v1.json")
	require.NotNil(t, r)
	assert.Equal(t, AvailabilityRetrieved, r.Availability)
	assert.NotNil(t, findResource(d.Site, KindDocumentation, "https://status.other.example/docs"))
	require.Len(t, d.Site.APIs, 1)
	assert.Equal(t, []Operation{{Method: "GET", Path: "/ping"}}, d.Site.APIs[0].Operations)
}
