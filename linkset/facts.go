package linkset

import (
	"strconv"
	"time"
)

// Facts are the bundle facts of Section 4.3.2 as a client reads them: from
// the anchor's describedby link to the JSON-LD graph and, for the ledger
// head, from the ledger link, and from no other link. A fact that is absent
// or cannot be read is left zero.
type Facts struct {
	SpecVersion string
	GeneratedAt time.Time
	// Counts are the item counts in document order.
	Counts []Count
	// BundleHash is the digest of the canonical N-Quads serialization; nil
	// when absent or unreadable.
	BundleHash *Digest
	// BundleVersion is opaque: a client never orders two values or infers a
	// sequence from them (Section 4.3.2).
	BundleVersion string
	// LedgerHead is the lower-case hex SHA-256 of the ledger's last entry.
	LedgerHead string
}

// Count is one agsc-counts value.
type Count struct {
	Type string
	N    int64
}

// Facts returns the document's bundle facts (Section 4.3.2).
func (d *Document) Facts() Facts {
	var f Facts
	c := d.Bundle()
	if c == nil {
		return f
	}
	f.LedgerHead = d.LedgerHead()
	g := c.GraphLink()
	if g == nil {
		return f
	}
	f.SpecVersion = g.Attr1("agsc-spec-version")
	if t, err := parseInstant(g.Attr1("agsc-generated-at")); err == nil {
		f.GeneratedAt = t
	}
	counts, _ := g.Attr("agsc-counts")
	for _, v := range counts {
		if m := countRE.FindStringSubmatch(v); m != nil {
			n, err := strconv.ParseInt(m[2], 10, 64)
			if err == nil {
				f.Counts = append(f.Counts, Count{Type: m[1], N: n})
			}
		}
	}
	if h, err := ParseDigest(g.Attr1("agsc-bundle-hash")); err == nil {
		f.BundleHash = &h
	}
	f.BundleVersion = g.Attr1("agsc-bundle-version")
	return f
}

// Access is the agsc-access declaration of a surface (Section 4.3.3).
type Access string

// The values of agsc-access; an unknown value reads as AccessCredential,
// the most restrictive.
const (
	AccessNone       Access = "none"
	AccessConsent    Access = "consent"
	AccessCredential Access = "credential"
)

// Surface is one agent-facing surface the node declares (Section 4.3.3).
type Surface struct {
	Href string
	// Kind is the agsc-surface value as written.
	Kind string
	// Served is false when Kind is absent or not a known kind (llms-txt,
	// chunks, mcp, webmcp, a2a-card, solid, responder, or an x- name): an
	// unknown surface is read as not served, the most restrictive reading.
	Served  bool
	Version string
	// Access is the access declared, AccessCredential when absent or unknown.
	Access Access
}

// Contribution is one contribute link (Section 4.3.3).
type Contribution struct {
	Href string
	Mode string
	// Contributable is false when the mode is absent or not a known mode
	// (pr, channel): an unknown mode reads as not contributable.
	Contributable bool
}

// Declarations are what the node declares about itself (Section 4.3.3),
// with every unknown value read as the most restrictive member of its list.
type Declarations struct {
	// Restricted is true when the graph link carries agsc-visibility with
	// any value (restricted, or an unknown value read as restricted).
	Restricted    bool
	Surfaces      []Surface
	Contributions []Contribution
	// Tombstoned is true when the node has stopped publishing (Section 9.7).
	Tombstoned bool
	Tombstone  time.Time
}

// Declarations returns the node's declarations (Section 4.3.3).
func (d *Document) Declarations() Declarations {
	var out Declarations
	c := d.Bundle()
	if c == nil {
		return out
	}
	out.Restricted = d.Gated()
	out.Tombstone, out.Tombstoned = d.Tombstone()
	for _, l := range c.Relation(RelSurface) {
		s := Surface{Href: l.Href, Kind: l.Attr1("agsc-surface"), Version: l.Attr1("agsc-surface-version"), Access: AccessCredential}
		s.Served = knownSurface(s.Kind)
		if a := Access(l.Attr1("agsc-access")); knownAccess[string(a)] {
			s.Access = a
		}
		out.Surfaces = append(out.Surfaces, s)
	}
	for _, l := range c.Relation(RelContribute) {
		m := l.Attr1("agsc-contribute-mode")
		out.Contributions = append(out.Contributions, Contribution{Href: l.Href, Mode: m, Contributable: knownContribute[m]})
	}
	return out
}
