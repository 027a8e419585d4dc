package readiness

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// apiCatalogEdges are the edge cases of the api_catalog check.
func apiCatalogEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "an API catalog served as application/json",
			paths: map[string]http.HandlerFunc{"/.well-known/api-catalog": text("application/json", `{"linkset": [{"anchor": "https://shop.example/api", "service-desc": [{"href": "https://shop.example/openapi.json", "type": "application/json"}]}]}`)},
			want:  map[string]Verdict{"api_catalog": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "api_catalog")
				assert.Contains(t, c.Receipt.Received, "with 1 validation problem:")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), `served as "application/json", not application/linkset+json (RFC 9727 §4.2)`)
			},
		},
		{
			name: "an API catalog of the right type and shape",
			paths: map[string]http.HandlerFunc{"/.well-known/api-catalog": text(`application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`,
				`{"linkset": [{"anchor": "https://shop.example/.well-known/api-catalog", "item": [{"href": "https://shop.example/api/v1"}]}, {"anchor": "https://shop.example/api/v1", "service-desc": [{"href": "https://shop.example/openapi.json", "type": "application/vnd.oai.openapi+json"}]}]}`)},
			want: map[string]Verdict{"api_catalog": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "api_catalog")
				assert.Equal(t, "found: an RFC 9727 API catalog of 2 link contexts, 2 API links at https://shop.example/.well-known/api-catalog", c.Receipt.Received)
				assert.Empty(t, c.Receipt.Notes)
			},
		},
		{
			name: "an API catalog whose contexts link to nothing an API catalog names",
			paths: map[string]http.HandlerFunc{"/.well-known/api-catalog": text("application/linkset+json",
				`{"linkset": [{"anchor": "https://shop.example/.well-known/api-catalog", "author": [{"href": "https://shop.example/about"}]}]}`)},
			want: map[string]Verdict{"api_catalog": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "api_catalog")
				assert.Contains(t, c.Receipt.Received, "validation problem")
				assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "no API: no item, service-desc, service-doc or service-meta link")
			},
		},
	}
}
