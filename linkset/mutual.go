package linkset

import (
	"fmt"
	"slices"
)

// MutualResult is the peer test of Section 7.2 between two documents.
type MutualResult struct {
	// A and B are the canonical well-known URLs of the two nodes, derived
	// from their anchors.
	A string `json:"a"`
	B string `json:"b"`
	// AToB is true when A names B with the peer relation, BToA the reverse.
	AToB bool `json:"a_names_b"`
	BToA bool `json:"b_names_a"`
	// Tombstoned is true when either node has stopped publishing (Section
	// 9.7).
	Tombstoned bool `json:"tombstoned,omitempty"`
	// Mutual is true when each names the other and neither is tombstoned:
	// nothing else establishes the peer relation.
	Mutual bool `json:"mutual"`
}

// Mutual performs the peer test of Section 7.2 on two local documents,
// with no network access. Each node's discovery document URL is its Bundle
// IRI's origin with the well-known path; peer hrefs are compared in their
// canonical form.
//
// A tombstoned node ([knowledge-linkset draft], Section 9.7) is never mutual,
// even when it still names its peer. The draft is silent on the peer test for
// such a node. This package takes the reading that agrees with the walk, which
// does not descend into it, and with the reference validator. A node that has
// stopped publishing is no longer a peer.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func Mutual(a, b *Document) (MutualResult, error) {
	var r MutualResult
	var err error
	if r.A, err = wellKnownOf(a); err != nil {
		return r, fmt.Errorf("linkset: first document: %w", err)
	}
	if r.B, err = wellKnownOf(b); err != nil {
		return r, fmt.Errorf("linkset: second document: %w", err)
	}
	r.AToB = slices.Contains(canonicalPeers(a), r.B)
	r.BToA = slices.Contains(canonicalPeers(b), r.A)
	_, ta := a.tombstone()
	_, tb := b.tombstone()
	r.Tombstoned = ta || tb
	r.Mutual = r.AToB && r.BToA && !r.Tombstoned
	return r, nil
}

func wellKnownOf(d *Document) (string, error) {
	c := d.Bundle()
	if c == nil || c.NoAnchor || !isBundleIRI(c.Anchor) {
		return "", fmt.Errorf("%w: the document has no Bundle IRI anchor", ErrNotWellKnown)
	}
	return CanonicalURL(c.Anchor, false)
}

func canonicalPeers(d *Document) []string {
	var out []string
	for _, h := range d.peers() {
		if u, err := CanonicalURL(h, false); err == nil {
			out = append(out, u)
		}
	}
	return out
}

// peers returns the hrefs of the peer links of the Bundle context, in
// document order (Section 7.2).
func (d *Document) peers() []string {
	c := d.Bundle()
	if c == nil {
		return nil
	}
	links := c.Relation(RelPeer)
	out := make([]string, 0, len(links))
	for _, l := range links {
		out = append(out, l.Href)
	}
	return out
}
