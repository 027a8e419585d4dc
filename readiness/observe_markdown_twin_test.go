package readiness

import (
	"net/http"
	"testing"
)

// markdownTwinCases are the cases of the markdown_twin observation.
func markdownTwinCases(t testing.TB) []observationCase {
	return []observationCase{
		{name: "twin: index.md", id: "markdown_twin",
			paths: map[string]http.HandlerFunc{"/index.md": text("text/markdown; charset=utf-8", "# Example Shop\n\nOutdoor gear.\n")},
			want:  ObservationFound},
		{name: "twin: absent", id: "markdown_twin", want: ObservationAbsent},
		{name: "twin: Markdown with another label", id: "markdown_twin",
			paths: map[string]http.HandlerFunc{"/index.md": text("application/octet-stream", "# Example Shop\n")},
			want:  ObservationInvalid},
		{name: "twin: endless", id: "markdown_twin",
			paths: map[string]http.HandlerFunc{"/index.md": endless("text/markdown", "# Shop\n")},
			want:  ObservationUnverified},
	}
}
