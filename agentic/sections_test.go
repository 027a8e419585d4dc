package agentic

import (
	"testing"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/problem/problemtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryRuleCitesASection: every Rule constant of the package has a
// section of its specification in ruleSections, and the problems of each
// layer (strict JSON, schema, semantic rules) carry it.
func TestEveryRuleCitesASection(t *testing.T) {
	missing, err := problemtest.RulesWithoutSection(".", "ruleSections")
	require.NoError(t, err)
	assert.Empty(t, missing, "Rule constants without a section")
	for _, doc := range []string{`{"a": 1, "a": 2}`, `{"a": 1`, `[]`, `{"name": 7, "url": "http://u:p@x"}`} {
		_, err := ParseSite([]byte(doc))
		ve := problem.As(err)
		require.NotNil(t, ve, doc)
		for _, p := range append(ve.Problems, ve.Warnings...) {
			assert.NotEmpty(t, p.Section, "%s: %s", doc, p)
		}
	}
}
