package linkset

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	vectorFull    = "testdata/knowledge-linkset-appendix-a-full.json"
	vectorReduced = "testdata/knowledge-linkset-appendix-a-reduced.json"
	surfacePtr    = "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#surface"
	graphPtr      = "/linkset/0/describedby/0"
)

func readVector(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}

func parseVector(t testing.TB, name string) *Document {
	t.Helper()
	d, err := Parse(readVector(t, name))
	require.NoError(t, err)
	return d
}

func canonical(t testing.TB, d *Document) []byte {
	t.Helper()
	b, err := d.Canonical()
	require.NoError(t, err)
	return b
}

// rel returns the named relation of the first context, by short name
// ("license") or extension name ("#peer").
func rel(t testing.TB, d *Document, name string) *Relation {
	t.Helper()
	full := name
	if strings.HasPrefix(name, "#") {
		full = extensionRelationBase + name[1:]
	}
	for i := range d.Contexts[0].Relations {
		if d.Contexts[0].Relations[i].Name == full {
			return &d.Contexts[0].Relations[i]
		}
	}
	t.Fatalf("no relation %s", name)
	return nil
}

func dropRel(d *Document, name string) {
	full := name
	if strings.HasPrefix(name, "#") {
		full = extensionRelationBase + name[1:]
	}
	c := &d.Contexts[0]
	c.Relations = slices.DeleteFunc(c.Relations, func(r Relation) bool { return r.Name == full })
}

func dropAttr(l *Link, name string) {
	l.Attributes = slices.DeleteFunc(l.Attributes, func(a Attribute) bool { return a.Name == name })
}

// gatedDoc is Appendix A's full document made gated as Section 9.5 asks.
func gatedDoc(t testing.TB) *Document {
	d := parseVector(t, vectorFull)
	g := &rel(t, d, "describedby").Links[0]
	for _, a := range []string{"agsc-counts", "agsc-bundle-hash", "agsc-bundle-version"} {
		dropAttr(g, a)
	}
	g.setAttr("agsc-visibility", "restricted")
	dropRel(d, "#ledger")
	d.Contexts[0].Relations = append(d.Contexts[0].Relations, Relation{Name: RelAccess, Links: []Link{{Href: "https://example.org/access/", Type: "text/html"}}})
	return d
}

type corpusCase struct {
	name    string
	mode    Mode
	data    func(t testing.TB) []byte
	rule    string
	pointer string
}

// replaceIn returns the canonical bytes of Appendix A's full document with
// old replaced once by new.
func replaceIn(old, new string) func(t testing.TB) []byte {
	return func(t testing.TB) []byte {
		c := string(canonical(t, parseVector(t, vectorFull)))
		require.Contains(t, c, old)
		return []byte(strings.Replace(c, old, new, 1))
	}
}

func raw(s string) func(t testing.TB) []byte {
	return func(testing.TB) []byte { return []byte(s) }
}

// edit returns the canonical bytes of a vector after f changes its model.
func edit(vector string, f func(t testing.TB, d *Document)) func(t testing.TB) []byte {
	return func(t testing.TB) []byte {
		d := parseVector(t, vector)
		f(t, d)
		return canonical(t, d)
	}
}

func editGated(f func(t testing.TB, d *Document)) func(t testing.TB) []byte {
	return func(t testing.TB) []byte {
		d := gatedDoc(t)
		f(t, d)
		return canonical(t, d)
	}
}

const licenseLink = `"license":[{"href":"https://example.org/legal/","type":"text/html"}]`

var corpus = []corpusCase{
	// ModeStrict JSON (internal/strictjson).
	{"truncated", ModePublisher, func(t testing.TB) []byte { b := canonical(t, parseVector(t, vectorReduced)); return b[:len(b)-4] }, "json-syntax", "/linkset/0"},
	{"duplicate anchor", ModePublisher, replaceIn(`"anchor":"https://example.org/"`, `"anchor":"https://example.org/","anchor":"https://example.org/"`), "json-duplicate-member", "/linkset/0/anchor"},
	{"byte-order mark", ModePublisher, func(t testing.TB) []byte {
		return append([]byte("\xef\xbb\xbf"), canonical(t, parseVector(t, vectorReduced))...)
	}, "json-bom", ""},
	{"invalid UTF-8", ModePublisher, replaceIn(`"https://example.org/legal/"`, "\"https://example.org/leg\xffal/\""), "json-utf8", "/linkset/0/license/0/href"},
	{"lone surrogate", ModePublisher, replaceIn(`"https://example.org/legal/"`, `"https://example.org/leg\ud800al/"`), "json-surrogate", "/linkset/0/license/0/href"},
	{"trailing data", ModePublisher, func(t testing.TB) []byte { return append(canonical(t, parseVector(t, vectorReduced)), "{}"...) }, "json-trailing-data", ""},
	{"too deep", ModePublisher, raw(`{"linkset":[{"x":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}]}`), "json-depth", "/linkset/0/x" + strings.Repeat("/0", 61)},
	{"number out of range", ModePublisher, raw(`{"linkset":[],"n":1e400}`), "json-number-range", "/n"},

	// The link-set shape (Parse).
	{"top-level array", ModePublisher, raw(`[]`), "top-level-object", ""},
	{"no linkset member", ModePublisher, raw(`{"links":[]}`), "linkset-missing", ""},
	{"linkset an object", ModePublisher, raw(`{"linkset":{}}`), "linkset-array", "/linkset"},
	{"context a number", ModePublisher, raw(`{"linkset":[1]}`), "context-object", "/linkset/0"},
	{"anchor a number", ModePublisher, replaceIn(`"anchor":"https://example.org/"`, `"anchor":1`), "anchor-string", "/linkset/0/anchor"},
	{"relation an object", ModePublisher, replaceIn(licenseLink, `"license":{"href":"https://example.org/legal/"}`), "relation-array", "/linkset/0/license"},
	{"link a string", ModePublisher, replaceIn(licenseLink, `"license":["https://example.org/legal/"]`), "link-object", "/linkset/0/license/0"},
	{"link without href", ModePublisher, replaceIn(licenseLink, `"license":[{"type":"text/html"}]`), "href-missing", "/linkset/0/license/0"},
	{"href a number", ModePublisher, replaceIn(licenseLink, `"license":[{"href":5,"type":"text/html"}]`), "href-string", "/linkset/0/license/0/href"},
	{"type an array", ModePublisher, replaceIn(licenseLink, `"license":[{"href":"https://example.org/legal/","type":["text/html"]}]`), "type-string", "/linkset/0/license/0/type"},
	{"title a boolean", ModePublisher, replaceIn(licenseLink, `"license":[{"href":"https://example.org/legal/","title":true}]`), "title-string", "/linkset/0/license/0/title"},
	{"media a number", ModePublisher, replaceIn(licenseLink, `"license":[{"href":"https://example.org/legal/","media":1}]`), "media-string", "/linkset/0/license/0/media"},
	{"hreflang a string", ModePublisher, replaceIn(licenseLink, `"license":[{"href":"https://example.org/legal/","hreflang":"en"}]`), "hreflang-array", "/linkset/0/license/0/hreflang"},
	{"extension attribute a string", ModePublisher, replaceIn(`"agsc-access":["none"],"agsc-surface":["chunks"]`, `"agsc-access":"none","agsc-surface":["chunks"]`), "attribute-array", surfacePtr + "/0/agsc-access"},
	{"extension attribute of numbers", ModePublisher, replaceIn(`"agsc-bundle-version":["v1.4.0"]`, `"agsc-bundle-version":[1,4,0]`), "attribute-array", graphPtr + "/agsc-bundle-version"},
	{"title* of strings", ModePublisher, replaceIn(licenseLink, `"license":[{"href":"https://example.org/legal/","title*":["Legal"]}]`), "i18n-attribute", "/linkset/0/license/0/title*"},

	// The profile (Check).
	{"second top-level member", ModePublisher, edit(vectorFull, func(_ testing.TB, d *Document) {
		d.extra = append(d.extra, member{name: "meta", value: []byte(`{}`)})
	}), "top-level-member", "/meta"},
	{"empty linkset", ModePublisher, raw(`{"linkset":[]}`), "context-none", "/linkset"},
	{"two Bundle contexts", ModePublisher, edit(vectorReduced, func(_ testing.TB, d *Document) {
		d.Contexts = append(d.Contexts, d.Contexts[0])
	}), "context-multiple", "/linkset/1"},
	{"no context at a Bundle IRI", ModePublisher, edit(vectorReduced, func(_ testing.TB, d *Document) {
		d.Contexts[0].Anchor = "https://example.org/page"
		d.Contexts = append(d.Contexts, Context{Anchor: "https://example.org/other", Relations: d.Contexts[0].Relations})
	}), "context-none", "/linkset"},
	{"no anchor", ModePublisher, edit(vectorFull, func(_ testing.TB, d *Document) {
		d.Contexts[0].Anchor, d.Contexts[0].NoAnchor = "", true
	}), "anchor-missing", "/linkset/0"},
	{"http anchor", ModePublisher, edit(vectorFull, func(_ testing.TB, d *Document) { d.Contexts[0].Anchor = "http://example.org/" }), "anchor-bundle-iri", "/linkset/0/anchor"},
	{"anchor with a path", ModePublisher, edit(vectorFull, func(_ testing.TB, d *Document) { d.Contexts[0].Anchor = "https://example.org/kb/" }), "anchor-bundle-iri", "/linkset/0/anchor"},
	{"relative href", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "license").Links[0].Href = "/legal/" }), RuleURLSyntax, "/linkset/0/license/0/href"},
	{"unregistered short name", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "license").Name = "licence" }), "relation-unregistered", "/linkset/0/licence"},
	{"invented extension relation", ModePublisher, edit(vectorFull, func(_ testing.TB, d *Document) {
		d.Contexts[0].Relations = append(d.Contexts[0].Relations, Relation{Name: extensionRelationBase + "mirror", Links: []Link{{Href: "https://mirror.example/"}}})
	}), "relation-extension-unknown", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#mirror"},
	{"registered relation outside the profile", ModePublisher, edit(vectorFull, func(_ testing.TB, d *Document) {
		d.Contexts[0].Relations = append(d.Contexts[0].Relations, Relation{Name: "canonical", Links: []Link{{Href: "https://example.org/"}}})
	}), "relation-outside-profile", "/linkset/0/canonical"},
	{"hrefs out of order", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		l := rel(t, d, "alternate").Links
		l[0], l[1] = l[1], l[0]
	}), "href-order", "/linkset/0/alternate/1/href"},
	{"related-system link without type", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		l := &rel(t, d, "service-doc").Links[0]
		l.Type, l.Href = "", "https://docs.other.example/api"
	}), "related-type", "/linkset/0/service-doc/0"},
	{"peer not a well-known URL", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "#peer").Links[0].Href = "https://b.example/" }), "peer-url", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#peer/0/href"},
	{"two digest values", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		l := &rel(t, d, "#now").Links[0]
		v := l.FirstAttr("digest")
		l.setAttr("digest", v, v)
	}), "digest-count", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#now/0/digest"},
	{"digest not a dictionary", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "#now").Links[0].setAttr("digest", "sha-256=:abc") }), "digest-syntax", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#now/0/digest/0"},
	{"digest with sha-512", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "#now").Links[0].setAttr("digest", "sha-512=:cJvRMVgkkW5Usdn/z0q1iNxyBErb59kLWRv83qvpx8A=:")
	}), "digest-algorithm", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#now/0/digest/0"},
	{"digest of 3 bytes", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "#now").Links[0].setAttr("digest", "sha-256=:AAAA:") }), "digest-length", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#now/0/digest/0"},
	{"digest with a parameter", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "#now").Links[0].setAttr("digest", "sha-256=:cJvRMVgkkW5Usdn/z0q1iNxyBErb59kLWRv83qvpx8A=:;a=1")
	}), "digest-parameters", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#now/0/digest/0"},
	{"relative profile", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "author").Links[0].setAttr("profile", "profile/x") }), RuleURLSyntax, "/linkset/0/author/0/profile/0"},
	{"bundle fact on another link", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "license").Links[0].setAttr("agsc-spec-version", "1.0.0") }), "bundle-fact-placement", "/linkset/0/license/0/agsc-spec-version"},
	{"ledger head on another link", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "#now").Links[0].setAttr("agsc-ledger-head", strings.Repeat("a", 64))
	}), "ledger-head-placement", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#now/0/agsc-ledger-head"},
	{"upper-case ledger head", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "#ledger").Links[0].setAttr("agsc-ledger-head", strings.Repeat("A", 64))
	}), "ledger-head-format", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#ledger/0/agsc-ledger-head/0"},
	{"two spec versions", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-spec-version", "1.0.0", "1.0.1")
	}), "bundle-fact-count", graphPtr + "/agsc-spec-version"},
	{"empty spec version", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "describedby").Links[0].setAttr("agsc-spec-version", "") }), "spec-version-empty", graphPtr + "/agsc-spec-version/0"},
	{"generated-at with an offset", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-generated-at", "2026-10-09T08:15:00+00:00")
	}), "generated-at-format", graphPtr + "/agsc-generated-at/0"},
	{"generated-at with fractions", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-generated-at", "2026-10-09T08:15:00.5Z")
	}), "generated-at-format", graphPtr + "/agsc-generated-at/0"},
	{"generated-at on 31 February", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-generated-at", "2026-02-31T08:15:00Z")
	}), "generated-at-format", graphPtr + "/agsc-generated-at/0"},
	{"count without a number", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-counts", "clusters=six", "concepts=142")
	}), "counts-format", graphPtr + "/agsc-counts/0"},
	{"counts out of order", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-counts", "concepts=142", "clusters=6")
	}), "counts-order", graphPtr + "/agsc-counts/1"},
	{"bundle hash not a digest", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-bundle-hash", "fd643268")
	}), "bundle-hash-syntax", graphPtr + "/agsc-bundle-hash/0"},
	{"bundle hash not the N-Quads digest", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-bundle-hash", DigestOf([]byte("other")).String())
	}), "bundle-hash-mismatch", graphPtr + "/agsc-bundle-hash"},
	{"bundle hash without an N-Quads link", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		r := rel(t, d, "#graph")
		r.Links = r.Links[1:]
	}), "bundle-hash-target", graphPtr + "/agsc-bundle-hash"},
	{"full form without counts", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { dropAttr(&rel(t, d, "describedby").Links[0], "agsc-counts") }), "bundle-fact-missing", graphPtr},
	{"digest in a reduced document", ModePublisher, edit(vectorReduced, func(t testing.TB, d *Document) {
		rel(t, d, "alternate").Links[0].setAttr("digest", DigestOf(nil).String())
	}), "bundle-fact-missing", graphPtr},
	{"no graph link", ModePublisher, edit(vectorReduced, func(t testing.TB, d *Document) { rel(t, d, "describedby").Links[0].Type = "application/json" }), "graph-link-missing", "/linkset/0"},
	{"gated with counts", ModePublisher, editGated(func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-counts", "clusters=6")
	}), "gated-omission", graphPtr + "/agsc-counts"},
	{"gated with a ledger", ModePublisher, editGated(func(_ testing.TB, d *Document) {
		d.Contexts[0].Relations = append(d.Contexts[0].Relations, Relation{Name: RelLedger, Links: []Link{{Href: "https://example.org/ledger.jsonl", Type: "application/jsonl"}}})
	}), "gated-omission", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#ledger"},
	{"gated without access", ModePublisher, editGated(func(_ testing.TB, d *Document) { dropRel(d, "#access") }), "gated-access-missing", "/linkset/0"},
	{"gated without generated-at", ModePublisher, editGated(func(t testing.TB, d *Document) { dropAttr(&rel(t, d, "describedby").Links[0], "agsc-generated-at") }), "bundle-fact-missing", graphPtr},
	{"access on an author link", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "author").Links[0].setAttr("agsc-access", "none") }), "declaration-placement", "/linkset/0/author/0/agsc-access"},
	{"visibility on a surface link", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "#surface").Links[0].setAttr("agsc-visibility", "restricted")
	}), "declaration-placement", surfacePtr + "/0/agsc-visibility"},
	{"contribute mode on a peer link", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "#peer").Links[0].setAttr("agsc-contribute-mode", "pr") }), "declaration-placement", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#peer/0/agsc-contribute-mode"},
	{"two surfaces on one link", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "#surface").Links[0].setAttr("agsc-surface", "chunks", "mcp")
	}), "declaration-count", surfacePtr + "/0/agsc-surface"},
	{"tombstone not an instant", ModePublisher, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-tombstone", "yesterday")
	}), "tombstone-format", graphPtr + "/agsc-tombstone/0"},

	// ModeStrict mode (the reference validator's checks, NOTES.md).
	{"pretty-printed bytes", ModeStrict, func(t testing.TB) []byte { return readVector(t, vectorFull) }, "canonical-bytes", ""},
	{"canonical bytes without the final LF", ModeStrict, func(t testing.TB) []byte {
		b := canonical(t, parseVector(t, vectorFull))
		return b[:len(b)-1]
	}, "canonical-bytes", ""},
	{"empty relation", ModeStrict, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "author").Links = []Link{} }), "relation-empty", "/linkset/0/author"},
	{"repeated href", ModeStrict, edit(vectorFull, func(t testing.TB, d *Document) {
		r := rel(t, d, "alternate")
		r.Links = append(r.Links[:1], r.Links...)
	}), "href-duplicate", "/linkset/0/alternate/1/href"},
	{"digest with a space", ModeStrict, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "#now").Links[0].setAttr("digest", " sha-256=:cJvRMVgkkW5Usdn/z0q1iNxyBErb59kLWRv83qvpx8A=:")
	}), "digest-canonical", "/linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#now/0/digest/0"},
	{"bundle version with a space", ModeStrict, edit(vectorFull, func(t testing.TB, d *Document) {
		rel(t, d, "describedby").Links[0].setAttr("agsc-bundle-version", "v 1")
	}), "bundle-version-syntax", graphPtr + "/agsc-bundle-version/0"},
	{"unknown surface", ModeStrict, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "#surface").Links[1].setAttr("agsc-surface", "ftp") }), "surface-value", surfacePtr + "/1/agsc-surface/0"},
	{"chunks with a surface version", ModeStrict, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "#surface").Links[0].setAttr("agsc-surface-version", "1") }), "surface-version", surfacePtr + "/0/agsc-surface-version"},
	{"mcp without a surface version", ModeStrict, edit(vectorFull, func(t testing.TB, d *Document) { rel(t, d, "#surface").Links[1].setAttr("agsc-surface", "mcp") }), "surface-version", surfacePtr + "/1"},
}

// TestCorpus checks that each one-defect document yields exactly the
// problem it was made to have, with its rule and JSON Pointer.
func TestCorpus(t *testing.T) {
	rules := map[string]bool{}
	for _, tc := range corpus {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data(t)
			_, r := evaluateBytes(data, tc.mode)
			require.Len(t, r.Problems, 1, "problems: %v", r.Problems)
			p := r.Problems[0]
			assert.Equal(t, tc.rule, p.Rule, p.String())
			assert.Equal(t, tc.pointer, p.Pointer, p.String())
			assert.NotEmpty(t, p.Section)
			assert.NotEmpty(t, p.Message)
			assert.Equal(t, FormNotConformant, r.Form)
			rules[tc.rule] = true
		})
	}
	assert.GreaterOrEqual(t, len(rules), 40, "distinct rules in the corpus")
	t.Logf("corpus: %d documents, %d distinct rules", len(corpus), len(rules))
}

// A link on the anchor's own origin is not a related system however its
// URL spells that origin (host case, default port, trailing dot), so it
// needs no type (Section 4.5).
func TestSameOriginSpelledOtherwiseIsNotRelatedSystem(t *testing.T) {
	for _, href := range []string{"https://example.org/api", "https://EXAMPLE.org:443/api", "https://example.org./api"} {
		t.Run(href, func(t *testing.T) {
			data := edit(vectorFull, func(t testing.TB, d *Document) {
				l := &rel(t, d, "service-doc").Links[0]
				l.Type, l.Href = "", href
			})(t)
			_, r := evaluateBytes(data, ModePublisher)
			for _, p := range r.Problems {
				assert.NotEqual(t, RuleRelatedType, p.Rule, p.String())
			}
		})
	}
}
