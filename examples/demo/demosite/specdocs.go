package demosite

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
)

// termsText is the agreement agents accept for their human owners; its
// SHA-256 is terms.sha256 of the agent-signup document.
const termsText = "Example Shop terms for agents, version 2026-11. An agent acts for a verified human owner, who is bound by these terms. Agents may read the catalogue freely, must not place more than ten orders a day, and must hand any dispute to a person at agents@shop.example."

// openAPI is the shop's OpenAPI 3.1 description.
func (s *Site) openAPI() []byte {
	return []byte(`{
  "openapi": "3.1.0",
  "info": {"title": "Example Shop API", "version": "1.0.0", "description": "The catalogue and orders of Example Shop."},
  "servers": [{"url": "` + strings.TrimSuffix(s.URL, "/") + `"}],
  "paths": {
    "/api/products": {"get": {"operationId": "searchProducts", "summary": "Search the catalogue",
      "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}],
      "responses": {"200": {"description": "Matching products"}}}},
    "/api/products/{sku}": {"get": {"operationId": "getProduct", "summary": "Read one product",
      "parameters": [{"name": "sku", "in": "path", "required": true, "schema": {"type": "string"}}],
      "responses": {"200": {"description": "The product"}, "404": {"description": "No such product"}}}},
    "/api/orders": {"post": {"operationId": "placeOrder", "summary": "Place an order (OAuth, scope orders:write)",
      "security": [{"oauth": ["orders:write"]}],
      "responses": {"201": {"description": "The order"}, "401": {"description": "A token is needed"}}}}
  },
  "components": {"securitySchemes": {"oauth": {"type": "oauth2", "flows": {"authorizationCode": {
    "authorizationUrl": "` + strings.TrimSuffix(s.URL, "/") + `/oauth/authorize",
    "tokenUrl": "` + strings.TrimSuffix(s.URL, "/") + `/oauth/token",
    "scopes": {"orders:write": "Place orders for the human owner"}}}}}}
}
`)
}

// agenticSite is the shop's Agentic Site Profile 1.1, whose API index
// repeats the live OpenAPI document's operations.
func (s *Site) agenticSite() *agentic.Site {
	b := strings.TrimSuffix(s.URL, "/")
	return &agentic.Site{
		Agentic: agentic.Version, Type: agentic.TypeSite, Origin: b,
		Name:        "Example Shop",
		Description: "Outdoor gear for hikers and campers, shipped within the EU. Agents may read the catalogue; orders need an OAuth token.",
		Resources: []agentic.Resource{
			{Kind: agentic.KindWebsite, URL: b + "/", Source: b + "/", Availability: agentic.AvailabilityRetrieved, Title: "Example Shop"},
			{Kind: agentic.KindLLMs, URL: b + "/llms.txt", Source: b + "/", Availability: agentic.AvailabilityRetrieved, Title: "llms.txt"},
			{Kind: agentic.KindDocumentation, URL: b + "/docs", Source: b + "/", Availability: agentic.AvailabilityRetrieved, Title: "Developer documentation"},
			{Kind: agentic.KindOpenAPI, URL: b + "/openapi.json", Source: b + "/docs", Availability: agentic.AvailabilityRetrieved, Title: "Example Shop API"},
			{Kind: agentic.KindMCP, URL: b + "/mcp", Source: b + "/docs", Availability: agentic.AvailabilityLinked, Title: "Example Shop MCP server"},
		},
		APIs: []agentic.API{{
			Document: b + "/openapi.json", OpenAPI: "3.1.0",
			Operations: []agentic.Operation{
				{Method: "GET", Path: "/api/products", OperationID: "searchProducts", Summary: "Search the catalogue"},
				{Method: "GET", Path: "/api/products/{sku}", OperationID: "getProduct", Summary: "Read one product"},
				{Method: "POST", Path: "/api/orders", OperationID: "placeOrder", Summary: "Place an order (OAuth, scope orders:write)"},
			},
		}},
	}
}

// shoppingAgent is the OpenAgent 0.1 profile of the shop's assistant.
func shoppingAgent() *openagent.Profile {
	polling := true
	amount := 0.0
	return &openagent.Profile{
		Type: openagent.Type, Version: openagent.Version,
		Name: "Example Shop Assistant", DID: "assistant.exampleshop", OwnerDID: "owner.exampleshop",
		Description:          "Finds gear in the Example Shop catalogue and prepares orders for a person to confirm.",
		Skills:               []string{"product-search", "gear-advice", "order-preparation"},
		SupportedTaskTypes:   []string{"search", "compare"},
		PermissionsRequested: []string{"web:read"},
		Pricing:              &openagent.Pricing{Model: openagent.PricingFree, Amount: &amount, Currency: "EUR"},
		PollingMode:          &polling,
	}
}

// graphJSONLD and graphNQuads are the Bundle's knowledge graph in two
// serializations (knowledge-linkset, Section 4).
func (s *Site) graphJSONLD() []byte {
	return []byte(`{"@context":"https://schema.org","@graph":[` + s.organizationLD() + `,` + s.productLD() + `]}` + "\n")
}

func (s *Site) graphNQuads() []byte {
	b := strings.TrimSuffix(s.URL, "/")
	return []byte("<" + b + "/#org> <https://schema.org/name> \"Example Shop\" .\n" +
		"<" + b + "/products#tent-2> <https://schema.org/name> \"Trail Tent 2\" .\n" +
		"<" + b + "/products#tent-2> <https://schema.org/brand> <" + b + "/#org> .\n")
}

// artefacts are the bodies the shop's linkset describes, by path. The
// OpenAPI document is served by the publish kit from the same bytes
// (publish.Site.OpenAPI), so its digest holds.
func (s *Site) artefacts() map[string][]byte {
	return map[string][]byte{
		"/graph.jsonld": s.graphJSONLD(),
		"/graph.nq":     s.graphNQuads(),
		"/openapi.json": s.openAPI(),
	}
}

// shopLinkset builds the shop's knowledge-linkset discovery document.
func (s *Site) shopLinkset() (*linkset.Document, error) {
	b := strings.TrimSuffix(s.URL, "/")
	art := s.artefacts()
	builder := &linkset.Builder{
		BundleIRI: s.URL, SourceDate: s.now().UTC().Truncate(time.Second),
		SpecVersion: "1.0.0-rc.6", BundleVersion: "2026.11.2",
		Counts: map[string]int{"organizations": 1, "products": 3},
	}
	builder.Artefacts = append(builder.Artefacts,
		linkset.Artefact{Relation: "describedby", Href: b + "/graph.jsonld", Type: "application/ld+json", Body: art["/graph.jsonld"]},
		linkset.Artefact{Relation: linkset.RelGraph, Href: b + "/graph.nq", Type: "application/n-quads", Body: art["/graph.nq"]},
		linkset.Artefact{Relation: "service-desc", Href: b + "/openapi.json", Type: "application/json", Body: art["/openapi.json"]},
		linkset.Artefact{Relation: "license", Href: b + "/terms"},
		linkset.Artefact{Relation: linkset.RelSurface, Href: b + "/mcp", Attributes: []linkset.Attribute{
			{Name: "agsc-surface", Values: []string{"mcp"}}, {Name: "agsc-access", Values: []string{"public"}}}},
		linkset.Artefact{Relation: linkset.RelPeer, Href: "https://" + s.PeerHost + linkset.WellKnownPath, Type: linkset.MediaType},
	)
	doc, _, err := builder.Build()
	return doc, err
}

// peerLinkset builds the peer's document, which names the shop back.
func (s *Site) peerLinkset() (*linkset.Document, error) {
	b := "https://" + s.PeerHost
	doc, _, err := (&linkset.Builder{BundleIRI: b + "/", Reduced: true, Artefacts: []linkset.Artefact{
		{Relation: "describedby", Href: b + "/guide.jsonld", Type: "application/ld+json"},
		{Relation: linkset.RelPeer, Href: strings.TrimSuffix(s.URL, "/") + linkset.WellKnownPath, Type: linkset.MediaType},
	}}).Build()
	return doc, err
}

// signupDocument builds the agent-signup document with its rp_attestation,
// signed by the demo broker.
func (s *Site) signupDocument() (*agentsignup.Document, error) {
	b := strings.TrimSuffix(s.URL, "/")
	now := s.now()
	token, err := agentsignup.SignAttestation(agentsignup.AttestationClaims{
		Issuer:   s.BrokerIssuer,
		IssuedAt: now.Add(-time.Minute),
		Expiry:   now.Add(24 * time.Hour),
		RP:       agentsignup.AttestedRP{Origin: b, Audience: s.Host},
	}, s.brokerKey, brokerKeyID)
	if err != nil {
		return nil, err
	}
	return agentsignup.NewDocument(agentsignup.Document{
		Audience: s.Host, ProviderName: "Example Shop",
		IssuerAllowlist: []string{s.BrokerIssuer},
		RequiredScopes:  []string{"tos:accept", "orders:write"},
		Terms:           agentsignup.Terms{Version: "2026-11", URL: b + "/terms", Text: termsText},
		Endpoints:       agentsignup.Endpoints{AgentSignup: b + "/api/signup/agent"},
		RPAttestation:   token,
	})
}

// brokerJWKS is the broker's public JWK Set.
func (s *Site) brokerJWKS() []byte {
	out, _ := json.Marshal(map[string]any{"keys": []any{map[string]any{
		"kty": "OKP", "crv": "Ed25519", "kid": brokerKeyID, "use": "sig", "alg": "EdDSA",
		"x": base64.RawURLEncoding.EncodeToString(s.BrokerKey),
	}}})
	return out
}
