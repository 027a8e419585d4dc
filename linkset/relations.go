package linkset

import "strings"

// ExtensionRelationBase is the base of the closed set of extension relation
// URIs (Section 4.2): each is this base followed by a name of Table 1.
const ExtensionRelationBase = "https://w3id.org/agentic-system-core/rel#"

// The closed set of extension relations of Section 4.2, Table 1 (all twelve,
// boards included; the draft's reference validator omits boards, NOTES.md).
const (
	RelGraph      = ExtensionRelationBase + "graph"      // a further serialization of the Bundle's graph
	RelOntology   = ExtensionRelationBase + "ontology"   // the vocabulary the graph uses
	RelContext    = ExtensionRelationBase + "context"    // the JSON-LD context of the graph
	RelNow        = ExtensionRelationBase + "now"        // the generated state page of the Bundle
	RelSkills     = ExtensionRelationBase + "skills"     // the index of exported procedure packages
	RelLedger     = ExtensionRelationBase + "ledger"     // the derived change ledger of the Bundle
	RelPeer       = ExtensionRelationBase + "peer"       // another node's discovery document
	RelSurface    = ExtensionRelationBase + "surface"    // an agent-facing surface this node serves
	RelContribute = ExtensionRelationBase + "contribute" // an endpoint that accepts contributions
	RelAccess     = ExtensionRelationBase + "access"     // a page that says how to obtain credentials
	RelSignature  = ExtensionRelationBase + "signature"  // a detached signature over the discovery document
	RelBoards     = ExtensionRelationBase + "boards"     // the index of the Bundle's project boards
)

// extensionNames is Table 1 of Section 4.2.
var extensionNames = map[string]bool{
	"graph": true, "ontology": true, "context": true, "now": true, "skills": true, "ledger": true,
	"peer": true, "surface": true, "contribute": true, "access": true, "signature": true, "boards": true,
}

// profileShortNames are the registered short names Section 4.2 lets a node
// use, with the related-system names of Section 4.5 (value true).
var profileShortNames = map[string]bool{
	"describedby": false, "alternate": false, "license": false, "service-doc": false, "author": false,
	"related": true, "service-desc": true, "service-meta": true, "collection": true, "item": true, "cite-as": true,
}

// typedRelations are the short names whose links are (or may be)
// related-system links, which MUST carry type (Section 4.5).
var typedRelations = map[string]bool{
	"describedby": true, "alternate": true, "service-doc": true, "related": true,
	"service-desc": true, "service-meta": true, "collection": true, "item": true, "cite-as": true,
}

// ianaRelations is the IANA "Link Relation Types" registry (2026), used to
// tell a registered short name outside the profile (ignored by a client) from
// an unregistered one (never allowed, Section 4.2).
var ianaRelations = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`about acl alternate amphtml api-catalog appendix apple-touch-icon
	apple-touch-startup-image archives author blocked-by bookmark c2pa-manifest canonical chapter cite-as
	collection compression-dictionary contents convertedfrom copyright create-form current deprecation
	describedby describes disclosure dns-prefetch duplicate edit edit-form edit-media enclosure external
	first geofeed glossary help hosts hub ice-server icon index intervalafter intervalbefore
	intervalcontains intervaldisjoint intervalduring intervalequals intervalfinishedby intervalfinishes
	intervalin intervalmeets intervalmetby intervaloverlappedby intervaloverlaps intervalstartedby
	intervalstarts item last latest-version license linkset lrdd manifest mask-icon me media-feed memento
	micropub modulepreload monitor monitor-group next next-archive nofollow noopener noreferrer opener
	openid2.local_id openid2.provider original p3pv1 payment pingback preconnect predecessor-version
	prefetch preload prerender prev prev-archive preview previous privacy-policy profile publication
	related replies restconf ruleinput search section self service service-desc service-doc service-meta
	sip-trunking-capability sponsored start status stylesheet subsection successor-version sunset tag
	terms-of-service timegate timemap type ugc up version-history via webmention working-copy
	working-copy-of`) {
		m[n] = true
	}
	return m
}()

// relClass classifies a relation name (Section 4.2).
type relClass uint8

const (
	relProfile      relClass = iota // a short name of Sections 4.2/4.5 or a member of Table 1
	relRegistered                   // registered, but not one the profile uses
	relExtUnknown                   // under the extension base, not in Table 1
	relForeignURI                   // an extension relation URI under another base
	relUnregistered                 // an unregistered short name, or not a URI at all
)

func classifyRelation(name string) relClass {
	if rest, ok := strings.CutPrefix(name, ExtensionRelationBase); ok {
		if extensionNames[rest] {
			return relProfile
		}
		return relExtUnknown
	}
	if isAbsoluteURI(name) {
		return relForeignURI
	}
	lower := strings.ToLower(name)
	if _, ok := profileShortNames[lower]; ok {
		return relProfile
	}
	if ianaRelations[lower] {
		return relRegistered
	}
	return relUnregistered
}

// shortRel returns the lower-cased short name, or the extension name after
// the base prefixed with "#" (for example "#graph"), or "" for other URIs.
func shortRel(name string) string {
	if rest, ok := strings.CutPrefix(name, ExtensionRelationBase); ok {
		return "#" + rest
	}
	if strings.Contains(name, ":") {
		return ""
	}
	return strings.ToLower(name)
}
