package readiness

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ardExample is the ARD specification's basic conformance example.
func ardExample(t testing.TB) string {
	b, err := os.ReadFile("../internal/ard/testdata/ai-catalog.json")
	require.NoError(t, err)
	return string(b)
}

// aiCatalogCases are the cases of the ai_catalog observation.
func aiCatalogCases(t testing.TB) []observationCase {
	return []observationCase{
		{name: "catalog: the specification's basic example at the well-known location", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/.well-known/ai-catalog.json": text("application/json", ardExample(t))},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "found at https://shop.example/.well-known/ai-catalog.json (through the well-known location): an AI catalog of 4 entries (1 application/a2a-agent-card+json, 1 application/ai-catalog+json, 2 application/mcp-server-card+json), with 2 warnings")
				assert.Equal(t, "warning /entries/2/representativeQueries: Missing 'representativeQueries'. 2 to 5 queries are recommended for vector index embedding.", o.Receipt.Notes[0])
			}},
		{name: "catalog: through a robots.txt Agentmap line, which Lighthouse's robots-txt audit fails", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{
				"/robots.txt":          text("text/plain", "User-agent: *\nAllow: /\nagentmap: /agents/catalog.json\n"),
				"/agents/catalog.json": text("application/json", ardExample(t)),
			},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "found at https://shop.example/agents/catalog.json (through the robots.txt Agentmap)")
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, "advertised by the robots.txt Agentmap: https://shop.example/agents/catalog.json")
				assert.Contains(t, notes, `robots.txt line 3: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "agentmap" as unknown; to keep that audit clean, advertise the AI catalog with a Link`)
			}},
		{name: "catalog: through a <link> element, before a Link header naming another", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{
				"/":         withHeaders(text("text/html", strings.Replace(signalsPage, "</head>", `<link rel="alternate AI-Catalog" href="/c/1.json"></head>`, 1)), "Link", `</c/2.json>; rel="ai-catalog"`),
				"/c/1.json": text("application/json", ardExample(t)),
			},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, `found at https://shop.example/c/1.json (through the <link rel="ai-catalog">)`)
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, `advertised by the Link: rel="ai-catalog" header: https://shop.example/c/2.json`)
				assert.Contains(t, notes, "the signals name different catalogs")
				assert.Len(t, o.Receipt.Requests, 1, "only the first is fetched")
			}},
		{name: "catalog: through a Link header", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{
				"/":         withHeaders(text("text/html", signalsPage), "Link", `</c/2.json>; rel="ai-catalog"`),
				"/c/2.json": text("application/json", `{"specVersion": "1.0", "entries": []}`),
			},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, `an AI catalog of 0 entries`)
			}},
		{name: "catalog: advertised, but not there", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/": withHeaders(text("text/html", signalsPage), "Link", `</c/9.json>; rel="ai-catalog"`)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, `advertised by the Link: rel="ai-catalog" header, but https://shop.example/c/9.json answered 404`)
			}},
		{name: "catalog: errors, each at its pointer", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/.well-known/ai-catalog.json": text("application/json", `{"specVersion": "1.0", "collections": [], "entries": [{"identifier": "acme-assistant", "displayName": "A", "type": "application/x", "url": "https://a.example/", "data": {}}]}`)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "with 3 errors and 2 warnings: an AI catalog of 1 entry")
				notes := strings.Join(o.Receipt.Notes, "\n")
				for _, want := range []string{"error /collections: Deprecated field check", "error /entries/0/identifier: Identifier 'acme-assistant' does not match",
					"error /entries/0: Constraint violation: both 'url' and 'data'", "warning /entries/0/type: Media type 'application/x'", "warning /entries/0/representativeQueries: Missing"} {
					assert.Contains(t, notes, want)
				}
			}},
		{name: "catalog: absent", id: "ai_catalog", want: ObservationAbsent,
			check: func(t *testing.T, o Observation) {
				assert.Equal(t, "absent (https://shop.example/.well-known/ai-catalog.json: 404), and advertised nowhere", o.Receipt.Received)
			}},
		{name: "catalog: a page answered 200 at the well-known location", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/.well-known/ai-catalog.json": text("text/html", signalsPage)},
			want:  ObservationAbsent,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "Lighthouse 13.5.0's ard-schema audit takes any 200 answer")
			}},
		{name: "catalog: wrong types", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/.well-known/ai-catalog.json": text("application/json", `{"specVersion": 1, "entries": "x"}`)},
			want:  ObservationInvalid},
		{name: "catalog: deep", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/.well-known/ai-catalog.json": text("application/json", `{"entries": `+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+`}`)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) { assert.Contains(t, o.Receipt.Notes[0], "Malformed JSON") }},
		{name: "catalog: huge", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/.well-known/ai-catalog.json": text("application/json", `{"specVersion": "1.0", "entries": [`+strings.Repeat(`{},`, 100000)+`{}]}`)},
			want:  ObservationUnverified,
			check: func(t *testing.T, o Observation) { assert.Contains(t, o.Receipt.Received, "response too large") }},
		{name: "catalog: endless", id: "ai_catalog",
			paths: map[string]http.HandlerFunc{"/.well-known/ai-catalog.json": endless("application/json", `{"entries": [`)},
			want:  ObservationUnverified},
	}
}
