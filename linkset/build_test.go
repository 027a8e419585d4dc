package linkset

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

var sourceDate = time.Date(2026, 10, 9, 8, 15, 0, 0, time.UTC)

// exampleBuilder is a node like Appendix A's, with artefact bytes of our own.
func exampleBuilder() *Builder {
	ledger := "{\"seq\":1,\"op\":\"add\"}\n{\"seq\":2,\"op\":\"edit\"}\n"
	return (&Builder{
		BundleIRI:     "https://example.org/",
		SourceDate:    sourceDate,
		SpecVersion:   "1.0.0-rc.6",
		BundleVersion: "v1.4.0",
		Counts:        map[string]int{"procedures": 28, "concepts": 142, "clusters": 6},
	}).add(
		Artefact{Relation: RelSurface, Href: "https://example.org/llms.txt", Type: "text/plain",
			Attributes: []Attribute{{"agsc-surface", []string{"llms-txt"}}, {"agsc-access", []string{"none"}}}},
		Artefact{Relation: "alternate", Href: "https://example.org/llms.txt", Type: "text/plain", Body: []byte("# Example\n")},
		Artefact{Relation: "alternate", Href: "https://example.org/llms-full.txt", Type: "text/plain", Body: []byte("# Example, in full\n")},
		Artefact{Relation: "describedby", Href: "https://example.org/graph.jsonld", Type: "application/ld+json", Body: []byte(`{"@graph":[]}`)},
		Artefact{Relation: RelGraph, Href: "https://example.org/graph.ttl", Type: "text/turtle", Reader: strings.NewReader("<a> <b> <c> .\n")},
		Artefact{Relation: RelGraph, Href: "https://example.org/graph.nq", Type: "application/n-quads", Reader: strings.NewReader("<a> <b> <c> <g> .\n"), Private: true},
		Artefact{Relation: RelLedger, Href: "https://example.org/ledger.jsonl", Type: "application/jsonl", Reader: strings.NewReader(ledger)},
		Artefact{Relation: RelPeer, Href: "https://b.example/.well-known/knowledge-linkset", Type: MediaType},
		Artefact{Relation: "license", Href: "https://example.org/legal/", Type: "text/html"},
		Artefact{Relation: RelAccess, Href: "https://example.org/access/", Type: "text/html"},
	)
}

func TestBuilderGolden(t *testing.T) {
	tests := []struct {
		name string
		set  func(b *Builder)
		form Form
	}{
		{"full", func(*Builder) {}, FormFull},
		{"reduced", func(b *Builder) { b.Reduced = true }, FormReduced},
		{"gated", func(b *Builder) { b.Gated = true }, FormFull},
		{"tombstone", func(b *Builder) {
			b.Reduced, b.Tombstone = true, sourceDate.Add(24*time.Hour)
			b.Artefacts = []Artefact{
				{Relation: "describedby", Href: "https://example.org/graph.jsonld", Type: "application/ld+json"},
				{Relation: "alternate", Href: "https://successor.example/.well-known/knowledge-linkset", Type: MediaType},
			}
		}, FormReduced},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := exampleBuilder()
			tc.set(b)
			d, out, err := b.Build()
			require.NoError(t, err)
			golden := filepath.Join("testdata", "golden", "builder-"+tc.name+".json")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, out, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(out))

			// The bytes are canonical and conform, in the expected form.
			d2, r := evaluateBytes(out, ModeStrict)
			assert.Empty(t, r.Problems)
			assert.Equal(t, tc.form, r.Form)
			assert.Equal(t, d.Contexts, d2.Contexts)

			// Reproducible: a second build gives the same bytes.
			_, again, err := func() (*Document, []byte, error) { b := exampleBuilder(); tc.set(b); return b.Build() }()
			require.NoError(t, err)
			assert.True(t, bytes.Equal(out, again))
		})
	}
}

func TestBuilderFacts(t *testing.T) {
	d, _, err := exampleBuilder().Build()
	require.NoError(t, err)
	g := d.Bundle().graph()
	assert.Equal(t, []string{"clusters=6", "concepts=142", "procedures=28"}, mustAttr(t, g, "agsc-counts"))
	assert.Equal(t, DigestOf([]byte("<a> <b> <c> <g> .\n")).String(), g.FirstAttr("agsc-bundle-hash"))
	assert.Equal(t, "2026-10-09T08:15:00Z", g.FirstAttr("agsc-generated-at"))
	head, err := LedgerHead([]byte("{\"seq\":2,\"op\":\"edit\"}"))
	require.NoError(t, err)
	assert.Equal(t, head, d.ledgerHead())

	gated, _, err := func() (*Document, []byte, error) { b := exampleBuilder(); b.Gated = true; return b.Build() }()
	require.NoError(t, err)
	for _, l := range gated.Bundle().Relation(RelGraph) {
		_, has := l.Attr("digest")
		assert.Equal(t, l.Href != "https://example.org/graph.nq", has, "a private artefact's digest is omitted: %s", l.Href)
	}
	assert.Empty(t, gated.Bundle().Relation(RelLedger))

	clock, _, err := func() (*Document, []byte, error) {
		b := exampleBuilder()
		b.SourceDate = time.Time{}
		b.Now = func() time.Time { return time.Date(2027, 1, 2, 3, 4, 5, 600, time.FixedZone("x", 3600)) }
		return b.Build()
	}()
	require.NoError(t, err)
	assert.Equal(t, "2027-01-02T02:04:05Z", clock.Bundle().graph().FirstAttr("agsc-generated-at"))
}

func mustAttr(t *testing.T, l *Link, name string) []string {
	v, ok := l.Attr(name)
	require.True(t, ok, name)
	return v
}

func TestBuilderRefuses(t *testing.T) {
	tests := []struct {
		name string
		set  func(b *Builder)
		want string
	}{
		{"http bundle IRI", func(b *Builder) { b.BundleIRI = "http://example.org/" }, "bundle IRI"},
		{"no spec version", func(b *Builder) { b.SpecVersion = "" }, "SpecVersion"},
		{"no bundle version", func(b *Builder) { b.BundleVersion = "" }, "BundleVersion"},
		{"no graph", func(b *Builder) { b.Artefacts = b.Artefacts[:3] }, "application/ld+json"},
		{"no n-quads", func(b *Builder) { b.Artefacts = append(b.Artefacts[:5], b.Artefacts[6:]...) }, "n-quads"},
		{"relative href", func(b *Builder) { b.add(Artefact{Relation: "author", Href: "/me"}) }, "url-syntax"},
		{"related-system link without type", func(b *Builder) { b.add(Artefact{Relation: "related", Href: "https://r.example/"}) }, "related-type"},
		{"empty ledger", func(b *Builder) { b.Artefacts[6].Reader = strings.NewReader("\n") }, "no entry"},
		{"gated without access", func(b *Builder) { b.Gated = true; b.Artefacts = b.Artefacts[:9] }, "gated-access-missing"},
		{"bad count name", func(b *Builder) { b.Counts["Bad Name"] = 1 }, "counts-format"},
		{"no href", func(b *Builder) { b.add(Artefact{Relation: "author"}) }, "no relation or no href"},
		{"bad source date", func(*Builder) {}, ""},
	}
	for _, tc := range tests[:len(tests)-1] {
		t.Run(tc.name, func(t *testing.T) {
			b := exampleBuilder()
			tc.set(b)
			_, _, err := b.Build()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	assert.Equal(t, "2025-10-09T08:53:20Z", formatInstant(time.Unix(1760000000, 0)))
}

// add appends artefacts and returns the builder, for the tests' tables.
func (b *Builder) add(a ...Artefact) *Builder {
	b.Artefacts = append(b.Artefacts, a...)
	return b
}
