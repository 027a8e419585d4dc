package readiness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestBackendInterfaceFromFlowsCardSources: a card in the flows format names
// its OpenAPI document as a singular source object (relative or absolute) or
// in sources[]; the scanner fetches the document it names and the check
// passes.
func TestBackendInterfaceFromFlowsCardSources(t *testing.T) {
	openapi := `{"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"}, "paths": {}}`
	for _, tc := range []struct{ name, card string }{
		{"singular source, relative URL", `{"info": {"title": "Shop"}, "source": {"type": "openapi", "url": "/api/openapi.json"}, "flows": [{"id": "search", "actions": [{"id": "a", "operationId": "search"}]}]}`},
		{"singular source, absolute URL", `{"info": {"title": "Shop"}, "source": {"type": "openapi", "url": "https://shop.example/api/openapi.json"}, "flows": [{"id": "search", "actions": []}]}`},
		{"sources[] with url", `{"agentsJson": "0.1.0", "info": {"title": "Shop"}, "sources": [{"id": "shop", "url": "/api/openapi.json"}], "flows": [{"id": "search", "actions": [{"sourceId": "shop"}]}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := &docSite{docs: map[string]string{"/.well-known/agents.json": tc.card, "/api/openapi.json": openapi}}
			r := scanMux(t, "shop.example", site, 5*time.Second)
			c := checkByID(r, "backend_interface_declared")
			assert.Equal(t, VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
			assert.Contains(t, c.Receipt.Received, "OpenAPI 3 document https://shop.example/api/openapi.json")
		})
	}
}
