package readiness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatalogueIsConsistent(t *testing.T) {
	weights := map[SectionID]float64{}
	ids := map[string]bool{}
	scored, optional := 0, 0
	for _, c := range Catalogue() {
		assert.False(t, ids[c.ID], "duplicate id %s", c.ID)
		ids[c.ID] = true
		assert.Regexp(t, `^[a-z0-9]+(_[a-z0-9]+)*$`, c.ID)
		_, ok := sectionOf(c.Section)
		assert.True(t, ok, "check %s has unknown section %q", c.ID, c.Section)
		weights[c.Section] += c.Weight
		if c.Optional {
			optional++
			assert.Zero(t, c.Weight, c.ID)
		} else {
			scored++
			assert.Positive(t, c.Weight, c.ID)
		}
	}
	assert.Equal(t, 27, scored, "scored checks")
	assert.Equal(t, 8, optional, "optional conventions")
	var total float64
	for _, s := range Sections() {
		assert.Equal(t, s.Points, weights[s.ID], "weights of section %s add up to its points", s.ID)
		total += s.Points
	}
	assert.Equal(t, 100.0, total)
	reqs := Requirements()
	require.Len(t, reqs, 10)
	for _, r := range reqs {
		for _, id := range r.Checks {
			spec, ok := specOf(id)
			require.True(t, ok, "%s names unknown check %s", r.ID, id)
			assert.Equal(t, r.ID, spec.Requirement, "check %s", id)
		}
	}
	assert.Len(t, reqs[9].Checks, 2, "R10 needs both of its checks")
}

// catalogueIDs lists the id of every catalogue check, in catalogue order.
func catalogueIDs() []string {
	var ids []string
	for _, c := range Catalogue() {
		ids = append(ids, c.ID)
	}
	return ids
}

// TestEveryCatalogueCheckIsRegistered guards the promise of the package doc:
// every check of the catalogue has its code, so every scan runs them all.
func TestEveryCatalogueCheckIsRegistered(t *testing.T) {
	for _, id := range catalogueIDs() {
		d, ok := registry[id]
		if assert.True(t, ok, "check %s has no check_%s.go", id, id) {
			assert.Equal(t, id, d.id)
			assert.NotNil(t, d.run, id)
		}
	}
	assert.Len(t, registry, len(catalogueTable), "registry holds only catalogue checks")
}
