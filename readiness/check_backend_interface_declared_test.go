package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestBackendInterfaceFromFlowsCardSources: a card in the flows format names
// its OpenAPI document in sources[] or as a singular source object, relative
// or absolute. The scanner fetches the document it names, and the check
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

func TestBackendInterfaces(t *testing.T) {
	openapi := `{"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"}, "paths": {}}`
	tests := []struct {
		name    string
		site    http.Handler
		want    Verdict
		receive string
	}{
		{
			name: "an OpenAPI document announced by a service-desc Link header",
			site: &docSite{links: []string{`</api/spec.json>; rel="service-desc"; type="application/openapi+json"`}, docs: map[string]string{"/api/spec.json": openapi}},
			want: VerdictPass, receive: "OpenAPI 3 document https://shop.example/api/spec.json",
		},
		{
			name: "an OpenAPI document in YAML named in the card",
			site: &docSite{docs: map[string]string{
				"/.well-known/agents.json": `{"name": "Shop", "interfaces": [{"type": "openapi", "url": "/openapi.yaml", "auth": "none"}]}`,
				"/openapi.yaml":            "openapi: 3.1.0\ninfo:\n  title: Shop\n",
			}, types: map[string]string{"/openapi.yaml": "application/yaml"}},
			want: VerdictPass, receive: "OpenAPI 3 document https://shop.example/openapi.yaml",
		},
		{
			name: "a GraphQL endpoint named in the card",
			site: func() http.Handler {
				mux := http.NewServeMux()
				mux.Handle("/", &docSite{docs: map[string]string{"/.well-known/agents.json": `{"name": "Shop", "capabilities": [{"id": "q", "endpoint": "https://shop.example/graphql", "protocol": "GraphQL"}]}`}})
				mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					if r.URL.Query().Get("query") != "{__typename}" {
						http.Error(w, `{"errors": [{"message": "no query"}]}`, http.StatusBadRequest)
						return
					}
					fmt.Fprint(w, `{"data": {"__typename": "Query"}}`)
				})
				return mux
			}(),
			want: VerdictPass, receive: "GraphQL endpoint https://shop.example/graphql",
		},
		{
			name: "an MCP endpoint named in agentic.json",
			site: func() http.Handler {
				mux := http.NewServeMux()
				mux.Handle("/", &docSite{docs: map[string]string{"/agentic.json": `{"agentic": "1.1.0", "resources": [{"kind": "mcp", "url": "https://shop.example/agents/mcp"}]}`}})
				mux.Handle("/agents/mcp", newMCPServer(1, false, nil, 0))
				return mux
			}(),
			want: VerdictPass, receive: "MCP endpoint https://shop.example/agents/mcp",
		},
		{
			name: "an interface on another site is named, never fetched",
			site: &docSite{docs: map[string]string{"/.well-known/agents.json": `{"name": "Shop", "interfaces": [{"type": "openapi", "url": "https://api.other.example/openapi.json"}]}`}},
			want: VerdictPartial, receive: "another site: named, not fetched",
		},
		{
			name: "a named OpenAPI URL that is not OpenAPI",
			site: &docSite{docs: map[string]string{
				"/.well-known/agents.json": `{"name": "Shop", "interfaces": [{"type": "openapi", "url": "/spec.json"}]}`,
				"/spec.json":               `{"swagger": "2.0"}`,
			}},
			want: VerdictPartial, receive: "named but not reachable",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scanMux(t, "shop.example", tc.site, 5*time.Second)
			c := checkByID(r, "backend_interface_declared")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
			assert.Contains(t, c.Receipt.Received, tc.receive)
		})
	}
}

// At most maxInterfaceFetches interface documents are fetched: the others
// are counted in a note, never requested.
func TestBackendInterfaceFetchesBounded(t *testing.T) {
	const n = maxInterfaceFetches + 3
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf(`{"type": "rest", "url": "/api/v%d"}`, i))
	}
	card := `{"name": "Shop", "interfaces": [` + strings.Join(items, ", ") + `]}`
	var mu sync.Mutex
	var asked []string
	site := &docSite{docs: map[string]string{"/.well-known/agents.json": card}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			mu.Lock()
			asked = append(asked, r.URL.Path)
			mu.Unlock()
		}
		site.ServeHTTP(w, r)
	})
	r := scanMux(t, "shop.example", h, 5*time.Second)
	c := checkByID(r, "backend_interface_declared")
	// The card's n candidates and /openapi.json.
	assert.Contains(t, c.Receipt.Notes, fmt.Sprintf("fetched the first %d of %d interface candidates", maxInterfaceFetches, n+1))
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, asked, maxInterfaceFetches, "interface documents requested: %q", asked)
}
