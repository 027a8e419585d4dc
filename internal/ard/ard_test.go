package ard

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The specification's conformance examples: the basic catalog has two
// entries without representativeQueries (warnings only), the others none.
func TestConformanceExamples(t *testing.T) {
	tests := []struct {
		file     string
		entries  int
		warnings []string
	}{
		{"ai-catalog.json", 4, []string{"/entries/2/representativeQueries", "/entries/3/representativeQueries"}},
		{"fda-ndc-catalog.json", 1, nil},
		{"local-business-catalog.json", 2, nil},
		{"noaa-weather-catalog.json", 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile("testdata/" + tc.file)
			require.NoError(t, err)
			r := Validate(b)
			assert.Equal(t, tc.entries, r.Entries)
			assert.Equal(t, "1.0", r.SpecVersion)
			assert.Zero(t, r.Errors(), "%v", r.Findings)
			var got []string
			for _, f := range r.Findings {
				assert.True(t, f.Warning)
				got = append(got, f.Pointer)
			}
			assert.Equal(t, tc.warnings, got)
		})
	}
}

func entry(extra string) string {
	e := `"identifier": "urn:air:google:search:web-search", "displayName": "Web Search", "type": "application/mcp-server-card+json", "url": "https://example.com/api", "representativeQueries": ["query 1", "query 2"]`
	if extra != "" {
		e += ", " + extra
	}
	return `{` + e + `}`
}

func catalog(entries ...string) string {
	return `{"specVersion": "1.0", "entries": [` + strings.Join(entries, ", ") + `]}`
}

// The rules, case by case, as Lighthouse's port of the conformance test
// tests them, each finding at its pointer.
func TestRules(t *testing.T) {
	tests := []struct {
		name, doc string
		errors    []string // "pointer: part of the message"
		warnings  []string
	}{
		{name: "root not an object", doc: `"just a string"`, errors: []string{"/specVersion: Missing required 'specVersion' root property", "/entries: Missing required 'entries' array", ": JSON Schema validation failed"}},
		{name: "no specVersion", doc: `{"entries": []}`, errors: []string{"/specVersion: Missing required 'specVersion'"}},
		{name: "an unrecognised specVersion: the schema's enum refuses it, the rule warns", doc: `{"specVersion": "2.0", "entries": [` + entry("") + `]}`,
			errors: []string{"/specVersion: JSON Schema validation failed"}, warnings: []string{"/specVersion: Unrecognized 'specVersion': 2.0"}},
		{name: "collections (ADR-0003)", doc: `{"specVersion": "1.0", "collections": [], "entries": []}`, errors: []string{"/collections: Deprecated field check"}},
		{name: "entries missing", doc: `{"specVersion": "1.0"}`, errors: []string{"/entries: Missing required 'entries' array"}},
		{name: "entries not an array", doc: `{"specVersion": "1.0", "entries": {}}`, errors: []string{"/entries: 'entries' must be a JSON array"}},
		{name: "an entry not an object", doc: catalog(`"x"`), errors: []string{"/entries/0: An entry must be a JSON object"}},
		{name: "no identifier", doc: catalog(`{"displayName": "W", "type": "application/mcp-server-card+json", "url": "https://e.example/", "representativeQueries": ["a", "b"]}`),
			errors: []string{"/entries/0/identifier: Missing required 'identifier'"}},
		{name: "an identifier that is no urn:air URN", doc: catalog(strings.Replace(entry(""), "urn:air:google:search:web-search", "invalid-urn-format", 1)),
			errors: []string{"/entries/0/identifier: Identifier 'invalid-urn-format' does not match RFC 8141 URN pattern"}},
		{name: "a publisher and a name, no namespace", doc: catalog(strings.Replace(entry(""), "urn:air:google:search:web-search", "urn:air:example.com:weather", 1))},
		{name: "no displayName and no type", doc: catalog(`{"identifier": "urn:air:e.example:x", "url": "https://e.example/", "representativeQueries": ["a", "b"]}`),
			errors: []string{"/entries/0/displayName: Missing required 'displayName'", "/entries/0/type: Missing required 'type'"}},
		{name: "a non-standard media type", doc: catalog(strings.Replace(entry(""), "application/mcp-server-card+json", "application/x-custom", 1)),
			warnings: []string{"/entries/0/type: Media type 'application/x-custom' is not one of the standard discovery types"}},
		{name: "both url and data", doc: catalog(entry(`"data": {}`)), errors: []string{"/entries/0: Constraint violation: both 'url' and 'data'"}},
		{name: "neither url nor data", doc: catalog(`{"identifier": "urn:air:e.example:x", "displayName": "X", "type": "application/mcp-server-card+json", "representativeQueries": ["a", "b"]}`),
			errors: []string{"/entries/0: Constraint violation: neither 'url' nor 'data'"}},
		{name: "inline data", doc: catalog(`{"identifier": "urn:air:e.example:x", "displayName": "X", "type": "application/mcp-server-card+json", "data": {"name": "x"}, "representativeQueries": ["a", "b"]}`)},
		{name: "no representativeQueries", doc: catalog(`{"identifier": "urn:air:e.example:x", "displayName": "X", "type": "application/mcp-server-card+json", "url": "https://e.example/"}`),
			warnings: []string{"/entries/0/representativeQueries: Missing 'representativeQueries'"}},
		{name: "representativeQueries not an array", doc: catalog(strings.Replace(entry(""), `["query 1", "query 2"]`, `"q"`, 1)),
			errors: []string{"/entries/0/representativeQueries: 'representativeQueries' must be an array of strings"}},
		{name: "one query: the schema's minItems refuses it, the rule warns", doc: catalog(strings.Replace(entry(""), `["query 1", "query 2"]`, `["q"]`, 1)),
			errors: []string{"/entries/0/representativeQueries: JSON Schema validation failed"}, warnings: []string{"/entries/0/representativeQueries: 'representativeQueries' array has size 1"}},
		{name: "a query that is no string", doc: catalog(strings.Replace(entry(""), `["query 1", "query 2"]`, `["q", 7]`, 1)),
			errors: []string{"/entries/0/representativeQueries/1: Query is not a string"}},
		{name: "a trustManifest that is no object", doc: catalog(entry(`"trustManifest": []`)), errors: []string{"/entries/0/trustManifest: 'trustManifest' must be a JSON object"}},
		{name: "a trustManifest without identity", doc: catalog(entry(`"trustManifest": {"identityType": "did"}`)),
			errors: []string{"/entries/0/trustManifest/identity: 'trustManifest' is missing required 'identity' field"}},
		{name: "a trustManifest with identity", doc: catalog(entry(`"trustManifest": {"identity": "did:web:example.com", "identityType": "did"}`))},
		{name: "an unknown root member", doc: `{"specVersion": "1.0", "entries": [], "extra": 1}`, errors: []string{"/extra: JSON Schema validation failed"}},
		{name: "a url that is no URI", doc: catalog(strings.Replace(entry(""), "https://example.com/api", "not a uri", 1)), errors: []string{"/entries/0/url: JSON Schema validation failed"}},
		{name: "malformed JSON", doc: `{"specVersion": "1.0",`, errors: []string{": Malformed JSON in manifest"}},
		{name: "too deep", doc: strings.Repeat("[", 10000) + strings.Repeat("]", 10000), errors: []string{": Malformed JSON in manifest"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Validate([]byte(tc.doc))
			var errs, warns []string
			for _, f := range r.Findings {
				if f.Warning {
					warns = append(warns, f.Pointer+": "+f.Message)
				} else {
					errs = append(errs, f.Pointer+": "+f.Message)
				}
			}
			assert.Len(t, errs, len(tc.errors), "%q", errs)
			assert.Len(t, warns, len(tc.warnings), "%q", warns)
			for _, want := range tc.errors {
				assert.True(t, hasPrefix(errs, want), "%q in %q", want, errs)
			}
			for _, want := range tc.warnings {
				assert.True(t, hasPrefix(warns, want), "%q in %q", want, warns)
			}
			assert.Equal(t, len(tc.errors), r.Errors())
			if len(r.Findings) > 0 && len(tc.errors) > 0 {
				assert.False(t, r.Findings[0].Warning, "errors come first")
			}
		})
	}
}

func hasPrefix(list []string, p string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func TestBounds(t *testing.T) {
	es := make([]string, MaxEntries+10)
	for i := range es {
		es[i] = fmt.Sprintf(`{"identifier": "urn:air:e.example:x%d", "displayName": "X", "type": "application/x-other", "url": "https://e.example/"}`, i)
	}
	r := Validate([]byte(catalog(es...)))
	assert.Equal(t, MaxEntries+10, r.Entries)
	assert.Equal(t, MaxEntries, r.Types["application/x-other"], "entries past the bound are counted, not read")
	assert.Contains(t, r.Findings[0].String(), "warning /entries: 1010 entries: the first 1000 were read")
}

func FuzzValidate(f *testing.F) {
	for _, name := range []string{"ai-catalog.json", "noaa-weather-catalog.json"} {
		b, err := os.ReadFile("testdata/" + name)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte(catalog(entry(`"trustManifest": 7, "data": null`))))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := Validate(body)
		if json.Valid(body) && len(r.Findings) == 0 {
			assert.Equal(t, "1.0", r.SpecVersion, "a catalog without findings is of specVersion 1.0")
		}
		for i, f := range r.Findings {
			if i > 0 && r.Findings[i-1].Warning {
				assert.True(t, f.Warning, "errors come first")
			}
		}
	})
}
