package agentsignup

import (
	"testing"

	"github.com/agentweb/agentweb/internal/problem/problemtest"
)

// TestEveryRuleCitesASection: every Rule constant of the package has a
// section of its specification in ruleSections, and the problems of each
// layer (strict JSON, schema, semantic rules) carry it.
func TestEveryRuleCitesASection(t *testing.T) {
	problemtest.EveryRuleCitesASection(t, ".", "ruleSections", func(b []byte) error {
		_, err := Parse(b)
		return err
	})
}
