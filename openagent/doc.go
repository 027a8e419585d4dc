// Package openagent implements OpenAgent 0.1, the portable description of an
// agent published as a logicsrc.agent profile: its identity, the owner
// responsible for it, the skills it advertises and the permissions it
// requests (openagent-0.1.md).
//
// # Reading a document
//
// [Parse] reads a profile: strict JSON, the embedded JSON Schema (see
// [Schema]) and the supported version, 0.1. It reports every problem at once
// in a *[ValidationError], each [Problem] with a JSON Pointer and a stable
// rule name. A well-formed version other than 0.1 is reported as unsupported
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
// elements and the equivalent Link header; [DiscoverAll] also says where each
// came from. [Fetch] reads one descriptor through a safefetch client,
// checks its Content-Type, validates it, and compares its did with the
// identity a listing supplied ([FetchOptions].ExpectDID; a mismatch is a
// *[DIDMismatchError], never a rename). The [Record] keeps the source URL, the
// final URL, the retrieval time and the HTTP validators, and [Refresh]
// revalidates it with a conditional request. A [Directory] merges records by
// did from several sources and surfaces conflicting claims instead of
// combining them.
//
// # What a profile is not
//
// Everything in a profile is a claim by its publisher. Passing validation or
// being served over HTTPS proves control of neither identity; requested
// permissions are a request, skills are claims and pricing is an indication.
// Nothing in this package grants access, verifies ownership, pays, calls a
// webhook_url or launches a process: a launcher applies its own authorization
// and runtime policy ("Identity and ownership", "Skills and permissions",
// "Profiles and rental listings", "Conformance").
//
// Every network call goes through [github.com/agentweb/agentweb/safefetch];
// tests use [github.com/agentweb/agentweb/safefetch/fetchtest].
package openagent
