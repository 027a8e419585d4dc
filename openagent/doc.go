// Package openagent implements OpenAgent 0.1, the portable description of an
// agent published as a logicsrc.agent profile: its identity, the owner
// responsible for it, the skills it advertises and the permissions it
// requests ([OpenAgent 0.1]).
//
// # Reading a document
//
// [Parse] reads a profile: strict JSON, the embedded JSON Schema (see
// [Schema]; the reference implementation's agent schema) and the supported
// version, 0.1. It reports every problem at once in a *[ValidationError],
// each [Problem] with a JSON Pointer and a stable rule name (the Rule
// constants). Schema failures are "schema-" plus the keyword. The shared URL
// rules have the names they have in every package of this module. A
// well-formed version other than 0.1 is reported as unsupported
// ([ErrUnsupportedVersion]) and never rewritten. [Profile.Marshal] writes a
// profile back with a stable member order, and [CheckPublic] lints a profile
// a publisher is about to serve for access tokens, private keys and private
// workspace paths ("Publication and discovery").
//
// # Publishing
//
// [Handler] serves one profile, at [WellKnownPath] or any path, as
// application/json with an ETag and conditional GET. [LinkElement] and
// [LinkHeader] produce the two advertisements a page or a response can carry.
//
// # Discovering and reading over the network
//
// [Discover] finds the descriptors a page advertises: the origin's
// /.well-known/openagent.json, <link rel="openagent" type="application/json">
// elements and the equivalent Link header, each with where it came from.
// [Fetch] reads one descriptor through a safefetch client, checks its
// Content-Type and validates it. It compares its did with the identity a
// listing supplied ([FetchOptions].ExpectDID); a mismatch is a
// *[DIDMismatchError], never a rename. [Discovery.Fetch] does the same
// without requesting the well-known descriptor a second time. The [Record]
// embeds the module's retrieval record, safefetch.Provenance (source URL,
// final URL, retrieval time, HTTP validators), and [FetchOptions].Previous
// revalidates it with a conditional request. A [Directory] merges records by
// did from several sources and surfaces conflicting claims instead of
// combining them. A nil [FetchOptions].Client means safefetch.Default(), one
// shared client whose connections are reused.
//
// # What a profile is not
//
// Everything in a profile is a claim by its publisher. Passing validation or
// being served over HTTPS proves control of neither identity; requested
// permissions are a request, skills are claims and pricing is an indication.
// Nothing in this package grants access, verifies ownership, pays, calls a
// webhook_url or launches a process. A launcher applies its own authorization
// and runtime policy ("Identity and ownership", "Skills and permissions",
// "Profiles and rental listings", "Conformance").
//
// # What is left out
//
// The package implements the wire document and its publication and
// discovery of OpenAgent 0.1. It does not implement the LogicSRC task API,
// rental listings, payments or identity resolution, which the page names
// but leaves to other documents. It reads profiles as JSON only: the
// reference's YAML authoring form is not read. It supports version 0.1
// only, reporting any other version as unsupported.
//
// Every network call goes through [github.com/agentweb/agentweb/safefetch];
// tests use [github.com/agentweb/agentweb/safefetch/fetchtest].
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
package openagent
