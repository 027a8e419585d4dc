package linkset

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// Mode selects whose obligations [Document.Evaluate] checks.
type Mode uint8

const (
	// Publisher applies every rule the draft sets for a node's document. A
	// relation outside the profile's closed set, or an unknown name under
	// the extension base, is an error (Sections 4.2 and 6.1).
	Publisher Mode = iota
	// Reader applies the rules as a client reads: a relation name it does
	// not recognise is ignored (Section 4.2), and said so in a notice.
	Reader
	// Strict is Publisher plus the stricter checks of the draft's reference
	// validator (NOTES.md): canonical bytes (RFC 8785 and one LF, checked by
	// [Validate]), non-empty relation arrays, strictly increasing hrefs,
	// digests in their canonical serialization, the agsc-bundle-version
	// syntax, and the known agsc-surface values and their versions.
	Strict
)

// Form is the completeness level of a conformant document (Section 4.4).
type Form string

const (
	// FormFull: digests and bundle facts present and recomputable (Section 4).
	FormFull Form = "full"
	// FormReduced: no digest, no bundle fact and no ledger (Section 4.4).
	FormReduced Form = "reduced"
	// FormNotConformant: at least one Error problem.
	FormNotConformant Form = "not conformant"
)

// Report is the outcome of checking a document against the profile.
type Report struct {
	// Form is full or reduced when Problems is empty, else not conformant.
	Form Form `json:"form"`
	// Problems lists every error; empty means conformant.
	Problems []Problem `json:"problems"`
	// Notices lists what was ignored or read as most restrictive.
	Notices []Problem `json:"notices"`
}

// Conformant reports whether the report has no error.
func (r *Report) Conformant() bool { return len(r.Problems) == 0 }

// Check applies the profile's rules for a publisher ([Publisher] mode) and
// returns every error; an empty result means the document conforms.
func (d *Document) Check() []Problem { return d.Evaluate(Publisher).Problems }

// Validate parses data and evaluates it in the given mode. In [Strict]
// mode it also requires data to be the canonical bytes: the RFC 8785
// serialization of the document followed by one LF. The document is nil
// when data is not a link set; the report then lists why.
func Validate(data []byte, mode Mode) (*Document, *Report) {
	d, err := Parse(data)
	if err != nil {
		var ps []Problem
		if ve, ok := err.(*ValidationError); ok {
			ps = ve.Problems
		}
		return nil, &Report{Form: FormNotConformant, Problems: ps, Notices: []Problem{}}
	}
	r := d.Evaluate(mode)
	if mode == Strict {
		canon, err := d.Canonical()
		if err != nil || !bytes.Equal(canon, data) {
			r.Problems = append(r.Problems, Problem{Rule: "canonical-bytes", Section: "4.1",
				Message: "the bytes are not the RFC 8785 canonical serialization followed by one LF"})
			r.Form = FormNotConformant
		}
	}
	return d, r
}

// Evaluate checks the document in the given mode and returns its form,
// errors and notices. Only the link context this profile understands (the
// one anchored at the Bundle IRI) is checked; an additional context is
// ignored and reported as a notice (Section 4.1).
func (d *Document) Evaluate(mode Mode) *Report {
	c := checker{d: d, mode: mode}
	c.run()
	r := &Report{Problems: nonNil(c.ps.errs), Notices: nonNil(c.ps.notes)}
	switch {
	case len(r.Problems) > 0:
		r.Form = FormNotConformant
	case c.reduced:
		r.Form = FormReduced
	default:
		r.Form = FormFull
	}
	return r
}

// Bundle returns the link context this profile reads: the only one, or the
// only one anchored at a Bundle IRI (Section 4.1). It is nil when there is
// no such single context.
func (d *Document) Bundle() *Context {
	i := d.bundleIndex()
	if i < 0 {
		return nil
	}
	return &d.Contexts[i]
}

func (d *Document) bundleIndex() int {
	switch len(d.Contexts) {
	case 0:
		return -1
	case 1:
		return 0
	}
	found := -1
	for i := range d.Contexts {
		if !d.Contexts[i].NoAnchor && isBundleIRI(d.Contexts[i].Anchor) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// GraphLink returns the anchor's describedby link to the Bundle's JSON-LD
// graph, on which the bundle facts and the agsc-visibility and
// agsc-tombstone declarations ride (Sections 4.3.2 and 4.3.3), or nil.
func (c *Context) GraphLink() *Link {
	_, _, l := c.graphLink()
	return l
}

func (c *Context) graphLink() (ri, li int, l *Link) {
	ri, li = -1, -1
	for i := range c.Relations {
		r := &c.Relations[i]
		if !strings.EqualFold(r.Name, "describedby") {
			continue
		}
		for j := range r.Links {
			if !mediaTypeIs(r.Links[j].Type, "application/ld+json") {
				continue
			}
			if li < 0 {
				ri, li = i, j
			}
			if hasBundleFact(&r.Links[j]) {
				return i, j, &r.Links[j]
			}
		}
	}
	if li < 0 {
		return -1, -1, nil
	}
	return ri, li, &c.Relations[ri].Links[li]
}

var bundleFacts = []string{"agsc-spec-version", "agsc-generated-at", "agsc-counts", "agsc-bundle-hash", "agsc-bundle-version"}

func isBundleFact(name string) bool {
	switch name {
	case "agsc-spec-version", "agsc-generated-at", "agsc-counts", "agsc-bundle-hash", "agsc-bundle-version":
		return true
	}
	return false
}

func hasBundleFact(l *Link) bool {
	for _, a := range l.Attributes {
		if isBundleFact(a.Name) {
			return true
		}
	}
	return false
}

// Gated reports whether the node declares gated content: the graph link
// carries agsc-visibility, whose only known value is restricted and any
// unknown value of which is read as restricted (Sections 4.3.3 and 9.5).
func (d *Document) Gated() bool {
	c := d.Bundle()
	if c == nil {
		return false
	}
	g := c.GraphLink()
	if g == nil {
		return false
	}
	_, ok := g.Attr("agsc-visibility")
	return ok
}

// Tombstone returns the instant of the graph link's agsc-tombstone
// attribute and true when the node has stopped publishing (Section 9.7).
// An attribute whose value cannot be read still marks the node tombstoned,
// with a zero time.
func (d *Document) Tombstone() (time.Time, bool) {
	c := d.Bundle()
	if c == nil {
		return time.Time{}, false
	}
	g := c.GraphLink()
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

// Successors returns the hrefs of the alternate links of a tombstoned node
// that name another node's discovery document (Section 9.7). A successor is
// never the same node: a client establishes the peer relation afresh.
func (d *Document) Successors() []string {
	if _, ok := d.Tombstone(); !ok {
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

// Peers returns the hrefs of the peer links of the Bundle context, in
// document order (Section 7.2).
func (d *Document) Peers() []string {
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

type checker struct {
	d       *Document
	mode    Mode
	ps      problems
	reduced bool
}

var (
	instantRE   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`)
	countRE     = regexp.MustCompile(`^([a-z][a-z0-9-]*)=(0|[1-9][0-9]{0,17})$`)
	ledgerRE    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	bundleVerRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)
)

func parseInstant(s string) (time.Time, error) {
	if !instantRE.MatchString(s) {
		return time.Time{}, fmt.Errorf("linkset: %q is not YYYY-MM-DDTHH:MM:SSZ", s)
	}
	return time.Parse("2006-01-02T15:04:05Z", s)
}

func (c *checker) run() {
	d := c.d
	for _, m := range d.Extra {
		c.ps.add("/"+strictjson.EscapeToken(m.Name), "top-level-member", "4.1", "%q is not allowed: linkset is the sole top-level member", m.Name)
	}
	if len(d.Contexts) == 0 {
		c.ps.add("/linkset", "context-none", "4.1", "the linkset array holds no link context")
		return
	}
	bi := d.bundleIndex()
	if bi < 0 {
		n := 0
		for i := range d.Contexts {
			if !d.Contexts[i].NoAnchor && isBundleIRI(d.Contexts[i].Anchor) {
				n++
				if n == 2 {
					c.ps.add("/linkset/"+strconv.Itoa(i), "context-multiple", "4.1", "a second link context is anchored at a Bundle IRI; the link set holds exactly one")
				}
			}
		}
		if n == 0 {
			c.ps.add("/linkset", "context-none", "4.1", "no link context is anchored at a Bundle IRI (an https origin with the path /)")
		}
		return
	}
	for i := range d.Contexts {
		if i != bi {
			c.ps.note("/linkset/"+strconv.Itoa(i), "context-ignored", "4.1", "an additional link context not anchored at the Bundle IRI is ignored")
		}
	}
	c.context(bi)
}

func (c *checker) context(bi int) {
	ctx := &c.d.Contexts[bi]
	cptr := "/linkset/" + strconv.Itoa(bi)
	if ctx.NoAnchor {
		c.ps.add(cptr, "anchor-missing", "4.1", "the link context has no anchor; it must be the Bundle IRI")
	} else if !isBundleIRI(ctx.Anchor) {
		c.ps.add(cptr+"/anchor", "anchor-bundle-iri", "4.1", "anchor %q is not a Bundle IRI: an https origin's base URL with a trailing solidus and nothing after it", truncate(ctx.Anchor, 120))
	}
	gri, gli, graph := ctx.graphLink()
	var hasDigest, hasFact, hasLedger bool
	for ri := range ctx.Relations {
		r := &ctx.Relations[ri]
		rptr := cptr + "/" + strictjson.EscapeToken(r.Name)
		switch classifyRelation(r.Name) {
		case relUnregistered:
			c.ps.add(rptr, "relation-unregistered", "4.2", "%q is neither a registered relation short name nor a relation URI", truncate(r.Name, 120))
			continue
		case relExtUnknown:
			if c.mode == Reader {
				c.ps.note(rptr, "relation-ignored", "4.2", "%q is not in the closed set of extension relations; a client ignores it", r.Name)
				continue
			}
			c.ps.add(rptr, "relation-extension-unknown", "4.2", "%q is not in the closed set of extension relations of Table 1; a node must not invent one", r.Name)
		case relRegistered, relForeignURI:
			if c.mode == Reader {
				c.ps.note(rptr, "relation-ignored", "4.2", "relation %q is outside the profile's relation set; a client ignores it", truncate(r.Name, 120))
				continue
			}
			c.ps.add(rptr, "relation-outside-profile", "4.2", "relation %q is not one of the registered short names of Sections 4.2 and 4.5 or of the extension relations of Table 1", truncate(r.Name, 120))
		}
		short := shortRel(r.Name)
		if short == "#ledger" {
			hasLedger = true
		}
		if c.mode == Strict && len(r.Links) == 0 {
			c.ps.add(rptr, "relation-empty", "4.1", "relation %q holds an empty array", r.Name)
		}
		for li := range r.Links {
			l := &r.Links[li]
			lptr := rptr + "/" + strconv.Itoa(li)
			if !isAbsoluteURI(l.Href) {
				c.ps.add(lptr+"/href", "href-absolute", "4.1", "href %q is not an absolute URI", truncate(l.Href, 120))
			}
			if li > 0 {
				prev := r.Links[li-1].Href
				if prev > l.Href {
					c.ps.add(lptr+"/href", "href-order", "4.1", "href %q comes before %q in code point order; links within a relation are ordered by href", truncate(l.Href, 120), truncate(prev, 120))
				} else if prev == l.Href && c.mode == Strict {
					c.ps.add(lptr+"/href", "href-duplicate", "4.1", "href %q repeats the previous link's href", truncate(l.Href, 120))
				}
			}
			if typedRelations[short] && l.Type == "" {
				c.ps.add(lptr, "related-type", "4.5", "a %s link must carry type", short)
			}
			if short == "#peer" && !isWellKnownURL(l.Href) {
				c.ps.add(lptr+"/href", "peer-url", "7.2", "a peer link's target is the peer's discovery document: an https URL with the path %s", WellKnownPath)
			}
			isGraph := ri == gri && li == gli
			for _, a := range l.Attributes {
				if a.Name == "digest" {
					hasDigest = true
				}
				if isBundleFact(a.Name) {
					hasFact = true
				}
				if a.Name == "agsc-ledger-head" {
					hasLedger = true
				}
				c.attribute(l, &a, lptr, short, isGraph)
			}
			if c.mode == Strict && short == "#surface" {
				c.surfaceVersion(l, lptr)
			}
		}
	}
	c.reduced = !hasDigest && !hasFact && !hasLedger
	if graph == nil {
		c.ps.add(cptr, "graph-link-missing", "4.3.2", "the link context has no describedby link of type application/ld+json to the Bundle's graph")
		return
	}
	gptr := cptr + "/" + strictjson.EscapeToken(ctx.Relations[gri].Name) + "/" + strconv.Itoa(gli)
	_, gated := graph.Attr("agsc-visibility")
	if !c.reduced {
		var missing []string
		for _, f := range bundleFacts {
			if _, ok := graph.Attr(f); ok {
				continue
			}
			if gated && f != "agsc-spec-version" && f != "agsc-generated-at" {
				continue
			}
			missing = append(missing, f)
		}
		if len(missing) > 0 {
			c.ps.add(gptr, "bundle-fact-missing", "4.3.2", "the graph link lacks %s: a document that carries digests, bundle facts or a ledger is in the full form, which states the bundle facts (the reduced form of Section 4.4 omits every digest and bundle fact)", strings.Join(missing, ", "))
		}
	}
	if gated {
		for _, f := range []string{"agsc-counts", "agsc-bundle-hash", "agsc-bundle-version"} {
			if _, ok := graph.Attr(f); ok {
				c.ps.add(gptr+"/"+f, "gated-omission", "9.5", "a node whose content is gated must omit %s", f)
			}
		}
		for ri := range ctx.Relations {
			if shortRel(ctx.Relations[ri].Name) == "#ledger" {
				c.ps.add(cptr+"/"+strictjson.EscapeToken(ctx.Relations[ri].Name), "gated-omission", "9.5", "a node whose content is gated must omit the ledger link")
			}
		}
		if len(ctx.Relation(RelAccess)) == 0 {
			c.ps.add(cptr, "gated-access-missing", "3.3", "a gated node names, with the access relation, where a reader obtains credentials")
		}
	}
	if hv, ok := graph.Attr("agsc-bundle-hash"); ok && len(hv) == 1 {
		if want, err := ParseDigest(hv[0]); err == nil {
			c.bundleHash(ctx, want, gptr+"/agsc-bundle-hash")
		}
	}
}

// bundleHash compares agsc-bundle-hash with the digest of the graph link to
// the N-Quads serialization (Section 4.3.2).
func (c *checker) bundleHash(ctx *Context, want Digest, ptr string) {
	for _, l := range ctx.Relation(RelGraph) {
		if !mediaTypeIs(l.Type, "application/n-quads") {
			continue
		}
		got, ok, err := l.LinkDigest()
		if !ok || err != nil {
			c.ps.add(ptr, "bundle-hash-target", "4.3.2", "agsc-bundle-hash must equal the digest of the graph link to the N-Quads serialization, which carries no readable digest")
			return
		}
		if got != want {
			c.ps.add(ptr, "bundle-hash-mismatch", "4.3.2", "agsc-bundle-hash differs from the digest of the graph link to the N-Quads serialization %s", l.Href)
		}
		return
	}
	c.ps.add(ptr, "bundle-hash-target", "4.3.2", "agsc-bundle-hash must equal the digest of the graph link to the N-Quads serialization, and there is no such link")
}

// lazyPointer builds a JSON Pointer only when a problem needs it.
type lazyPointer struct{ base, tok string }

func (p lazyPointer) at(suffix string) string {
	return p.base + "/" + strictjson.EscapeToken(p.tok) + suffix
}

func (c *checker) one(a *Attribute, aptr lazyPointer, rule, section string) bool {
	if len(a.Values) != 1 {
		c.ps.add(aptr.at(""), rule, section, "%s holds %d values, not one", a.Name, len(a.Values))
		return false
	}
	return true
}

func (c *checker) attribute(l *Link, a *Attribute, lptr, short string, isGraph bool) {
	aptr := lazyPointer{base: lptr, tok: a.Name}
	switch a.Name {
	case "digest":
		if !c.one(a, aptr, "digest-count", "4.3.1") {
			return
		}
		d, err := ParseDigest(a.Values[0])
		if err != nil {
			de := err.(*DigestError)
			c.ps.add(aptr.at("/0"), de.Rule, "4.3.1", "%s", de.Reason)
			return
		}
		if c.mode == Strict && d.String() != a.Values[0] {
			c.ps.add(aptr.at("/0"), "digest-canonical", "4.3.1", "the digest is not in its canonical serialization %q", d.String())
		}
	case "profile":
		for k, v := range a.Values {
			if !isAbsoluteURI(v) {
				c.ps.add(aptr.at("/"+strconv.Itoa(k)), "profile-uri", "4.3", "profile value %q is not an absolute URI", truncate(v, 120))
			}
		}
	case "agsc-spec-version", "agsc-generated-at", "agsc-counts", "agsc-bundle-hash", "agsc-bundle-version":
		if !isGraph {
			c.ps.add(aptr.at(""), "bundle-fact-placement", "4.3.2", "%s rides only on the anchor's describedby link to the JSON-LD graph", a.Name)
			return
		}
		c.bundleFact(a, aptr)
	case "agsc-ledger-head":
		if short != "#ledger" {
			c.ps.add(aptr.at(""), "ledger-head-placement", "4.3.2", "agsc-ledger-head rides only on the ledger link")
			return
		}
		if c.one(a, aptr, "ledger-head-format", "4.3.2") && !ledgerRE.MatchString(a.Values[0]) {
			c.ps.add(aptr.at("/0"), "ledger-head-format", "4.3.2", "agsc-ledger-head is not 64 lower-case hexadecimal digits")
		}
	case "agsc-visibility":
		if !isGraph {
			c.ps.add(aptr.at(""), "declaration-placement", "4.3.3", "agsc-visibility rides only on the anchor's describedby link")
			return
		}
		if c.one(a, aptr, "declaration-count", "4.3.3") && a.Values[0] != "restricted" {
			c.ps.note(aptr.at("/0"), "declaration-value", "4.3.3", "agsc-visibility %q is unknown and read as restricted", truncate(a.Values[0], 60))
		}
	case "agsc-tombstone":
		if !isGraph {
			c.ps.add(aptr.at(""), "declaration-placement", "4.3.3", "agsc-tombstone rides only on the anchor's describedby link")
			return
		}
		if c.one(a, aptr, "declaration-count", "4.3.3") {
			if _, err := parseInstant(a.Values[0]); err != nil {
				c.ps.add(aptr.at("/0"), "tombstone-format", "4.3.3", "agsc-tombstone %q is not an instant of the form YYYY-MM-DDTHH:MM:SSZ", truncate(a.Values[0], 60))
			}
		}
	case "agsc-surface", "agsc-surface-version", "agsc-access":
		if short != "#surface" {
			c.ps.add(aptr.at(""), "declaration-placement", "4.3.3", "%s rides only on a surface link", a.Name)
			return
		}
		if !c.one(a, aptr, "declaration-count", "4.3.3") {
			return
		}
		v := a.Values[0]
		switch {
		case a.Name == "agsc-access" && !knownAccess[v]:
			c.ps.note(aptr.at("/0"), "declaration-value", "4.3.3", "agsc-access %q is unknown and read as credential", truncate(v, 60))
		case a.Name == "agsc-surface" && !knownSurface(v):
			if c.mode == Strict {
				c.ps.add(aptr.at("/0"), "surface-value", "4.3.3", "agsc-surface %q is not a known surface or an x- name", truncate(v, 60))
			} else {
				c.ps.note(aptr.at("/0"), "declaration-value", "4.3.3", "agsc-surface %q is unknown and read as not served", truncate(v, 60))
			}
		}
	case "agsc-contribute-mode":
		if short != "#contribute" {
			c.ps.add(aptr.at(""), "declaration-placement", "4.3.3", "agsc-contribute-mode rides only on a contribute link")
			return
		}
		if c.one(a, aptr, "declaration-count", "4.3.3") && !knownContribute[a.Values[0]] {
			c.ps.note(aptr.at("/0"), "declaration-value", "4.3.3", "agsc-contribute-mode %q is unknown and read as not contributable", truncate(a.Values[0], 60))
		}
	default:
		c.ps.note(aptr.at(""), "attribute-ignored", "4.3", "target attribute %q is not recognised and is ignored", truncate(a.Name, 60))
	}
}

func (c *checker) bundleFact(a *Attribute, aptr lazyPointer) {
	switch a.Name {
	case "agsc-spec-version":
		if c.one(a, aptr, "bundle-fact-count", "4.3.2") && a.Values[0] == "" {
			c.ps.add(aptr.at("/0"), "spec-version-empty", "4.3.2", "agsc-spec-version is empty")
		}
	case "agsc-generated-at":
		if c.one(a, aptr, "bundle-fact-count", "4.3.2") {
			if _, err := parseInstant(a.Values[0]); err != nil {
				c.ps.add(aptr.at("/0"), "generated-at-format", "4.3.2", "agsc-generated-at %q is not YYYY-MM-DDTHH:MM:SSZ (UTC, second precision, no offset)", truncate(a.Values[0], 60))
			}
		}
	case "agsc-counts":
		prev := ""
		for k, v := range a.Values {
			vptr := func() string { return aptr.at("/" + strconv.Itoa(k)) }
			m := countRE.FindStringSubmatch(v)
			if m == nil {
				c.ps.add(vptr(), "counts-format", "4.3.2", "agsc-counts value %q is not <type-plural>=<n>", truncate(v, 60))
				continue
			}
			if k > 0 && prev >= m[1] {
				c.ps.add(vptr(), "counts-order", "4.3.2", "agsc-counts type %q does not follow %q in code point order (one value per type)", m[1], prev)
			}
			prev = m[1]
		}
	case "agsc-bundle-hash":
		if !c.one(a, aptr, "bundle-fact-count", "4.3.2") {
			return
		}
		if _, err := ParseDigest(a.Values[0]); err != nil {
			c.ps.add(aptr.at("/0"), "bundle-hash-syntax", "4.3.2", "agsc-bundle-hash is not in the digest syntax of Section 4.3.1: %s", err.(*DigestError).Reason)
		}
	case "agsc-bundle-version":
		if !c.one(a, aptr, "bundle-fact-count", "4.3.2") {
			return
		}
		if c.mode == Strict && !bundleVerRE.MatchString(a.Values[0]) {
			c.ps.add(aptr.at("/0"), "bundle-version-syntax", "4.3.2", "agsc-bundle-version %q is not 1 to 64 characters of [A-Za-z0-9._+-] starting with a letter or digit", truncate(a.Values[0], 80))
		}
	}
}

func (c *checker) surfaceVersion(l *Link, lptr string) {
	s := l.Attr1("agsc-surface")
	_, has := l.Attr("agsc-surface-version")
	switch s {
	case "mcp", "webmcp", "a2a-card", "solid", "responder":
		if !has {
			c.ps.add(lptr, "surface-version", "4.3.3", "a %s surface names the revision it targets in agsc-surface-version", s)
		}
	case "llms-txt", "chunks":
		if has {
			c.ps.add(lptr+"/agsc-surface-version", "surface-version", "4.3.3", "a %s surface carries no agsc-surface-version", s)
		}
	}
}

var (
	knownAccess     = map[string]bool{"none": true, "consent": true, "credential": true}
	knownContribute = map[string]bool{"pr": true, "channel": true}
	knownSurfaces   = map[string]bool{"llms-txt": true, "chunks": true, "mcp": true, "webmcp": true, "a2a-card": true, "solid": true, "responder": true}
)

func knownSurface(v string) bool {
	return knownSurfaces[v] || (strings.HasPrefix(v, "x-") && len(v) > 2)
}

// isBundleIRI reports whether s is an https origin's base URL with a
// trailing solidus: no userinfo, path "/", no query, no fragment (Section 2).
func isBundleIRI(s string) bool {
	if !strings.HasPrefix(s, "https://") || strings.ContainsAny(s, "?#\\ \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Hostname() != "" && u.User == nil && u.Path == "/" && u.RawPath == ""
}

// isAbsoluteURI reports whether s is an absolute URI (or IRI) reference
// with a scheme (RFC 3986, Section 4.3; fragments allowed), without spaces
// or control characters.
func isAbsoluteURI(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c == 0x7f || c == '\\' || c == '"' || c == '<' || c == '>' {
			return false
		}
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		return false
	}
	return true
}

// isWellKnownURL reports whether s is an https URL whose path is the
// well-known path and which has no userinfo, query or fragment.
func isWellKnownURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.User == nil && u.Path == WellKnownPath &&
		u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" && !strings.Contains(s, "#")
}

// mediaTypeIs compares the essence of a media type (parameters dropped)
// case-insensitively.
func mediaTypeIs(t, want string) bool {
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	return strings.EqualFold(strings.TrimSpace(t), want)
}

// nonNil makes an empty list marshal as [] rather than null.
func nonNil(ps []Problem) []Problem {
	if ps == nil {
		return []Problem{}
	}
	return ps
}
