package readiness

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// authMDCases are the cases of the auth_md observation.
func authMDCases(t testing.TB) []observationCase {
	return []observationCase{
		{name: "auth.md: found", id: "auth_md",
			paths: map[string]http.HandlerFunc{"/auth.md": text("text/markdown", "# auth.md\n\nAgents register at https://shop.example/agent/auth; see /.well-known/oauth-protected-resource.\n")},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "pointing to protected-resource metadata")
			}},
		{name: "auth.md: absent", id: "auth_md", want: ObservationAbsent},
		{name: "auth.md: no title, wrong label", id: "auth_md",
			paths: map[string]http.HandlerFunc{"/auth.md": text("application/octet-stream", "Agents: write to us.\n")},
			want:  ObservationInvalid},
		{name: "auth.md: an HTML page is not auth.md", id: "auth_md",
			paths: map[string]http.HandlerFunc{"/auth.md": text("text/html", "<!DOCTYPE html><html><h1>Sign in</h1></html>")},
			want:  ObservationAbsent},
		{name: "auth.md: endless", id: "auth_md",
			paths: map[string]http.HandlerFunc{"/auth.md": endless("text/markdown", "# auth.md\n")},
			want:  ObservationUnverified},
		{name: "auth.md: over the observations' cap, under the scan's", id: "auth_md",
			paths: map[string]http.HandlerFunc{"/auth.md": text("text/markdown", "# auth.md\n\n"+strings.Repeat("Agents register at /agent/auth.\n", obsMaxBody/32+1))},
			want:  ObservationUnverified,
			check: func(t *testing.T, o Observation) {
				assert.Equal(t, "https://shop.example/auth.md: no answer: response too large", o.Receipt.Received)
			}},
	}
}
