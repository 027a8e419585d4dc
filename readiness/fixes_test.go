package readiness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Every scored check has a fix for fail, partial and unverified. It has
// none for pass, optional and not_applicable: a check that cannot apply
// left the denominator. A "fix" that is not one ("Nothing on the site needs
// sign-in.") is none. Compose refuses a fix on not_applicable.
func TestFixes(t *testing.T) {
	for _, c := range Catalogue() {
		if c.Optional {
			assert.Empty(t, fixFor(c.ID, VerdictOptional), c.ID)
			continue
		}
		if !assert.NotEmpty(t, fixOf(c.ID), "no fix for %s", c.ID) {
			continue
		}
		assert.Empty(t, fixFor(c.ID, VerdictPass), c.ID)
		for _, v := range []Verdict{VerdictFail, VerdictPartial, VerdictUnverified} {
			assert.NotEmpty(t, fixFor(c.ID, v), "%s %s", c.ID, v)
		}
		assert.Empty(t, fixFor(c.ID, VerdictNotApplicable), c.ID)
		assert.Equal(t, fixFor(c.ID, VerdictFail), c.Fix(), "CheckSpec.Fix is the fix of a fail: %s", c.ID)
	}
	for _, c := range Catalogue() {
		if c.Optional {
			assert.Empty(t, c.Fix(), "an optional convention has no fix: %s", c.ID)
		}
	}
	assert.Empty(t, CheckSpec{ID: "no_such_check"}.Fix())
}

// A scan of a site with defects gives a fix on every check that leaves
// work, and none on the others.
func TestScanCarriesFixes(t *testing.T) {
	r, _ := scanSite(t, &testSite{host: "broken.example", faults: []siteFault{noVary, spaShellOnly, sitemapIsHTML, brokenJSONLD}}, 3*time.Second, nil)
	worked := 0
	for _, c := range r.Checks {
		if c.Verdict.leavesWork() {
			worked++
			assert.NotEmpty(t, c.Fix, "%s (%s) has no fix", c.ID, c.Verdict)
		} else {
			assert.Empty(t, c.Fix, c.ID)
		}
	}
	assert.Greater(t, worked, 3, "the defects leave work")
}
