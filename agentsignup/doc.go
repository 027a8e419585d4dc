// Package agentsignup implements agent-identity-v1 discovery, version 1.2 of
// its "Discovery fields" page ([agent-identity-v1 discovery fields]). That
// is the identity-only document a relying party publishes at GET
// /.well-known/agent-signup.json ([WellKnownPath]). With it an agent can
// sign up for its human owner through a broker.
//
// It serves four readers:
//   - relying parties publish the document (NewDocument fills terms.sha256
//     from the terms text, Handler serves it) and check the terms hash an
//     assertion accepted (CheckAcceptedTerms, with a grace window for the
//     previous hash capped at 24 hours);
//   - agents fetch and validate it (Fetch, Parse) and recompute the terms
//     hash (TermsHash) before calling the broker;
//   - verifiers check the optional provider verification credential,
//     rp_attestation, in the shape of an OpenID Connect verifier:
//     [NewVerifier] with a StaticKeySet or a JWKSKeySet and a
//     [VerifierConfig] (clock, leeway), then [Verifier.Verify] per document;
//   - brokers (and tests) sign one (SignAttestation, which produces exactly
//     the EdDSA agent-rp-attestation+jwt compact JWS a Verifier accepts and
//     refuses forbidden claims).
//
// # What the specification says, and what this package reads into it
//
// The implemented text is the "Discovery fields" page of agent-identity-v1.
// It lost the bodies of its "Required fields", "Optional fields" and
// "Forbidden fields" tables, and no public copy of them could be found. The
// field set, the forbidden member table and the attestation claim names in
// this package are this project's reading of those tables, not the
// published tables themselves:
//   - required: protocol (exactly "agent-identity-v1"), audience (non-empty,
//     no whitespace), provider_name (1–160 characters), issuer_allowlist
//     (non-empty, unique canonical https origins), required_scopes (unique,
//     non-empty strings), terms {version, url (https), sha256, text} and
//     endpoints {agent_signup (https)}: exactly the members of the page's
//     "Minimal conformant example";
//   - optional: rp_attestation (a compact JWS) and extensions (an object whose
//     keys are reverse-DNS namespaces such as "com.example", each holding an
//     object);
//   - unknown members: accepted and reported as warnings (rule
//     RuleUnknownField) at the top level and inside terms and endpoints;
//     "Consumers must ignore unknown additive fields" and "The validator
//     warns on unknown top-level fields";
//   - forbidden at any depth, extensions included: the table returned by
//     ForbiddenFields (capability-catalog members, provider-identity members
//     other than rp_attestation, private and account material);
//   - attestation claims: iss, iat, exp, optional nbf, rp {origin, audience},
//     the provider identity and assurance level, and keys (public JWKs).
//
// The page's own rules are implemented as written. The field terms.sha256 is
// "sha256:" + the lower-case hex SHA-256 of the exact UTF-8 bytes of
// terms.text. Line endings and whitespace are not normalised ("Terms text and
// hash"). The attestation is a compact JWS with typ agent-rp-attestation+jwt
// and alg EdDSA ("The optional provider verification credential"). Its
// rp.origin must equal the canonical origin the document was fetched from,
// and its rp.audience the document's audience. It must not carry a terms
// hash, scopes, endpoints, provider_url, account ids, prices or private
// material. An expired, invalid or untrusted attestation is a verification
// result, never a conformance failure. Only a malformed one is a conformance
// error.
//
// Another protocol also publishes documents at the same well-known path. A
// document without protocol "agent-identity-v1" gets exactly one problem,
// RuleNotAgentIdentity ("not an agent-identity-v1 document"), and its error
// matches ErrNotAgentIdentity, rather than a list of every missing field.
//
// # Fetching
//
// Fetch is the agent's and verifier's entry point. It GETs origin +
// WellKnownPath through a safefetch client; nil means safefetch.Default(), one
// shared client whose connections are reused. It follows redirects only to the
// same origin or its exact www counterpart, and requires Content-Type
// application/json. It validates the body with Parse. It verifies the
// attestation with [FetchOptions].Verifier against the canonical origin of the
// URL the document actually came from. [Fetched] embeds the module's retrieval
// record, safefetch.Provenance (source and final URLs, retrieval time, ETag
// and Last-Modified), and given it as [FetchOptions].Previous, Fetch
// revalidates with a conditional request. An unexpected status is a
// *safefetch.StatusError and a wrong media type a *safefetch.ContentTypeError,
// as in every package of this module. Attestation keys come from the caller: a
// StaticKeySet, or a JWKSKeySet that fetches a JWK Set through safefetch and
// caches it. No JOSE library type appears in the API.
//
// # Errors
//
// Parse returns a usable *Document only for a conformant document; otherwise
// its error is a *ValidationError listing every problem at once, each with a
// JSON Pointer, a stable rule name and a message. Warnings travel on the
// Document (and on the ValidationError, for a document that also has
// problems).
//
// A document is not signed in v1.2: trust in it comes from TLS and the issuer
// allowlist. A valid document says nothing about the service's security,
// uptime or product ("Known limits").
//
// # What is left out
//
// The package implements discovery only. The broker's assertion format, the
// signup call itself and account linking belong to other parts of
// agent-identity-v1 and are not implemented. CheckAcceptedTerms compares a
// hash the caller has taken from an assertion. Signed discovery documents
// (not part of v1.2) are not read.
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
package agentsignup
