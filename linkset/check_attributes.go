package linkset

import (
	"strconv"

	"github.com/agentweb/agentweb/internal/shorten"
)

// This file holds the rules of Sections 4.3 (target attributes) and 4.3.1
// (the digest attribute) of the knowledge-linkset draft. It hands the
// bundle facts (Section 4.3.2) and declarations (Section 4.3.3) to their
// own files.

func (c *checker) attribute(l *Link, a *Attribute, lptr, short string, isGraph bool) {
	aptr := lazyPointer{base: lptr, tok: a.Name}
	switch a.Name {
	case "digest":
		c.digest(a, aptr)
	case "profile":
		for k, v := range a.Values {
			if !isAbsoluteURI(v) {
				c.ps.add(aptr.at("/"+strconv.Itoa(k)), RuleURLSyntax, "4.3", "profile value %q is not an absolute URI", shorten.Bytes(v, 120))
			}
		}
	case "agsc-spec-version", "agsc-generated-at", "agsc-counts", "agsc-bundle-hash", "agsc-bundle-version":
		if !isGraph {
			c.ps.add(aptr.at(""), RuleBundleFactPlacement, "4.3.2", "%s rides only on the anchor's describedby link to the JSON-LD graph", a.Name)
			return
		}
		c.bundleFact(a, aptr)
	case "agsc-ledger-head":
		c.ledgerHead(a, aptr, short)
	case "agsc-visibility", "agsc-tombstone", "agsc-surface", "agsc-surface-version", "agsc-access", "agsc-contribute-mode":
		c.declaration(a, aptr, short, isGraph)
	default:
		c.ps.note(aptr.at(""), RuleAttributeIgnored, "4.3", "target attribute %q is not recognised and is ignored", shorten.Bytes(a.Name, 60))
	}
}

// digest applies Section 4.3.1: one value, a Dictionary with the single
// member sha-256 holding a Byte Sequence of 32 bytes; in ModeStrict, in
// its canonical serialization (padded base64).
func (c *checker) digest(a *Attribute, aptr lazyPointer) {
	if !c.one(a, aptr, RuleDigestCount, "4.3.1") {
		return
	}
	d, err := ParseDigest(a.Values[0])
	if err != nil {
		p := problemOf(err)
		c.ps.add(aptr.at("/0"), p.Rule, "4.3.1", "%s", p.Message)
		return
	}
	if c.mode == ModeStrict && d.String() != a.Values[0] {
		c.ps.add(aptr.at("/0"), RuleDigestCanonical, "4.3.1", "the digest is not in its canonical serialization %q", d.String())
	}
}
