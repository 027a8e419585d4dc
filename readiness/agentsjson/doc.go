// Package agentsjson is the capability card of the agent-readiness scoring
// method (its Section 05, "Discover"). The card is the agents.json document
// a site serves at /.well-known/agents.json and /agents.json. It says what
// the site publishes, which interfaces it exposes, how an agent signs in and
// which person can be reached.
//
// No single agents.json format has won, so [Parse] reads the formats in use
// tolerantly. Each is recognised by its own members, and a member is read
// only where it has the expected shape:
//
//   - the method's own card ([FormatMethod]): name, url, description,
//     publishes, interfaces, auth, contact;
//   - the IETF agents.txt draft's JSON companion ([FormatAgentsTxt]): site,
//     capabilities[{id or name, endpoint, protocol, auth}], access;
//   - [wild-card-ai agents.json] ([FormatWildCard]): agentsJson, info,
//     sources[{id, path}] (each an OpenAPI document), flows, overrides.
//     A flows card may name its one interface as a singular source
//     ({"type": "openapi", "url": ...}, or a URL string), read beside flows
//     or agentsJson only. A source's url is read where path is missing.
//     Relative URLs are kept as written; the caller resolves them against
//     the card's own URL;
//   - the [site_info draft] ([FormatSiteInfo]): site_info, authentication
//     {required, methods}, intents (a list, or {supported: [...]} whose
//     entries list endpoints[{path}]), policies.
//
// Every format's interfaces land in one list, [Card.Interfaces]. A site may
// serve a JSON object of another kind at the card's address, such as an A2A
// agent card or an OpenAPI document; [Card.Foreign] names it. What the reader
// saw but could not read is listed in [Card.Skipped]. Members no format reads
// are kept in [Card.Extra].
//
// [Card.Marshal] writes the method's card, always the same bytes for the same
// value. [Handler] serves those bytes at both addresses.
//
// Left out: validating any format against its own schema. A card is read,
// not judged; the scanner judges what it names. The flows' operations are
// left out too: they refer into the OpenAPI documents and are not interfaces
// of their own.
//
// [wild-card-ai agents.json]: https://github.com/wild-card-ai/agents-json
// [site_info draft]: https://github.com/jmilinovich/agents.json
package agentsjson
