package readiness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every scored check has a fix for every verdict but pass and optional,
// and none for those two; not_applicable has one for every check that can
// be not applicable.
func TestFixes(t *testing.T) {
	for _, c := range Catalogue() {
		if c.Optional {
			assert.Empty(t, fixFor(c.ID, VerdictOptional), c.ID)
			continue
		}
		f, ok := fixes[c.ID]
		if !assert.True(t, ok, "no fix for %s", c.ID) {
			continue
		}
		assert.Empty(t, fixFor(c.ID, VerdictPass), c.ID)
		for _, v := range []Verdict{VerdictFail, VerdictPartial, VerdictUnverified} {
			assert.NotEmpty(t, fixFor(c.ID, v), "%s %s", c.ID, v)
		}
		assert.Equal(t, f.NA, fixFor(c.ID, VerdictNotApplicable))
	}
	for id := range fixes {
		_, ok := specOf(id)
		assert.True(t, ok, "fix for unknown check %s", id)
	}
}
