// Package demosite is Example Shop: a complete agent-ready website served on
// a [fetchtest.Network]. It is built on agentweb's publish kit
// ([publish.Site.Handler]) and the spec packages' own builders. It serves
// the demo (go run ./examples/demo), tests and benchmarks.
//
// [Start] serves three hosts of the fake internet:
//
//   - shop.example, the shop. The shop writes only what is its own: HTML
//     pages with JSON-LD (Organization with logo, sameAs and contactPoint;
//     Product; WebPage with dateModified) and a declarative page tool (a
//     form with toolname, tooldescription and toolparamdescription), each
//     page's own Markdown, the catalogue API, the linkset's artefacts, an
//     MCP server (the official go-sdk) with two public read-only tools and
//     place_order behind OAuth, and its OAuth authorization server (RFC 8414
//     metadata and an authorization code grant that requires PKCE S256).
//     The kit wraps them and serves the rest: Markdown negotiation with
//     Vary: Accept and front matter, the head elements and Link header
//     fields, llms.txt, the sitemap, robots.txt with the three crawler
//     classes (training refused, search/citation and user-initiated
//     allowed), the capability card at /.well-known/agents.json and
//     /agents.json, the MCP endpoint's RFC 9728 metadata, the OpenAPI 3.1
//     document, and the four spec documents the shop builds with their
//     packages: /agentic.json and /agentic.txt ([agentic.Site]), the
//     shopping assistant's OpenAgent profile ([openagent.Profile]), a
//     knowledge-linkset with real artefacts and digests ([linkset.Builder])
//     and /.well-known/agent-signup.json ([agentsignup.NewDocument]) with an
//     rp_attestation signed by the demo broker;
//   - guide.example, a second knowledge-linkset node that names the shop as
//     its peer, as the shop names it;
//   - broker.example, the demo broker, whose Ed25519 key is generated at
//     Start and whose JWK Set is served at /.well-known/jwks.json.
//
// [Options.Host] serves the shop under another name (the peer and the
// broker follow), so that many shops can share one network.
//
// [Options.Defects] starts the site with chosen mistakes ([Defect]), so that
// a test or the demo can show what each one costs. Each is made with the
// exported API only. Some are in the shop's own handlers: a broken JSON-LD
// block, a changed artefact, a stale terms text the kit would refuse, an
// authorization server without PKCE. Others are in a front between the kit
// and the network, as a real site makes them outside its application: a
// cache that drops Accept or Vary, a stale copy of the card.
package demosite
