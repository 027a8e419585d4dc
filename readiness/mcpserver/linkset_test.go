package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/readiness/mcpserver"
)

// A knowledge linkset is validated as a publisher must publish it: a
// registered relation outside the profile's set (prev), which a reader
// ignores, is an error.
func TestValidateLinksetInPublisherMode(t *testing.T) {
	doc := `{"linkset":[{"anchor":"https://example.org/",
"alternate":[{"href":"https://example.org/llms.txt","type":"text/plain"}],
"describedby":[{"href":"https://example.org/graph.jsonld","type":"application/ld+json"}],
"license":[{"href":"https://example.org/legal/"}],
"prev":[{"href":"https://example.org/old/"}]}]}`
	d, err := linkset.Parse([]byte(doc))
	require.NoError(t, err)
	require.True(t, d.Evaluate(linkset.ModeReader).Conformant(), "a reader accepts it")

	srv, err := mcpserver.New(nil)
	require.NoError(t, err)
	cs := connectStdio(t, srv)
	var v struct {
		Valid    bool
		Problems []struct{ Pointer, Rule, Section, Severity string }
	}
	structured(t, callTool(t, cs, "validate_document", map[string]any{"kind": "knowledge_linkset", "content": doc}), &v)
	assert.False(t, v.Valid)
	found := false
	for _, p := range v.Problems {
		if p.Severity == "error" && strings.Contains(p.Pointer, "prev") {
			found = true
			assert.NotEmpty(t, p.Section, "the linkset package cites its sections")
		}
	}
	assert.True(t, found, "%+v", v.Problems)
}
