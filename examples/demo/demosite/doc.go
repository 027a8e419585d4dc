// Package demosite is Example Shop: a complete agent-ready website served on
// a [fetchtest.Network], built from agentweb's own publisher-side handlers,
// for the demo (go run ./examples/demo) and for tests.
//
// [Start] serves three hosts of the fake internet:
//
//   - shop.example, the shop: HTML pages with lang, canonical, JSON-LD
//     (Organization with logo, sameAs and contactPoint; Product; WebPage with
//     dateModified) and a declarative page tool (a form with toolname,
//     tooldescription and toolparamdescription); the same pages as Markdown
//     on Accept: text/markdown with Vary: Accept, front matter (canonical,
//     updated, language) and Link headers; llms.txt; a sitemap; robots.txt
//     with the three crawler classes of the readiness catalogue (training
//     refused, search/citation and user-initiated allowed); the capability
//     card at /.well-known/agents.json and /agents.json (JSON-equal);
//     /agentic.json and /agentic.txt ([agentic.Handler]); the shopping
//     assistant's /.well-known/openagent.json ([openagent.Handler]); a
//     knowledge-linkset with real artefacts and digests ([linkset.Builder],
//     [linkset.Handler]); /.well-known/agent-signup.json
//     ([agentsignup.NewDocument], [agentsignup.Handler]) with an
//     rp_attestation signed by the demo broker; an OpenAPI 3.1 document; and
//     an MCP server (the official go-sdk) with two public read-only tools and
//     place_order behind OAuth: RFC 9728 protected resource metadata, RFC 8414
//     authorization server metadata and an authorization code grant that
//     requires PKCE S256;
//   - guide.example, a second knowledge-linkset node that names the shop as
//     its peer, as the shop names it;
//   - broker.example, the demo broker, whose Ed25519 key is generated at
//     Start and whose JWK Set is served at /.well-known/jwks.json.
//
// [Options.Defects] starts the site with chosen mistakes ([Defect]), so that
// a test or the demo can show what each one costs. Every package of the
// module that has a publisher side is used here through its exported API
// only; where none exists (pages, Markdown negotiation, the card, OAuth) the
// site writes the documents itself.
package demosite
