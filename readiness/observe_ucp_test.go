package readiness

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ucpCases are the cases of the ucp observation.
func ucpCases(t testing.TB) []observationCase {
	return []observationCase{
		{name: "ucp: a profile", id: "ucp",
			paths: map[string]http.HandlerFunc{"/.well-known/ucp": text("application/json", `{"ucp": {"version": "2026-01-11", "services": {"dev.ucp.shopping": {"version": "2026-01-11", "rest": {"endpoint": "https://shop.example/ucp"}}}, "capabilities": [{"name": "dev.ucp.shopping.checkout", "version": "2026-01-11"}]}}`)},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) { assert.Contains(t, o.Receipt.Received, "of UCP version 2026-01-11") }},
		{name: "ucp: absent", id: "ucp", want: ObservationAbsent},
		{name: "ucp: no ucp object", id: "ucp",
			paths: map[string]http.HandlerFunc{"/.well-known/ucp": text("application/json", `{"version": "2026-01-11"}`)},
			want:  ObservationInvalid},
		{name: "ucp: nested past any sense", id: "ucp",
			paths: map[string]http.HandlerFunc{"/.well-known/ucp": text("application/json", strings.Repeat("[", 100000)+strings.Repeat("]", 100000))},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "not valid JSON")
			}},
	}
}
