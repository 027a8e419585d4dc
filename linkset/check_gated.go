package linkset

import (
	"time"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// This file holds the rules of Sections 9.5 (gated content, with Section
// 3.3's access link) and 9.7 (tombstones) of the knowledge-linkset draft.

// gated applies Section 9.5 to a node whose graph link carries
// agsc-visibility: no agsc-counts, agsc-bundle-hash, agsc-bundle-version or
// ledger link, and (Section 3.3) an access link naming where a reader
// obtains credentials.
func (c *checker) gated(ctx *Context, graph *Link, cptr, gptr string) {
	for _, f := range []string{"agsc-counts", "agsc-bundle-hash", "agsc-bundle-version"} {
		if _, ok := graph.Attr(f); ok {
			c.ps.add(gptr+"/"+f, RuleGatedOmission, "9.5", "a node whose content is gated must omit %s", f)
		}
	}
	for ri := range ctx.Relations {
		if shortRel(ctx.Relations[ri].Name) == "#ledger" {
			c.ps.add(cptr+"/"+strictjson.EscapeToken(ctx.Relations[ri].Name), RuleGatedOmission, "9.5", "a node whose content is gated must omit the ledger link")
		}
	}
	switch access := ctx.Relation(RelAccess); {
	case len(access) == 0:
		c.ps.add(cptr, RuleGatedAccessMissing, "3.3", "a gated node names, with the access relation, where a reader obtains credentials")
	case len(access) > 1:
		// Section 3.3: the node names where (one place) a reader
		// obtains credentials; a publisher names one access link, a
		// reader takes the first.
		c.placement(cptr+"/"+strictjson.EscapeToken(RelAccess)+"/1", RuleGatedAccessCount, "3.3", "a gated node names one access link, where a reader obtains credentials; this one names %d", len(access))
	}
}

// gated reports whether the node declares gated content: the graph link
// carries agsc-visibility, whose only known value is restricted and any
// unknown value of which is read as restricted (Sections 4.3.3 and 9.5).
func (d *Document) gated() bool {
	c := d.Bundle()
	if c == nil {
		return false
	}
	g := c.graph()
	if g == nil {
		return false
	}
	_, ok := g.Attr("agsc-visibility")
	return ok
}

// tombstone returns the instant of the graph link's agsc-tombstone
// attribute and true when the node has stopped publishing (Section 9.7).
// An attribute whose value cannot be read still marks the node tombstoned,
// with a zero time.
func (d *Document) tombstone() (time.Time, bool) {
	c := d.Bundle()
	if c == nil {
		return time.Time{}, false
	}
	g := c.graph()
	if g == nil {
		return time.Time{}, false
	}
	v, ok := g.Attr("agsc-tombstone")
	if !ok {
		return time.Time{}, false
	}
	if len(v) == 1 {
		if t, err := parseInstant(v[0]); err == nil {
			return t, true
		}
	}
	return time.Time{}, true
}

// successors returns the hrefs of the alternate links of a tombstoned node
// that name another node's discovery document (Section 9.7). A successor is
// never the same node: a client establishes the peer relation afresh.
func (d *Document) successors() []string {
	if _, ok := d.tombstone(); !ok {
		return nil
	}
	var out []string
	for _, l := range d.Bundle().Relation("alternate") {
		if mediaTypeIs(l.Type, MediaType) || isWellKnownURL(l.Href) {
			out = append(out, l.Href)
		}
	}
	return out
}
