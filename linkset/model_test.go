package linkset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gowebpki/jcs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppendixA(t *testing.T) {
	tests := []struct {
		file string
		form Form
	}{
		{vectorFull, FormFull},
		{vectorReduced, FormReduced},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data := readVector(t, tc.file)
			for _, mode := range []Mode{ModePublisher, ModeReader} {
				d, r := evaluateBytes(data, mode)
				require.NotNil(t, d)
				assert.Empty(t, r.Problems, "mode %d", mode)
				assert.Empty(t, r.Notices, "mode %d", mode)
				assert.Equal(t, tc.form, r.Form)
				assert.True(t, r.Conformant())
			}
			d := parseVector(t, tc.file)
			assert.Empty(t, d.Check())
			// The canonical bytes pass the strict mode.
			_, r := evaluateBytes(canonical(t, d), ModeStrict)
			assert.Empty(t, r.Problems)
			assert.Equal(t, tc.form, r.Form)
			// Every link's digest reads, and none is verified without its artefact.
			for _, rel := range d.Contexts[0].Relations {
				for _, l := range rel.Links {
					_, _, err := l.Digest()
					assert.NoError(t, err, l.Href)
				}
			}
		})
	}
	d := parseVector(t, vectorFull)
	assert.Equal(t, []string{"https://b.example/.well-known/knowledge-linkset"}, d.peers())
	assert.Equal(t, "6acd55d78bf24c2b7866c0e46a3bb88a4b7259cea9ca0bfa626381068b0d56ed", d.ledgerHead())
	assert.False(t, d.gated())
	_, tomb := d.tombstone()
	assert.False(t, tomb)
	assert.Equal(t, "https://example.org/graph.jsonld", d.Bundle().graph().Href)
}

func TestRoundTrip(t *testing.T) {
	docs := map[string][]byte{
		"full":                 readVector(t, vectorFull),
		"reduced":              readVector(t, vectorReduced),
		"every attribute kind": []byte(`{"x":[1,2.50,{"a":null}],"linkset":[{"alternate":[{"href":"https://e.example/a","type":"","title":"A \"t\" \u2028 \u00e9","media":"screen","hreflang":[],"title*":[{"value":"T","language":"en"},{"value":"U"}],"zeta":[],"alpha":["1","2"]}],"anchor":"https://e.example/"},{"item":[]},{}],"y":true}`),
		"no anchor":            []byte(`{"linkset":[{"license":[{"href":"https://e.example/l"}]}]}`),
		"empty anchor":         []byte(`{"linkset":[{"anchor":""}]}`),
	}
	for name, data := range docs {
		t.Run(name, func(t *testing.T) {
			d, err := Parse(data)
			require.NoError(t, err)
			out, err := json.Marshal(d)
			require.NoError(t, err)
			var d2 Document
			require.NoError(t, json.Unmarshal(out, &d2))
			assert.Equal(t, d.Contexts, d2.Contexts)
			assert.Equal(t, d.extra, d2.extra)
			want, err := jcs.Transform(data)
			require.NoError(t, err)
			got, err := jcs.Transform(out)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "the round trip changed the JSON value")
			// Relation and link order are kept as read.
			if name == "full" {
				assert.True(t, bytes.Index(out, []byte(`"alternate"`)) < bytes.Index(out, []byte(`"service-doc"`)))
			}
		})
	}
}

func TestParseErrorListsEveryProblem(t *testing.T) {
	_, err := Parse([]byte(`{"linkset":[{"anchor":1,"license":{},"author":[{"type":2},"x"]}]}`))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.True(t, errors.Is(err, ErrInvalid))
	var rules []string
	for _, p := range ve.Problems {
		rules = append(rules, p.Rule+" "+p.Pointer)
	}
	assert.Equal(t, []string{
		"anchor-string /linkset/0/anchor",
		"relation-array /linkset/0/license",
		"type-string /linkset/0/author/0/type",
		"href-missing /linkset/0/author/0",
		"link-object /linkset/0/author/1",
	}, rules)
	assert.Contains(t, err.Error(), "linkset: invalid document: 5 problems")
}

func TestReaderIgnoresWhatItDoesNotRecognise(t *testing.T) {
	d := parseVector(t, vectorFull)
	c := &d.Contexts[0]
	c.Relations = append(c.Relations,
		Relation{Name: "canonical", Links: []Link{{Href: "https://example.org/"}}},
		Relation{Name: extensionRelationBase + "mirror", Links: []Link{{Href: "https://m.example/"}}},
		Relation{Name: "https://other.example/rel/x", Links: []Link{{Href: "https://o.example/"}}},
	)
	rel(t, d, "#surface").Links[0].setAttr("agsc-access", "paid")
	rel(t, d, "#surface").Links[1].setAttr("agsc-surface", "telepathy")
	rel(t, d, "license").Links[0].setAttr("agsc-future", "1")
	d.Contexts = append(d.Contexts, Context{Anchor: "https://example.org/page", Relations: []Relation{{Name: "author", Links: []Link{{Href: "https://example.org/me"}}}}})

	r := d.Evaluate(ModeReader)
	assert.Empty(t, r.Problems)
	assert.Equal(t, FormFull, r.Form)
	var notes []string
	for _, n := range r.Notices {
		assert.Equal(t, SeverityNotice, n.Severity)
		notes = append(notes, n.Rule+" "+n.Pointer)
	}
	assert.ElementsMatch(t, []string{
		"context-ignored /linkset/1",
		"relation-ignored /linkset/0/canonical",
		"relation-ignored /linkset/0/https:~1~1w3id.org~1agentic-system-core~1rel#mirror",
		"relation-ignored /linkset/0/https:~1~1other.example~1rel~1x",
		"declaration-value " + surfacePtr + "/0/agsc-access/0",
		"declaration-value " + surfacePtr + "/1/agsc-surface/0",
		"attribute-ignored /linkset/0/license/0/agsc-future",
	}, notes)

	// A publisher may not use them.
	var rules []string
	for _, p := range d.Check() {
		rules = append(rules, p.Rule)
	}
	assert.ElementsMatch(t, []string{"relation-outside-profile", "relation-extension-unknown", "relation-outside-profile"}, rules)
}

func TestGatedAndTombstone(t *testing.T) {
	d := gatedDoc(t)
	r := d.Evaluate(ModePublisher)
	assert.Empty(t, r.Problems)
	assert.Equal(t, FormFull, r.Form)
	assert.True(t, d.gated())

	// An unknown visibility value is read as restricted.
	rel(t, d, "describedby").Links[0].setAttr("agsc-visibility", "secret")
	assert.True(t, d.gated())
	assert.Empty(t, d.Check())

	tomb := parseVector(t, vectorReduced)
	g := &rel(t, tomb, "describedby").Links[0]
	g.setAttr("agsc-tombstone", "2026-11-01T00:00:00Z")
	rel(t, tomb, "alternate").Links = append(rel(t, tomb, "alternate").Links, Link{Href: "https://successor.example/.well-known/knowledge-linkset", Type: MediaType})
	assert.Empty(t, tomb.Check())
	when, ok := tomb.tombstone()
	assert.True(t, ok)
	assert.Equal(t, "2026-11-01T00:00:00Z", formatInstant(when))
	assert.Equal(t, []string{"https://successor.example/.well-known/knowledge-linkset"}, tomb.successors())
	assert.Nil(t, parseVector(t, vectorReduced).successors())
}

func TestParseDigest(t *testing.T) {
	good := "sha-256=:JeigkAtOPS9f9BzKym+X6J2O4awt53GEua1AhIAiLfE=:"
	tests := []struct {
		in, rule string
	}{
		{good, ""},
		{"sha-256=:JeigkAtOPS9f9BzKym+X6J2O4awt53GEua1AhIAiLfE:", "digest-unpadded"}, // RFC 9651 Section 4.2.7: read, not refused
		{"", "digest-algorithm"},
		{"SHA-256=:JeigkAtOPS9f9BzKym+X6J2O4awt53GEua1AhIAiLfE=:", "digest-syntax"},
		{"sha-256=:JeigkAtOPS9f9BzKym+X6J2O4awt53GEua1AhIAiLfE=:, sha-512=:AA==:", "digest-algorithm"},
		{"sha-256=?1", "digest-length"},
		{"sha-256=(:AA==:)", "digest-length"},
		{"sha-256=:AAAA:", "digest-length"},
		{"sha-256=:JeigkAtOPS9f9BzKym+X6J2O4awt53GEua1AhIAiLfE=:;q=1", "digest-parameters"},
		{"sha-256", "digest-length"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			d, err := ParseDigest(tc.in)
			if tc.rule == "digest-unpadded" {
				require.NoError(t, err)
				assert.Equal(t, tc.in[:len(tc.in)-1]+"=:", d.String())
				return
			}
			if tc.rule == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.in, d.String())
				return
			}
			ve := asValidationError(err)
			require.NotNil(t, ve, "%v", err)
			assert.Equal(t, []string{tc.rule}, ve.Rules())
			assert.ErrorIs(t, err, ErrDigest)
		})
	}
}

func TestVerifyDigest(t *testing.T) {
	body := []byte("graph bytes\n")
	l := Link{Href: "https://e.example/g.nq"}
	assert.Equal(t, DigestUnverified, l.VerifyDigest(body), "a link without digest is unverified, never invalid")
	l.setAttr("digest", DigestOf(body).String())
	assert.Equal(t, DigestVerified, l.VerifyDigest(body))
	assert.Equal(t, DigestMismatch, l.VerifyDigest(body[:5]))
	l.setAttr("digest", "sha-256=:AAAA:")
	assert.Equal(t, DigestMalformed, l.VerifyDigest(body))
}

func TestLedger(t *testing.T) {
	e1, e2, e3 := `{"seq":1}`, `{"seq":2}`, `{"seq":3}`
	head := func(s string) string { h, err := LedgerHead([]byte(s)); require.NoError(t, err); return h }
	h1, h2 := head(e1+"\n"), head(e1+"\n"+e2+"\n")
	assert.Equal(t, h2, head(e2), "the head is the hash of the last entry alone")
	assert.Equal(t, h2, head(e1+"\r\n"+e2+"\r\n\n"), "CRLF and blank lines do not change the head")
	assert.Len(t, h1, 64)
	_, err := LedgerHead([]byte("\n\n"))
	assert.ErrorIs(t, err, ErrEmptyLedger)

	tests := []struct {
		prev, ledger string
		want         bool
	}{
		{h2, e1 + "\n" + e2 + "\n", true},                                     // unchanged
		{h1, e1 + "\n" + e2 + "\n" + e3 + "\n", true},                         // extended
		{h2, e1 + "\n", false},                                                // rolled back
		{h2, e1 + "\n" + `{"seq":2,"edited":true}` + "\n" + e3 + "\n", false}, // replaced
	}
	for i, tc := range tests {
		got, err := LedgerExtends(tc.prev, []byte(tc.ledger))
		require.NoError(t, err, i)
		assert.Equal(t, tc.want, got, i)
	}
	_, err = LedgerExtends("ABC", []byte(e1))
	assert.Error(t, err)
	_, err = LedgerExtends(h1, []byte("\n"))
	assert.ErrorIs(t, err, ErrEmptyLedger)

	// The streaming head equals LedgerHead for every split of the bytes.
	for _, s := range []string{e1 + "\n" + e2, e1 + "\r\n" + e2 + "\r\n", "a\r\r\nb\r", "\r\n\r\n", e1 + "\n\r\n"} {
		want, _ := LedgerHead([]byte(s))
		for cut := 0; cut <= len(s); cut++ {
			w := newHeadWriter()
			w.Write([]byte(s[:cut]))
			w.Write([]byte(s[cut:]))
			assert.Equal(t, want, w.Head(), "%q cut at %d", s, cut)
		}
	}
}

func TestFactsAndDeclarations(t *testing.T) {
	d := parseVector(t, vectorFull)
	f := d.Facts()
	assert.Equal(t, "1.0.0-rc.6", f.SpecVersion)
	assert.Equal(t, "2026-10-09T08:15:00Z", formatInstant(f.GeneratedAt))
	assert.Equal(t, map[string]int64{"clusters": 6, "concepts": 142, "episodes": 17, "gates": 4, "lessons": 39, "procedures": 28}, f.Counts)
	require.NotNil(t, f.BundleHash)
	assert.Equal(t, "sha-256=:/WQyaCbIwaeGFFMAFw/eMonm8tK+F7amphaKNT4BpB0=:", f.BundleHash.String())
	assert.Equal(t, "v1.4.0", f.BundleVersion)
	assert.Equal(t, "6acd55d78bf24c2b7866c0e46a3bb88a4b7259cea9ca0bfa626381068b0d56ed", f.LedgerHead)

	// A bundle fact on another link is never read (Section 4.3.2).
	rel(t, d, "license").Links[0].setAttr("agsc-bundle-version", "v9")
	assert.Equal(t, "v1.4.0", d.Facts().BundleVersion)
	reduced := parseVector(t, vectorReduced).Facts()
	assert.Equal(t, Facts{Surfaces: reduced.Surfaces}, reduced, "no bundle fact in the reduced form")

	decl := d.Facts()
	assert.False(t, decl.Restricted)
	assert.Equal(t, []Surface{
		{Href: "https://example.org/chunks.jsonl", Kind: "chunks", Served: true, Access: "none"},
		{Href: "https://example.org/llms.txt", Kind: "llms-txt", Served: true, Access: "none"},
	}, decl.Surfaces)

	// Unknown values read as the most restrictive (Section 4.3.3).
	rel(t, d, "#surface").Links[0].setAttr("agsc-access", "paid")
	rel(t, d, "#surface").Links[1].setAttr("agsc-surface", "hologram")
	rel(t, d, "describedby").Links[0].setAttr("agsc-visibility", "friends-only")
	d.Contexts[0].Relations = append(d.Contexts[0].Relations, Relation{Name: RelContribute, Links: []Link{
		{Href: "https://example.org/contribute", Attributes: []Attribute{{"agsc-contribute-mode", []string{"pr"}}}},
		{Href: "https://example.org/x", Attributes: []Attribute{{"agsc-contribute-mode", []string{"fax"}}}},
	}})
	decl = d.Facts()
	assert.True(t, decl.Restricted)
	assert.Equal(t, "credential", decl.Surfaces[0].Access)
	assert.False(t, decl.Surfaces[1].Served)
	assert.Equal(t, []Contribution{{"https://example.org/contribute", "pr", true}, {"https://example.org/x", "fax", false}}, decl.Contributions)
}

func TestBuilderSizeBound(t *testing.T) {
	b := exampleBuilder()
	for i := 0; i < 16000; i++ {
		b.add(Artefact{Relation: "author", Href: fmt.Sprintf("https://example.org/authors/%06d/with/a/long/path/segment", i)})
	}
	_, _, err := b.Build()
	require.ErrorIs(t, err, ErrBuild)
	assert.Contains(t, err.Error(), "over the")
}
