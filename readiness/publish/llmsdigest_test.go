package publish

import (
	"testing"
	"time"

	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLLMsTextDigestedByLinkset: Site.LLMsText gives the bytes the kit
// serves at /llms.txt, so a knowledge link set built with them digests
// llms.txt, and a client verifying the served link set finds that digest
// true over real HTTP.
func TestLLMsTextDigestedByLinkset(t *testing.T) {
	s := baseSite()
	build := func(llms []byte) *linkset.Document {
		b := &linkset.Builder{BundleIRI: s.Origin + "/", SpecVersion: "1.0.0", BundleVersion: "v1", SourceDate: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
			Counts: map[string]int{"concepts": 1}, Artefacts: []linkset.Artefact{
				{Relation: "describedby", Href: s.Origin + "/graph.jsonld", Type: "application/ld+json", Body: []byte(`{"@graph":[]}`)},
				{Relation: linkset.RelGraph, Href: s.Origin + "/graph.nq", Type: "application/n-quads", Body: []byte("<a> <b> <c> <g> .\n")},
			}}
		if llms != nil {
			b.Artefacts = append(b.Artefacts, linkset.Artefact{Relation: "alternate", Href: s.Origin + "/llms.txt", Type: "text/plain", Body: llms})
		}
		d, _, err := b.Build()
		require.NoError(t, err)
		return d
	}
	s.Linkset = build(nil)
	llms, err := s.LLMsText()
	require.NoError(t, err)
	assert.Contains(t, string(llms), "[Knowledge link set]("+s.Origin+"/.well-known/knowledge-linkset)", "llms.txt lists the link set")
	s.Linkset = build(llms)
	again, err := s.LLMsText()
	require.NoError(t, err)
	assert.Equal(t, llms, again, "the link set's content does not change llms.txt")

	h, err := s.Handler(nil)
	require.NoError(t, err)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("tea.example", h)
	resp, err := n.Client().Get(t.Context(), s.Origin+"/llms.txt", nil)
	require.NoError(t, err)
	assert.Equal(t, llms, resp.Body, "LLMsText is what Handler serves")

	f, err := linkset.Fetch(t.Context(), s.Origin+linkset.WellKnownPath, &linkset.FetchOptions{Client: n.Client()})
	require.NoError(t, err)
	var llmsState *linkset.ArtefactState
	for _, st := range f.Verify(t.Context(), &linkset.VerifyOptions{Client: n.Client()}) {
		if st.Href == s.Origin+"/llms.txt" {
			llmsState = &st
		}
	}
	require.NotNil(t, llmsState)
	assert.Equal(t, linkset.DigestVerified, llmsState.State, llmsState.Reason)

	_, err = (&Site{Origin: "http://tea.example"}).LLMsText()
	var se *SiteError
	assert.ErrorAs(t, err, &se, "the error Handler returns")
}
