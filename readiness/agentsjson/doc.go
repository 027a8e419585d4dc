// Package agentsjson is the capability card of the agent-readiness scoring
// method: the agents.json document a site serves at /.well-known/agents.json
// and /agents.json to say what it publishes, which interfaces it exposes, how
// an agent signs in and which person can be reached (the method's Section 05,
// "Discover").
//
// No single agents.json format has won, so [Parse] is a tolerant reader of
// the formats in use, each recognised by its own members and read only where
// a member has the expected shape:
//
//   - the method's own card ([FormatMethod]): name, url, description,
//     publishes, interfaces, auth, contact;
//   - the IETF agents.txt draft's JSON companion ([FormatAgentsTxt]): site,
//     capabilities[{id or name, endpoint, protocol, auth}], access;
//   - [wild-card-ai agents.json] ([FormatWildCard]): agentsJson, info,
//     sources[{id, path}] (each an OpenAPI document), flows, overrides; and
//     the flows cards that name their one interface as a singular source
//     ({"type": "openapi", "url": ...}, or a URL string), read beside flows
//     or agentsJson only. A source's url is read where path is missing;
//     relative URLs are kept as written, for the caller to resolve
//     against the card's own URL;
//   - the [site_info draft] ([FormatSiteInfo]): site_info, authentication
//     {required, methods}, intents (a list, or {supported: [...]} whose
//     entries list endpoints[{path}]), policies.
//
// Every format's interfaces land in one list, [Card.Interfaces]. A JSON object
// of another kind served at the card's address (an A2A agent card, an MCP
// server card, an OpenAPI document, an Agentic Site Profile) is named in
// [Card.Foreign]. What the reader saw but could not read is listed in
// [Card.Skipped], and members no format reads are kept in [Card.Extra].
//
// [Card.Marshal] writes the method's card, always the same bytes for the same
// value; [Handler] serves those bytes at both addresses with an ETag,
// conditional GET (304), Access-Control-Allow-Origin: * and
// Content-Type: application/json.
//
// Left out: validating any format against its own schema (a card is read, not
// judged; the scanner judges what it names), and the flows' operations, which
// refer into the OpenAPI documents and are not interfaces of their own.
//
// [wild-card-ai agents.json]: https://github.com/wild-card-ai/agents-json
// [site_info draft]: https://github.com/jmilinovich/agents.json
package agentsjson
