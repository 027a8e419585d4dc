package linkset

import (
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// The rule names of this package's problems, grouped by the section of the
// [knowledge-linkset draft] that states them. Each [Problem] carries one of
// them in Rule and the section in Section.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
const (
	// RuleJSONSyntax and the other json- rules are the strict JSON refusals
	// of Section 4.1 (RFC 8259 with the I-JSON rules of RFC 7493). They
	// refuse bad syntax, a duplicate member name, invalid UTF-8, a lone
	// surrogate, a byte-order mark, trailing data, excessive depth, a number
	// out of range.
	RuleJSONSyntax = strictjson.RuleSyntax

	// RuleURLSyntax: an href or a profile value is not an absolute URI
	// (Sections 4.1 and 4.3).
	RuleURLSyntax = problem.RuleURLSyntax

	// Shape of the link set (Section 4.1; RFC 9264, Section 4.2).
	RuleTopLevelObject = "top-level-object" // the document is not a JSON object
	RuleTopLevelMember = "top-level-member" // a top-level member other than linkset
	RuleLinksetMissing = "linkset-missing"  // no linkset member
	RuleLinksetArray   = "linkset-array"    // linkset is not an array
	RuleContextObject  = "context-object"   // a link context is not an object
	RuleRelationArray  = "relation-array"   // a relation is not an array
	RuleLinkObject     = "link-object"      // a link target is not an object
	RuleHrefMissing    = "href-missing"     // a link has no href
	RuleHrefString     = "href-string"      // href is not a string
	RuleAnchorString   = "anchor-string"    // anchor is not a string
	RuleRelationEmpty  = "relation-empty"   // an empty relation array (Strict mode)
	RuleCanonicalBytes = "canonical-bytes"  // not the RFC 8785 bytes and one LF (Strict mode)

	// Context and anchor (Section 4.1).
	RuleContextNone     = "context-none"      // no link context anchored at a Bundle IRI
	RuleContextMultiple = "context-multiple"  // two contexts anchored at a Bundle IRI
	RuleContextIgnored  = "context-ignored"   // notice: an additional context is ignored
	RuleAnchorMissing   = "anchor-missing"    // the Bundle context has no anchor
	RuleAnchorBundleIRI = "anchor-bundle-iri" // the anchor is not a Bundle IRI
	RuleAnchorOrigin    = "anchor-origin"     // the anchor is not the serving origin's Bundle IRI
	RuleHrefOrder       = "href-order"        // links of a relation out of href order
	RuleHrefDuplicate   = "href-duplicate"    // a repeated href (Strict mode)

	// Relations (Sections 4.2 and 4.5).
	RuleRelationUnregistered     = "relation-unregistered"      // neither a registered short name nor a URI
	RuleRelationExtensionUnknown = "relation-extension-unknown" // under the extension base, not in Table 1
	RuleRelationOutsideProfile   = "relation-outside-profile"   // registered, or a foreign URI, outside the profile
	RuleRelationIgnored          = "relation-ignored"           // notice: a client ignores the relation
	RuleRelatedType              = "related-type"               // a related-system link without type (Section 4.5)

	// Target attributes (Section 4.3).
	RuleTypeString       = "type-string"       // type is not a string
	RuleTitleString      = "title-string"      // title is not a string
	RuleMediaString      = "media-string"      // media is not a string
	RuleHreflangArray    = "hreflang-array"    // hreflang is not an array of strings
	RuleI18nAttribute    = "i18n-attribute"    // a name* attribute of the wrong shape
	RuleAttributeArray   = "attribute-array"   // a target attribute is not an array of strings
	RuleAttributeIgnored = "attribute-ignored" // notice: an unrecognised target attribute

	// Digests (Section 4.3.1).
	RuleDigestCount      = "digest-count"      // digest does not hold exactly one value
	RuleDigestSyntax     = "digest-syntax"     // not an RFC 9651 Dictionary
	RuleDigestAlgorithm  = "digest-algorithm"  // not the single member sha-256
	RuleDigestParameters = "digest-parameters" // the member carries parameters
	RuleDigestLength     = "digest-length"     // not a Byte Sequence of 32 bytes
	RuleDigestCanonical  = "digest-canonical"  // not the canonical serialization (Strict mode)

	// Bundle facts and the ledger head (Section 4.3.2).
	RuleGraphLinkMissing    = "graph-link-missing"    // no describedby link to the JSON-LD graph
	RuleBundleFactMissing   = "bundle-fact-missing"   // the full form lacks a bundle fact
	RuleBundleFactPlacement = "bundle-fact-placement" // a bundle fact on another link
	RuleBundleFactCount     = "bundle-fact-count"     // a bundle fact with other than one value
	RuleSpecVersionEmpty    = "spec-version-empty"    // agsc-spec-version is empty
	RuleGeneratedAtFormat   = "generated-at-format"   // agsc-generated-at is not an instant
	RuleCountsFormat        = "counts-format"         // an agsc-counts value is not type=n
	RuleCountsOrder         = "counts-order"          // agsc-counts out of order
	RuleBundleHashSyntax    = "bundle-hash-syntax"    // agsc-bundle-hash is not a digest
	RuleBundleHashTarget    = "bundle-hash-target"    // no N-Quads graph link with a digest
	RuleBundleHashMismatch  = "bundle-hash-mismatch"  // agsc-bundle-hash differs from that digest
	RuleBundleVersionSyntax = "bundle-version-syntax" // agsc-bundle-version syntax (Strict mode)
	RuleLedgerHeadPlacement = "ledger-head-placement" // agsc-ledger-head on another link
	RuleLedgerHeadFormat    = "ledger-head-format"    // agsc-ledger-head is not 64 hex digits

	// Declarations (Section 4.3.3).
	RuleDeclarationPlacement = "declaration-placement" // a declaration on a link it does not ride on
	RuleDeclarationCount     = "declaration-count"     // a declaration with other than one value
	RuleDeclarationValue     = "declaration-value"     // notice: an unknown value, read as most restrictive
	RuleTombstoneFormat      = "tombstone-format"      // agsc-tombstone is not an instant
	RuleSurfaceValue         = "surface-value"         // an unknown agsc-surface (Strict mode)
	RuleSurfaceVersion       = "surface-version"       // agsc-surface-version missing or extra (Strict mode)

	// Gated content (Sections 3.3 and 9.5).
	RuleGatedOmission      = "gated-omission"       // a gated node states what it must omit
	RuleGatedAccessMissing = "gated-access-missing" // a gated node names no access link
	RuleGatedAccessCount   = "gated-access-count"   // a gated node names more than one access link (a notice for a reader)

	// Peers (Section 7.2).
	RulePeerURL = "peer-url" // a peer href is not an https well-known URL

	// Retrieval (Sections 3.1 to 3.3).
	RuleMediaType         = "media-type"          // the response's media type
	RuleProfileMissing    = "profile-missing"     // the profile is carried nowhere
	RuleETagMissing       = "etag-missing"        // no ETag
	RuleCacheControl      = "cache-control"       // no Cache-Control: no-cache
	RuleCORSAllowOrigin   = "cors-allow-origin"   // no Access-Control-Allow-Origin: *
	RuleCORSExposeHeaders = "cors-expose-headers" // Link, ETag, Content-Type not exposed
	RuleCORSCredentials   = "cors-credentials"    // Access-Control-Allow-Credentials sent
	RuleLinkHeaderSyntax  = "link-header-syntax"  // a Link field strays from RFC 8288 Section 3 (a notice for a reader)
)
