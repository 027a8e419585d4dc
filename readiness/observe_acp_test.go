package readiness

import (
	"net/http"
	"testing"
)

// acpCases are the cases of the acp observation.
func acpCases(t testing.TB) []observationCase {
	return []observationCase{
		{name: "acp: a document", id: "acp",
			paths: map[string]http.HandlerFunc{"/.well-known/acp.json": text("application/json", `{"protocol": "acp", "version": "2026-01-30", "checkout": "https://shop.example/acp/checkout_sessions"}`)},
			want:  ObservationFound},
		{name: "acp: absent", id: "acp", want: ObservationAbsent},
		{name: "acp: not an object", id: "acp",
			paths: map[string]http.HandlerFunc{"/.well-known/acp.json": text("application/json", `[1, 2]`)},
			want:  ObservationInvalid},
		{name: "acp: endless", id: "acp",
			paths: map[string]http.HandlerFunc{"/.well-known/acp.json": endless("application/json", `{"a": 1, `)},
			want:  ObservationUnverified},
	}
}
