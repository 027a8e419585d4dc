package readiness

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every check of the catalogue links the published texts it implements,
// each an https URL with a title, and no entry is outside the catalogue.
func TestEveryCheckHasPublishedTexts(t *testing.T) {
	for _, c := range Catalogue() {
		refs := specRefs[c.ID]
		assert.NotEmpty(t, refs, c.ID)
		for _, r := range refs {
			assert.True(t, strings.HasPrefix(r.URL, "https://"), "%s: %s", c.ID, r.URL)
			assert.NotEmpty(t, r.Title)
		}
	}
	assert.Len(t, specRefs, len(Catalogue()), "no entry outside the catalogue")
}
