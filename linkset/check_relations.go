package linkset

import (
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
)

// This file holds the rules of Sections 4.2 (relations) and 4.5
// (related-system links) of the knowledge-linkset draft.

// extensionRelationBase is the base of the closed set of extension relation
// URIs (Section 4.2): each is this base followed by a name of Table 1.
const extensionRelationBase = "https://w3id.org/agentic-system-core/rel#"

// The closed set of extension relations of Section 4.2, Table 1 (all twelve,
// boards included, although the draft's reference validator omits boards).
const (
	RelGraph      = extensionRelationBase + "graph"      // a further serialization of the Bundle's graph
	RelOntology   = extensionRelationBase + "ontology"   // the vocabulary the graph uses
	RelContext    = extensionRelationBase + "context"    // the JSON-LD context of the graph
	RelNow        = extensionRelationBase + "now"        // the generated state page of the Bundle
	RelSkills     = extensionRelationBase + "skills"     // the index of exported procedure packages
	RelLedger     = extensionRelationBase + "ledger"     // the derived change ledger of the Bundle
	RelPeer       = extensionRelationBase + "peer"       // another node's discovery document
	RelSurface    = extensionRelationBase + "surface"    // an agent-facing surface this node serves
	RelContribute = extensionRelationBase + "contribute" // an endpoint that accepts contributions
	RelAccess     = extensionRelationBase + "access"     // a page that says how to obtain credentials
	RelSignature  = extensionRelationBase + "signature"  // a detached signature over the discovery document
	RelBoards     = extensionRelationBase + "boards"     // the index of the Bundle's project boards
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

// coreTypedRelations are the core short names of Section 4.2 that Section
// 4.5 also uses for related-system links. Such a link MUST carry type when
// it points at another system (another origin). It need not when it names
// one of the node's own artefacts. The related-system names proper
// (profileShortNames true) always need type.
var coreTypedRelations = map[string]bool{"describedby": true, "alternate": true, "service-doc": true}

// ianaRelations is the IANA "Link Relation Types" registry (2026). It tells a
// registered short name outside the profile (ignored by a client) from an
// unregistered one. An unregistered one is never allowed for a node, and
// ignored by a client (Section 4.2).
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
	if rest, ok := strings.CutPrefix(name, extensionRelationBase); ok {
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
	if rest, ok := strings.CutPrefix(name, extensionRelationBase); ok {
		return "#" + rest
	}
	if strings.Contains(name, ":") {
		return ""
	}
	return strings.ToLower(name)
}

// relation applies Section 4.2 to one relation name and reports whether
// its links are to be checked. A client ignores, with a notice, what it
// does not recognise (registered or not). A node may use none of it.
func (c *checker) relation(r *Relation, rptr string) bool {
	switch classifyRelation(r.Name) {
	case relUnregistered:
		if c.mode == ModeReader {
			c.ps.note(rptr, RuleRelationIgnored, "4.2", "%q is neither a registered relation short name nor a relation URI; a client ignores it", shorten.Bytes(r.Name, 120))
			return false
		}
		c.ps.add(rptr, RuleRelationUnregistered, "4.2", "%q is neither a registered relation short name nor a relation URI", shorten.Bytes(r.Name, 120))
		return false
	case relExtUnknown:
		if c.mode == ModeReader {
			c.ps.note(rptr, RuleRelationIgnored, "4.2", "%q is not in the closed set of extension relations; a client ignores it", r.Name)
			return false
		}
		c.ps.add(rptr, RuleRelationExtensionUnknown, "4.2", "%q is not in the closed set of extension relations of Table 1; a node must not invent one", r.Name)
	case relRegistered, relForeignURI:
		if c.mode == ModeReader {
			c.ps.note(rptr, RuleRelationIgnored, "4.2", "relation %q is outside the profile's relation set; a client ignores it", shorten.Bytes(r.Name, 120))
			return false
		}
		c.ps.add(rptr, RuleRelationOutsideProfile, "4.2", "relation %q is not one of the registered short names of Sections 4.2 and 4.5 or of the extension relations of Table 1", shorten.Bytes(r.Name, 120))
	}
	return true
}

// relatedType applies Section 4.5: a related-system link MUST carry type.
// The names only Section 4.5 uses (related, service-desc, service-meta,
// collection, item, cite-as) always name a related system. The core names
// describedby, alternate and service-doc of Section 4.2 do so when the
// target is on another origin than the anchor.
func (c *checker) relatedType(l *Link, lptr, short, anchor string) {
	if l.Type != "" {
		return
	}
	related, known := profileShortNames[short]
	switch {
	case known && related:
	case coreTypedRelations[short] && originOf(l.Href) != originOf(anchor):
	default:
		return
	}
	c.ps.add(lptr, RuleRelatedType, "4.5", "a %s link to a related system must carry type", short)
}
