package linkset

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/agentweb/agentweb/internal/shorten"
)

// Artefact is one link the [Builder] writes. It is an artefact of the Bundle
// with its content, whose digest the builder computes. Or it is a link
// without content, such as license, author, a peer or a related-system link.
type Artefact struct {
	// Relation is a short name of Sections 4.2 and 4.5 or a member of the
	// closed extension set (RelGraph, RelPeer, ...).
	Relation string
	// Href is the artefact's absolute URL.
	Href string
	// Type is the media type of the bytes served (required on describedby,
	// alternate and related-system links, Section 4.5).
	Type string
	// Title and Hreflang are optional target attributes.
	Title    string
	Hreflang []string
	// Body holds the canonical bytes the node serves; or Reader streams them
	// (read once, to its end). With neither, the link carries no digest.
	Body   []byte
	Reader io.Reader
	// Attributes are further target attributes: the declaration attributes
	// of Section 4.3.3 (agsc-surface, agsc-access, ...) and profile.
	Attributes []Attribute
	// Private marks an artefact served only with authentication: in gated
	// mode its digest is omitted, since a digest over a gated artefact lets
	// anyone confirm a guess of its content (Section 9.5).
	Private bool
}

// Builder produces a node's canonical discovery document ([knowledge-linkset
// draft], Section 4). It has one link context anchored at the Bundle IRI, with
// links sorted by href within each relation. Digests are computed in one
// streaming pass per artefact. The bundle facts ride on the describedby link to
// the JSON-LD graph, the ledger head on the ledger link. The document is
// serialized with RFC 8785 and one LF.
//
// The zero value is not usable: BundleIRI is required. The full form
// needs SpecVersion and BundleVersion, and a describedby artefact of type
// application/ld+json. It also needs a RelGraph artefact of type
// application/n-quads with content: the bundle hash is its digest.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
type Builder struct {
	// BundleIRI is the anchor: the origin's base URL with a trailing solidus.
	BundleIRI string
	// SourceDate is the build's source date, written as agsc-generated-at so
	// that builds are reproducible (Section 4.3.2). When zero, Now is used.
	SourceDate time.Time
	// Now is the clock used when SourceDate is zero; nil means time.Now.
	Now func() time.Time
	// SpecVersion is agsc-spec-version, the [AGSC-SPEC] version.
	SpecVersion string
	// BundleVersion is agsc-bundle-version, the publisher's content version.
	BundleVersion string
	// Counts are the item counts per type plural, written as agsc-counts in
	// code point order of the type name.
	Counts map[string]int
	// Reduced builds the reduced form of Section 4.4: no digest, no bundle
	// fact and no ledger link.
	Reduced bool
	// Gated builds the document of a node whose content is gated
	// (Sections 3.3 and 9.5). The graph link carries agsc-visibility
	// restricted. There is no agsc-counts, agsc-bundle-hash,
	// agsc-bundle-version or ledger link, and no digest of a Private
	// artefact. A RelAccess artefact is required.
	Gated bool
	// Tombstone, when not zero, marks a node that has stopped publishing
	// (Section 9.7) with agsc-tombstone on the graph link.
	Tombstone time.Time
	// Artefacts are the links to write, in any order.
	Artefacts []Artefact
}

// ErrBuild is wrapped by every error of [Builder.Build] other than a
// *ValidationError about the built document.
var ErrBuild = errors.New("linkset: cannot build")

// Build computes the digests and returns the document (as its canonical
// bytes read back) and the canonical bytes. The result is checked in Publisher mode; a document that would not
// conform is refused with a *ValidationError.
func (b *Builder) Build() (*Document, []byte, error) {
	if !isBundleIRI(b.BundleIRI) {
		return nil, nil, fmt.Errorf("%w: bundle IRI %q is not an https origin's base URL with a trailing solidus", ErrBuild, shorten.Bytes(b.BundleIRI, 120))
	}
	type built struct {
		rel  string
		link Link
	}
	links := make([]built, 0, len(b.Artefacts))
	var nquads *Digest
	for i := range b.Artefacts {
		a := &b.Artefacts[i]
		if a.Relation == "" || a.Href == "" {
			return nil, nil, fmt.Errorf("%w: artefact %d has no relation or no href", ErrBuild, i)
		}
		isLedger := a.Relation == RelLedger
		if isLedger && (b.Gated || b.Reduced) {
			continue // Sections 4.4 and 9.5 omit the ledger link
		}
		l := Link{Href: a.Href, Type: a.Type, Title: a.Title, Hreflang: a.Hreflang}
		for _, at := range a.Attributes {
			l.setAttr(at.Name, at.Values...)
		}
		hasContent := a.Body != nil || a.Reader != nil
		if hasContent && !b.Reduced && !(b.Gated && a.Private) {
			d, head, err := digestArtefact(a, isLedger)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: artefact %s: %w", ErrBuild, a.Href, err)
			}
			if isLedger {
				l.setAttr("agsc-ledger-head", head)
			}
			l.setAttr("digest", d.String())
			if a.Relation == RelGraph && mediaTypeIs(a.Type, "application/n-quads") {
				nquads = &d
			}
		}
		links = append(links, built{a.Relation, l})
	}

	// Relations in RFC 8785 member order (UTF-16 code units), links by href
	// in code point order (Section 4.1).
	slices.SortStableFunc(links, func(x, y built) int {
		if c := compareUTF16(x.rel, y.rel); c != 0 {
			return c
		}
		return cmp.Compare(x.link.Href, y.link.Href)
	})
	ctx := Context{Anchor: b.BundleIRI}
	for _, l := range links {
		if n := len(ctx.Relations); n > 0 && ctx.Relations[n-1].Name == l.rel {
			ctx.Relations[n-1].Links = append(ctx.Relations[n-1].Links, l.link)
			continue
		}
		ctx.Relations = append(ctx.Relations, Relation{Name: l.rel, Links: []Link{l.link}})
	}
	d := &Document{Contexts: []Context{ctx}}
	graph := d.Contexts[0].graph()
	if graph == nil {
		return nil, nil, fmt.Errorf("%w: no describedby artefact of type application/ld+json (the Bundle's graph)", ErrBuild)
	}
	if err := b.facts(graph, nquads); err != nil {
		return nil, nil, err
	}
	if ps := d.Check(); len(ps) > 0 {
		return nil, nil, invalid(ps)
	}
	out, err := d.Canonical()
	if err != nil {
		return nil, nil, err
	}
	if len(out) > maxDocumentBytes {
		// A client treats a larger document as unreadable (Sections 7.1 and 9.6).
		return nil, nil, fmt.Errorf("%w: the document is %d bytes, over the %d a client reads", ErrBuild, len(out), maxDocumentBytes)
	}
	// Return the document as its canonical bytes read, member order included.
	read, err := Parse(out)
	if err != nil {
		return nil, nil, err
	}
	return read, out, nil
}

func (b *Builder) facts(graph *Link, nquads *Digest) error {
	if b.Gated {
		graph.setAttr("agsc-visibility", "restricted")
	}
	if !b.Tombstone.IsZero() {
		graph.setAttr("agsc-tombstone", formatInstant(b.Tombstone))
	}
	if b.Reduced {
		return nil
	}
	if b.SpecVersion == "" {
		return fmt.Errorf("%w: the full form needs SpecVersion (agsc-spec-version)", ErrBuild)
	}
	when := b.SourceDate
	if when.IsZero() {
		now := b.Now
		if now == nil {
			now = time.Now
		}
		when = now()
	}
	graph.setAttr("agsc-spec-version", b.SpecVersion)
	graph.setAttr("agsc-generated-at", formatInstant(when))
	if b.Gated {
		return nil
	}
	if b.BundleVersion == "" {
		return fmt.Errorf("%w: the full form needs BundleVersion (agsc-bundle-version)", ErrBuild)
	}
	if nquads == nil {
		return fmt.Errorf("%w: the full form needs a RelGraph artefact of type application/n-quads with content (agsc-bundle-hash is its digest)", ErrBuild)
	}
	types := make([]string, 0, len(b.Counts))
	for k := range b.Counts {
		types = append(types, k)
	}
	slices.Sort(types)
	counts := make([]string, 0, len(types))
	for _, k := range types {
		counts = append(counts, k+"="+strconv.Itoa(b.Counts[k]))
	}
	graph.setAttr("agsc-counts", counts...)
	graph.setAttr("agsc-bundle-hash", nquads.String())
	graph.setAttr("agsc-bundle-version", b.BundleVersion)
	return nil
}

// digestArtefact hashes an artefact's content in one pass; for the ledger
// the same pass computes the head of the last entry.
func digestArtefact(a *Artefact, ledger bool) (Digest, string, error) {
	var d Digest
	if a.Reader == nil {
		if ledger {
			head, err := LedgerHead(a.Body)
			if err != nil {
				return d, "", err
			}
			return DigestOf(a.Body), head, nil
		}
		return DigestOf(a.Body), "", nil
	}
	h := sha256.New()
	var w io.Writer = h
	var hw *headWriter
	if ledger {
		hw = newHeadWriter()
		w = io.MultiWriter(h, hw)
	}
	if _, err := io.Copy(w, a.Reader); err != nil {
		return d, "", err
	}
	h.Sum(d[:0])
	if !ledger {
		return d, "", nil
	}
	head := hw.Head()
	if head == "" {
		return d, "", ErrEmptyLedger
	}
	return d, head, nil
}

// compareUTF16 orders strings by UTF-16 code units, as RFC 8785 sorts
// object member names.
func compareUTF16(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b)
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
