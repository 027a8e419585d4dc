package agentic

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}

func TestParseSiteSpecExample(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/agentic-site-example.json"))
	require.NoError(t, err)
	assert.Equal(t, "https://service.example", s.Origin)
	assert.Equal(t, "Example service", s.Name)
	require.Len(t, s.Resources, 1)
	assert.Equal(t, Resource{Kind: KindDocumentation, URL: "https://service.example/docs", Source: "https://service.example/docs", Availability: AvailabilityRetrieved}, s.Resources[0])
	assert.Empty(t, s.APIs)
}

func TestParseSiteValidCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.json")
	require.NoError(t, err)
	golden, err := filepath.Glob("testdata/golden/*.json")
	require.NoError(t, err)
	files = append(files, golden...)
	require.GreaterOrEqual(t, len(files), 8)
	docs := map[string][]byte{}
	for _, f := range files {
		docs[filepath.Base(f)] = readFile(t, f)
	}
	generated, _ := generatedCorpus(t)
	for name, b := range generated {
		docs["generated/"+name+".json"] = b
	}
	for name, data := range docs {
		t.Run(name, func(t *testing.T) {
			s, err := ParseSite(data)
			require.NoError(t, err)
			// The typed value survives a round trip through the JS-style writer.
			out, err := s.JSON()
			require.NoError(t, err)
			s2, err := ParseSite(out)
			require.NoError(t, err)
			assert.Equal(t, s, s2)
		})
	}
}

// TestParseSiteInvalidCorpus: each file in testdata/invalid is named
// RULE__case.json and must yield that rule and no other.
func TestParseSiteInvalidCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.json")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 60)
	docs := map[string][]byte{}
	for _, f := range files {
		docs[strings.TrimSuffix(filepath.Base(f), ".json")] = readFile(t, f)
	}
	_, generated := generatedCorpus(t)
	for name, b := range generated {
		require.NotContains(t, docs, name, "generated case %s is also committed", name)
		docs[name] = b
	}
	for name, data := range docs {
		rule, _, ok := strings.Cut(name, "__")
		require.True(t, ok, "corpus case %s is not named RULE__case", name)
		t.Run(name, func(t *testing.T) {
			s, err := ParseSite(data)
			assert.Nil(t, s)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Equal(t, []string{rule}, ve.Rules(), "problems: %v", ve.Problems)
			for _, p := range ve.Problems {
				assert.NotEmpty(t, p.Message)
				assert.True(t, p.Pointer == "" || strings.HasPrefix(p.Pointer, "/"), "pointer %q", p.Pointer)
			}
		})
	}
}

func TestParseSiteReportsEveryProblem(t *testing.T) {
	doc := `{"agentic":"1.1.0","type":"site","origin":"http://shop.example:8080","name":"","description":"d",
	"resources":[{"kind":"openapi","url":"https://127.0.0.1/a?x","source":"https://localhost/","availability":"linked","x":1}],
	"apis":[{"document":"https://shop.example/o.json","openapi":"3.1.0","operations":[{"method":"GET","path":"a"},{"method":"GET","path":"a"}]}]}`
	_, err := ParseSite([]byte(doc))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	want := map[string]string{
		"/origin":                   "url-https",
		"/name":                     "schema-minLength",
		"/resources":                "retrieved-required",
		"/resources/0/x":            "schema-additionalProperties",
		"/resources/0/url":          "url-private-address",
		"/resources/0/source":       "url-private-address",
		"/apis/0/document":          "document-binding",
		"/apis/0/operations/0/path": "path-form",
		"/apis/0/operations/1":      "operation-duplicate",
	}
	got := map[string][]string{}
	for _, p := range ve.Problems {
		got[p.Pointer] = append(got[p.Pointer], p.Rule)
	}
	for ptr, rule := range want {
		assert.Contains(t, got[ptr], rule, "pointer %s", ptr)
	}
	assert.Contains(t, got["/origin"], "url-port")
	assert.Contains(t, got["/resources/0/url"], "url-query")
	assert.Contains(t, err.Error(), "agentic: invalid site profile: ")
	// Problems are sorted by pointer.
	for i := 1; i < len(ve.Problems); i++ {
		assert.False(t, pointerLess(ve.Problems[i].Pointer, ve.Problems[i-1].Pointer), "order at %d", i)
	}
}

func TestParseSiteRefusesActionProfile(t *testing.T) {
	_, err := ParseSite(readFile(t, "testdata/action/tickets.json"))
	require.ErrorIs(t, err, ErrActionProfile)
	var ve *ValidationError
	assert.False(t, errors.As(err, &ve), "an action profile is one clear error, not a problem list")
}

func TestParseSiteNotObject(t *testing.T) {
	for _, doc := range []string{`[]`, `"site"`, `null`, `1`} {
		t.Run(doc, func(t *testing.T) {
			_, err := ParseSite([]byte(doc))
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, []string{"schema-type"}, ve.Rules())
		})
	}
}

func TestSiteValidateHandBuilt(t *testing.T) {
	s := &Site{Agentic: Version, Type: TypeSite, Origin: "https://a.example", Name: "A", Description: "B",
		Resources: []Resource{{Kind: KindWebsite, URL: "https://a.example/", Source: "https://a.example/", Availability: AvailabilityRetrieved}},
		APIs:      []API{}}
	require.NoError(t, s.Validate())
	s.Name = "bad \xff"
	var ve *ValidationError
	require.ErrorAs(t, s.Validate(), &ve)
	assert.Equal(t, []string{RuleStringUTF8}, ve.Rules())
	s.Name = "ok"
	s.APIs = nil // written as [] by the JS-style writer
	assert.NoError(t, s.Validate())
	var nilSite *Site
	assert.Error(t, nilSite.Validate())
}

func TestSchemaJSONIsPinned(t *testing.T) {
	b := schemaJSON()
	assert.Contains(t, string(b), `"$id": "`+SchemaURI+`"`)
	b[0] = 'x'
	assert.NotEqual(t, b[0], schemaJSON()[0], "schemaJSON returns a copy")
}

// TestSchemaMatchesAgreementCopy checks that internal/schema's agreement
// tests, which check its fast checker on this schema, test this schema.
func TestSchemaMatchesAgreementCopy(t *testing.T) {
	cp := readFile(t, filepath.Join("..", "internal", "schema", "testdata", "agreement", "agentic.schema.json"))
	assert.Equal(t, string(siteSchemaJSON), string(cp), "copy schema/site-1.1.schema.json to internal/schema/testdata/agreement/agentic.schema.json and add documents for the change to agentic.docs.json")
}

// A Site passed or stored by value keeps the reference writer's member
// order and JavaScript escaping: MarshalJSON has a value receiver. (An
// encoder that escapes HTML, json.Marshal's default, still rewrites "<",
// ">", "&", U+2028 and U+2029 afterwards; one with SetEscapeHTML(false)
// keeps the bytes.)
func TestSiteMarshalJSONByValue(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/golden/hostile-strings.json"))
	require.NoError(t, err)
	want := s.compact() // the reference writer's compact form

	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	e.SetEscapeHTML(false)
	require.NoError(t, e.Encode(map[string]Site{"a": *s}))
	assert.Equal(t, `{"a":`+string(want)+"}\n", enc.String())

	var htmlEscaped bytes.Buffer
	json.HTMLEscape(&htmlEscaped, want)
	for name, v := range map[string]any{"value": *s, "pointer": s, "slice of values": []Site{*s}} {
		got, err := json.Marshal(v)
		require.NoError(t, err, name)
		got = bytes.TrimSuffix(bytes.TrimPrefix(got, []byte("[")), []byte("]"))
		assert.Equal(t, htmlEscaped.String(), string(got), name)
	}
}
