package publish

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSameURLComparesNormalizedOrigins: a link the page already has under
// another spelling of its own origin is the same link, so the kit does not
// add it twice; a relative reference compares by its path alone.
func TestSameURLComparesNormalizedOrigins(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://tea.example/llms.txt", "https://tea.example/llms.txt", true},
		{"https://TEA.example./llms.txt", "https://tea.example/llms.txt", true},
		{"https://tea.example:443/llms.txt", "https://tea.example/llms.txt", true},
		{"/llms.txt", "/llms.txt", true},
		{"https://tea.example:8443/llms.txt", "https://tea.example/llms.txt", false},
		{"https://other.example/llms.txt", "https://tea.example/llms.txt", false},
		{"https://tea.example/index.md", "https://tea.example/llms.txt", false},
		{"/llms.txt", "https://tea.example/llms.txt", false},
	} {
		assert.Equal(t, tc.same, sameURL(tc.a, tc.b), "%s ~ %s", tc.a, tc.b)
	}
}
