// Package linkset implements the knowledge-linkset well-known URI, version -00
// of the [knowledge-linkset draft]
// (draft-besleaga-agentic-knowledge-wellknown-00). That is the link set ([RFC
// 9264]) that a web origin serves at /.well-known/knowledge-linkset to describe
// the knowledge artefacts it publishes. Its profile is
// https://w3id.org/agentic-system-core/profile/agentic-knowledge. Section
// numbers in this package's documentation and in every [Problem]'s Section are
// those of that draft.
//
// # Reading and checking
//
// [Parse] reads a document strictly: duplicate member names, invalid UTF-8,
// lone surrogates and byte-order marks are errors. The [Document] it returns
// keeps context, relation, link and attribute order, so that a round trip
// through [Document.MarshalJSON] loses nothing. It checks only the link
// set's shape. [Document.Check] applies the profile for a publisher. It
// returns every [Problem] with a stable rule name (the Rule constants), the
// JSON Pointer of the offending value and the draft section.
// [Document.Evaluate] does the same in a chosen [Mode], and returns the
// [Form]: full, reduced (Section 4.4) or not conformant. [ModeReader]
// ignores, as a client must, what it does not recognise, and says so in
// notices. [ModeStrict] adds the reference validator's checks, the canonical
// bytes among them. The rules live in files named after their section:
// check_context.go (4.1), check_relations.go (4.2, 4.5), check_attributes.go
// (4.3, 4.3.1), check_facts.go (4.3.2), check_declarations.go (4.3.3) and
// check_gated.go (9.5, 9.7).
//
// Digests (Section 4.3.1) are read with [ParseDigest] and compared with
// retrieved bytes by [Link.VerifyDigest]: verified, mismatch, or unverified
// when the link carries none (never invalid, Section 4.4). [Document.Facts]
// reads the bundle facts (Section 4.3.2) and the declarations (Section
// 4.3.3). The ledger head of Section 9.1 is computed by [LedgerHead] and
// compared with an earlier one by [LedgerExtends].
//
// # Publishing
//
// A [Builder] takes the Bundle IRI and the artefacts and produces the
// canonical document. It computes digests in one streaming pass per
// artefact, and puts hrefs in code point order. The bundle facts ride on
// the describedby link to the JSON-LD graph, the ledger head on the ledger
// link. The document is reproducible from a source date. It has the full,
// reduced (Section 4.4), gated (Section 9.5) or tombstone (Section 9.7)
// form.
//
// [Handler] serves a conformant [Document] at [WellKnownPath] with the
// media type and profile of Section 3.1. It sends the ETag and
// Cache-Control of Section 3.2 and the CORS headers of Section 3.3, and
// answers conditional requests with 304. It refuses a document that does
// not conform. [CORS] adds the same cross-origin headers to a node's
// artefacts, and [Advertise], [LinkHeader] and [LinkElement] point pages
// at the document (Section 5).
//
// # Reading from the network
//
// [Fetch] retrieves a discovery document through safefetch (https only; http
// to loopback only in the development mode of a client built with
// safefetch.Options.AllowLoopback), reading at most one mebibyte (Section
// 7.1). It accepts the profile from the media type parameter or from a Link
// header field with the same result (Section 3.1), and lets the received
// media type decide. It makes a conditional request from the
// [safefetch.Provenance] of an earlier retrieval (Section 3.2). It checks
// the response headers of Sections 3.2 and 3.3 and the anchor's origin. It
// returns a [Fetched] that embeds the retrieval's Provenance beside the
// problems. [Fetched.Verify] then retrieves the artefacts under a bound and
// reports each link's [DigestState]. [Discover] finds the document from a
// page (Section 5). A nil Client in any options struct means
// safefetch.Default(), the module's shared client.
//
// [Walk] follows peer links (Section 7.2) within the bounds of
// [WalkOptions], whose zero value is the draft's suggested defaults. They
// bound the depth, the peer links per document in document order, and the
// requests per walk counting redirects. The requests are never more than
// the sum over the depths of peers^depth. They also bound the time of each
// request and the redirects of each fetch. Its visited set is keyed by the
// canonical well-known URL ([CanonicalURL]); unreachable peers are recorded
// and never retried; tombstoned nodes are not descended, and their
// successors are not treated as the same node. The result is complete or
// partial, with the bounds touched, and every node other than the start is
// labelled untrusted with its origin (Section 7.3). [Mutual] is the peer
// test on two local documents; a tombstoned node is never mutual, even when
// it still names its peer, as Walk does not descend into it (Section 9.7).
//
// Section 7.4 forbids a node to fetch another node while building its own
// artefacts: nothing on the publishing side of this package touches the
// network.
//
// # What is left out
//
// The package reads and writes the discovery document and verifies the
// artefacts' digests. It does not read the artefacts themselves: the
// JSON-LD graph, N-Quads, the ledger's entries beyond their hashes, the
// boards. It does not verify the detached signature of the signature
// relation, and does not follow related-system links (Section 4.5). It
// does not implement the reference engine's build levels or federated
// queries. The internationalized target attributes of RFC 9264 (title*
// and the like) are kept for a round trip but not exposed.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
// [RFC 9264]: https://www.rfc-editor.org/rfc/rfc9264
package linkset
