package linkset

import (
	"strconv"
	"time"
)

// Facts are the bundle facts of Section 4.3.2 and the declarations of
// Section 4.3.3 as a client reads them. They come from the anchor's
// describedby link to the JSON-LD graph and, for the ledger head, from the
// ledger link. They come from no other link. A fact that is absent or
// cannot be read is left zero.
type Facts struct {
	SpecVersion string    `json:"spec_version,omitempty"`
	GeneratedAt time.Time `json:"generated_at,omitzero"`
	// Counts are the item counts of agsc-counts by type plural; nil when
	// absent. A value that cannot be read is left out.
	Counts map[string]int64 `json:"counts,omitempty"`
	// BundleHash is the digest of the canonical N-Quads serialization (not
	// in the JSON form; its String is the attribute value); nil
	// when absent or unreadable.
	BundleHash *Digest `json:"-"`
	// BundleVersion is opaque: a client never orders two values or infers a
	// sequence from them (Section 4.3.2).
	BundleVersion string `json:"bundle_version,omitempty"`
	// LedgerHead is the lower-case hex SHA-256 of the ledger's last entry.
	LedgerHead string `json:"ledger_head,omitempty"`

	// The declarations of Section 4.3.3, present at every level of
	// completeness, with every unknown value read as the most restrictive
	// member of its list.

	// Restricted is true when the graph link carries agsc-visibility with
	// any value (restricted, or an unknown value read as restricted).
	Restricted    bool           `json:"restricted"`
	Surfaces      []Surface      `json:"surfaces,omitempty"`
	Contributions []Contribution `json:"contributions,omitempty"`
	// Tombstoned is true when the node has stopped publishing (Section
	// 9.7), at the instant Tombstone (zero when it cannot be read).
	Tombstoned bool      `json:"tombstoned"`
	Tombstone  time.Time `json:"tombstone,omitzero"`
	// Successors are the hrefs of a tombstoned node's alternate links to
	// another node's discovery document (Section 9.7): never the same
	// node; a client establishes the peer relation with each afresh.
	Successors []string `json:"successors,omitempty"`
}

// Facts returns the document's bundle facts ([knowledge-linkset draft], Section 4.3.2) and
// declarations (Section 4.3.3).
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func (d *Document) Facts() Facts {
	var f Facts
	c := d.Bundle()
	if c == nil {
		return f
	}
	d.declarations(&f)
	f.LedgerHead = d.ledgerHead()
	g := c.graph()
	if g == nil {
		return f
	}
	f.SpecVersion = g.FirstAttr("agsc-spec-version")
	if t, err := parseInstant(g.FirstAttr("agsc-generated-at")); err == nil {
		f.GeneratedAt = t
	}
	counts, _ := g.Attr("agsc-counts")
	for _, v := range counts {
		if m := countRE.FindStringSubmatch(v); m != nil {
			n, err := strconv.ParseInt(m[2], 10, 64)
			if err == nil {
				if f.Counts == nil {
					f.Counts = map[string]int64{}
				}
				f.Counts[m[1]] = n
			}
		}
	}
	if h, err := ParseDigest(g.FirstAttr("agsc-bundle-hash")); err == nil {
		f.BundleHash = &h
	}
	f.BundleVersion = g.FirstAttr("agsc-bundle-version")
	return f
}

// Surface is one agent-facing surface the node declares (Section 4.3.3).
type Surface struct {
	Href string `json:"href"`
	// Kind is the agsc-surface value as written.
	Kind string `json:"kind"`
	// Served is false when Kind is absent or not a known kind: llms-txt,
	// chunks, mcp, webmcp, a2a-card, solid, responder, or an x- name. An
	// unknown surface is read as not served, the most restrictive reading.
	Served  bool   `json:"served"`
	Version string `json:"version,omitempty"`
	// Access is the agsc-access declared: "none", "consent" or
	// "credential"; "credential", the most restrictive, when absent or
	// unknown.
	Access string `json:"access"`
}

// Contribution is one contribute link (Section 4.3.3).
type Contribution struct {
	Href string `json:"href"`
	Mode string `json:"mode"`
	// Contributable is false when the mode is absent or not a known mode
	// (pr, channel): an unknown mode reads as not contributable.
	Contributable bool `json:"contributable"`
}

// declarations reads the node's declarations (Section 4.3.3) into out.
func (d *Document) declarations(out *Facts) {
	c := d.Bundle()
	out.Restricted = d.gated()
	out.Tombstone, out.Tombstoned = d.tombstone()
	out.Successors = d.successors()
	for _, l := range c.Relation(RelSurface) {
		s := Surface{Href: l.Href, Kind: l.FirstAttr("agsc-surface"), Version: l.FirstAttr("agsc-surface-version"), Access: "credential"}
		s.Served = knownSurface(s.Kind)
		if a := l.FirstAttr("agsc-access"); knownAccess[a] {
			s.Access = a
		}
		out.Surfaces = append(out.Surfaces, s)
	}
	for _, l := range c.Relation(RelContribute) {
		m := l.FirstAttr("agsc-contribute-mode")
		out.Contributions = append(out.Contributions, Contribution{Href: l.Href, Mode: m, Contributable: knownContribute[m]})
	}
}
