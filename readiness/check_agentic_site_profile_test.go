package readiness

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// agenticSiteProfileEdges are the edge cases of the agentic_site_profile check.
func agenticSiteProfileEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "a foreign-format agentic.json",
			paths: map[string]http.HandlerFunc{"/agentic.json": text("application/json", `{"version": "1", "agents": [{"name": "a"}], "site": "https://shop.example/"}`)},
			want:  map[string]Verdict{"agentic_site_profile": VerdictOptional},
			check: func(t *testing.T, r *Report) {
				notes := strings.Join(checkByID(r, "agentic_site_profile").Receipt.Notes, "\n")
				assert.Contains(t, notes, "not an Agentic Site Profile")
				assert.NotContains(t, notes, "schema-")
			},
		},
	}
}
