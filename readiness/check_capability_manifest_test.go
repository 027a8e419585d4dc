package readiness

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// capabilityManifestEdges are the edge cases of the capability_manifest check.
func capabilityManifestEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "only the root agents.json",
			paths: map[string]http.HandlerFunc{"/.well-known/agents.json": status(http.StatusNotFound)},
			want:  map[string]Verdict{"capability_manifest": VerdictPass, "manifest_twins": VerdictPass},
		},
		{
			name: "no card but an A2A agent card",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json":     status(http.StatusNotFound),
				"/agents.json":                 status(http.StatusNotFound),
				"/.well-known/agent-card.json": text("application/json", `{"name":"Shop agent","skills":[{"id":"search"}]}`),
			},
			want: map[string]Verdict{"capability_manifest": VerdictPartial, "manifest_twins": VerdictNotApplicable},
		},
		{
			name: "an A2A agent card served as agents.json",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"name": "Shop agent", "url": "https://shop.example/a2a", "skills": [{"id": "search"}]}`),
				"/agents.json":             status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "capability_manifest").Receipt.Notes, "https://shop.example/.well-known/agents.json is an A2A agent card, not a capability card")
			},
		},
		{
			name: "a card with members the reader skips",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"name": "Shop", "contact": {"email": "a@shop.example"}, "interfaces": [{"id": "x"}]}`),
				"/agents.json":             status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "capability_manifest").Receipt.Notes, "https://shop.example/.well-known/agents.json: not read: /interfaces/0: an interface with neither a url nor a type")
			},
		},
		{
			name: "a card that is not JSON",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"name": "Shop",}`),
				"/agents.json":             status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, strings.Join(checkByID(r, "capability_manifest").Receipt.Notes, "\n"), "not valid JSON")
			},
		},
		{
			name: "twin agents.json that are the same non-card",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{}`),
				"/agents.json":             text("application/json", `{}`),
			},
			want: map[string]Verdict{"capability_manifest": VerdictFail, "manifest_twins": VerdictNotApplicable},
		},
		{
			name: "a flows agents.json whose source is a served OpenAPI document",
			paths: map[string]http.HandlerFunc{
				"/.well-known/agents.json": text("application/json", `{"agentsJson": "0.1.0", "info": {"title": "Shop flows", "version": "0.1.0", "description": "Order."},
"sources": [{"id": "shop", "path": "shop.openapi.yaml"}], "overrides": [],
"flows": [{"id": "order_flow", "title": "Order", "description": "Order a product.", "actions": [{"id": "a", "sourceId": "shop", "operationId": "order"}], "links": [], "fields": {"parameters": []}}]}`),
				"/agents.json": status(http.StatusNotFound),
				// A relative source is relative to the card's address.
				"/.well-known/shop.openapi.yaml": text("application/yaml", "openapi: 3.1.0\ninfo:\n  title: Shop\n  version: '1'\npaths: {}\n"),
				"/openapi.json":                  status(http.StatusNotFound),
				"/mcp":                           status(http.StatusNotFound),
			},
			want: map[string]Verdict{"capability_manifest": VerdictPass, "backend_interface_declared": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "backend_interface_declared").Receipt.Received, "OpenAPI 3 document https://shop.example/.well-known/shop.openapi.yaml")
			},
		},
	}
}
