package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/strictjson"
)

const testURL = "https://schemas.agentweb.invalid/test.json"

func decode(t testing.TB, s string) any {
	t.Helper()
	v, err := strictjson.Decode([]byte(s))
	require.NoError(t, err)
	return v
}

func TestCompileRefusesLoading(t *testing.T) {
	dir := t.TempDir()
	local := filepath.Join(dir, "other.json")
	require.NoError(t, os.WriteFile(local, []byte(`{"type":"string"}`), 0o600))

	tests := []struct {
		name string
		src  string
	}{
		{"remote https ref", `{"$ref":"https://example.com/schema.json"}`},
		{"remote http ref", `{"properties":{"a":{"$ref":"http://example.com/a.json#/x"}}}`},
		{"relative ref", `{"$ref":"other.json"}`},
		{"file ref", `{"$ref":"file://` + filepath.ToSlash(local) + `"}`},
		{"file ref via id", `{"$id":"file://` + filepath.ToSlash(dir) + `/root.json","$ref":"other.json"}`},
		{"unknown $schema", `{"$schema":"https://example.com/my-meta-schema","type":"object"}`},
		{"dynamic ref to remote", `{"$dynamicRef":"https://example.com/s.json#meta"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile(testURL, []byte(tc.src))
			assert.Nil(t, s)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrRemoteLoad)
			assert.NotErrorIs(t, err, ErrInvalidSchema)
			assert.Contains(t, err.Error(), "schema: ")
		})
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, url, src string
	}{
		{"relative url", "test.json", `{}`},
		{"url with fragment", testURL + "#x", `{}`},
		{"not json", testURL, `{`},
		{"duplicate member", testURL, `{"type":"object","type":"string"}`},
		{"bad keyword value", testURL, `{"type":12}`},
		{"bad regex", testURL, `{"pattern":"("}`},
		{"dangling local ref", testURL, `{"$ref":"#/$defs/missing"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile(tc.url, []byte(tc.src))
			assert.Nil(t, s)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalidSchema)
		})
	}
}

func TestCompileAcceptsBuiltInDrafts(t *testing.T) {
	for _, meta := range []string{
		"https://json-schema.org/draft/2020-12/schema",
		"https://json-schema.org/draft/2019-09/schema",
		"http://json-schema.org/draft-07/schema#",
	} {
		t.Run(meta, func(t *testing.T) {
			s, err := Compile(testURL, []byte(`{"$schema":"`+meta+`","type":"string"}`))
			require.NoError(t, err)
			assert.Nil(t, s.Validate("x"))
			assert.Len(t, s.Validate(decode(t, `1`)), 1)
		})
	}
}

func TestMustCompilePanics(t *testing.T) {
	assert.Panics(t, func() { MustCompile(testURL, []byte(`{"$ref":"https://example.com/x"}`)) })
	assert.NotPanics(t, func() { MustCompile(testURL, []byte(`{}`)) })
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		doc    string
		want   []Violation
	}{
		{"valid", `{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`, `{"a":"x"}`, nil},
		{"required names each member",
			`{"type":"object","required":["name","url","a/b"]}`, `{"name":"x"}`,
			[]Violation{
				{"/a~1b", "required", `required member "a/b" is missing`},
				{"/url", "required", `required member "url" is missing`},
			}},
		{"nested required",
			`{"properties":{"links":{"type":"array","items":{"required":["href"]}}}}`, `{"links":[{"href":"/"},{},{}]}`,
			[]Violation{
				{"/links/1/href", "required", `required member "href" is missing`},
				{"/links/2/href", "required", `required member "href" is missing`},
			}},
		{"additionalProperties one per member",
			`{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"z":2,"b c":3,"it's \"q\"":4}`,
			[]Violation{
				{`/b c`, "additionalProperties", `member "b c" is not allowed here`},
				{`/it's "q"`, "additionalProperties", `member "it's \"q\"" is not allowed here`},
				{"/z", "additionalProperties", `member "z" is not allowed here`},
			}},
		{"name ending in a backslash keeps the library message",
			`{"required":["a\\"]}`, `{}`,
			[]Violation{{"", "required", `missing properties: 'a\'`}}},
		{"additionalProperties schema",
			`{"additionalProperties":{"type":"string"}}`, `{"a":"x","b":2}`,
			[]Violation{{"/b", "type", "expected string, but got number"}}},
		{"type", `{"type":"string"}`, `true`, []Violation{{"", "type", "expected string, but got boolean"}}},
		{"enum", `{"enum":["a","b"]}`, `"c"`, []Violation{{"", "enum", `value must be one of "a", "b"`}}},
		{"const", `{"const":"1.1"}`, `"1.0"`, []Violation{{"", "const", `value must be "1.1"`}}},
		{"const object", `{"const":{"a":1}}`, `{"a":2}`, []Violation{{"", "const", "value does not equal the required constant"}}},
		{"maxLength", `{"maxLength":3}`, `"abcd"`, []Violation{{"", "maxLength", "length must be <= 3, but got 4"}}},
		{"minLength", `{"minLength":2}`, `"é"`, []Violation{{"", "minLength", "length must be >= 2, but got 1"}}},
		{"pattern", `{"pattern":"^[a-z]+$"}`, `"A"`, []Violation{{"", "pattern", "does not match pattern '^[a-z]+$'"}}},
		{"format uri asserted", `{"format":"uri"}`, `"not a uri"`, []Violation{{"", "format", "'not a uri' is not valid 'uri'"}}},
		{"format date-time asserted", `{"format":"date-time"}`, `"2026-13-01T00:00:00Z"`, []Violation{{"", "format", "'2026-13-01T00:00:00Z' is not valid 'date-time'"}}},
		{"minimum", `{"minimum":1}`, `0`, []Violation{{"", "minimum", "must be >= 1 but found 0"}}},
		{"maximum", `{"maximum":10}`, `10.5`, []Violation{{"", "maximum", "must be <= 10 but found 10.5"}}},
		{"minItems", `{"minItems":2}`, `[1]`, []Violation{{"", "minItems", "minimum 2 items required, but found 1 items"}}},
		{"maxItems", `{"maxItems":1}`, `[1,2]`, []Violation{{"", "maxItems", "maximum 1 items required, but found 2 items"}}},
		{"uniqueItems", `{"uniqueItems":true}`, `["a","b","a"]`, []Violation{{"", "uniqueItems", "items at index 0 and 2 are equal"}}},
		{"false subschema", `{"properties":{"x":false}}`, `{"x":1}`, []Violation{{"/x", "false", "no value is allowed here"}}},
		{"not", `{"not":{"type":"null"}}`, `null`, []Violation{{"", "not", "value matches a schema it must not match"}}},
		{"contains", `{"contains":{"const":"x"}}`, `["a","b"]`, []Violation{{"", "contains", "valid must be >= 1, but got 0"}}},
		{"dependentRequired",
			`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`,
			[]Violation{{"/b", "dependentRequired", `member "b" is required when "a" is present`}}},
		{"anyOf reports every branch",
			`{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`,
			[]Violation{
				{"", "type", "expected integer, but got boolean"},
				{"", "type", "expected string, but got boolean"},
			}},
		{"ref to defs",
			`{"$defs":{"u":{"type":"string","format":"uri"}},"properties":{"home":{"$ref":"#/$defs/u"}}}`, `{"home":5}`,
			[]Violation{{"/home", "type", "expected string, but got number"}}},
		{"every leaf sorted with numeric indexes",
			`{"type":"array","items":{"type":"object","required":["id"],"properties":{"id":{"type":"integer"}},"additionalProperties":false}}`,
			`[{"id":1},{"id":"2"},{"id":3},{"id":4},{"id":5},{"id":6},{"id":7},{"id":8},{"id":9},{"id":10},{"x":1}]`,
			[]Violation{
				{"/1/id", "type", "expected integer, but got string"},
				{"/10/id", "required", `required member "id" is missing`},
				{"/10/x", "additionalProperties", `member "x" is not allowed here`},
			}},
		{"pointer with tilde and slash",
			`{"properties":{"a~b/c":{"type":"string"}}}`, `{"a~b/c":1}`,
			[]Violation{{"/a~0b~1c", "type", "expected string, but got number"}}},
		{"pointer with percent and unicode",
			`{"additionalProperties":{"type":"string"}}`, `{"100% é":1}`,
			[]Violation{{"/100% é", "type", "expected string, but got number"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile(testURL, []byte(tc.schema))
			require.NoError(t, err)
			got := s.Validate(decode(t, tc.doc))
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestValidateNonGenericValue(t *testing.T) {
	s := MustCompile(testURL, []byte(`{"type":"object"}`))
	got := s.Validate(map[string]string{"a": "b"})
	require.Len(t, got, 1)
	assert.Equal(t, "schema", got[0].Keyword)
	assert.Contains(t, got[0].Message, "cannot validate")
}

func TestValidateNeverPanics(t *testing.T) {
	s := MustCompile(testURL, []byte(`{"type":"integer","minimum":0}`))
	// strictjson refuses this number (it rounds to zero); a tree built by
	// other means must still not crash the caller.
	got := s.Validate(json.Number("1e-4000000"))
	require.Len(t, got, 1)
	assert.Equal(t, "schema", got[0].Keyword)
	assert.Contains(t, got[0].Message, "cannot validate")
}

func TestKeyword(t *testing.T) {
	tests := []struct{ loc, want string }{
		{"/required", "required"},
		{"/properties/links/items/required", "required"},
		{"/properties/required/type", "type"},
		{"/dependentRequired/a/0", "dependentRequired"},
		{"/allOf/1/$ref/maxLength", "maxLength"},
		{"/prefixItems/0", "prefixItems"},
		{"/properties/x", "properties"},
		{"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.loc, func(t *testing.T) {
			assert.Equal(t, tc.want, keyword(tc.loc))
		})
	}
}

func TestQuotedList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{`'a'`, []string{"a"}, true},
		{`'a', 'b c'`, []string{"a", "b c"}, true},
		{`'it\'s', '"q"'`, []string{"it's", `"q"`}, true},
		{`'tab\there', 'é'`, []string{"tab\there", "é"}, true},
		{`'a', 'b', `, nil, false},
		{`'a`, nil, false},
		{`a`, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := quotedList(tc.in)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestComparePointers(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "/a", -1},
		{"/2", "/10", -1},
		{"/a/10", "/a/9", 1},
		{"/a", "/b", -1},
		{"/a/b", "/a", 1},
		{"/1x", "/10", 1},
	}
	for _, tc := range tests {
		t.Run(tc.a+" vs "+tc.b, func(t *testing.T) {
			assert.Equal(t, tc.want, comparePointers(tc.a, tc.b))
		})
	}
}

func TestErrorsDoNotExposeDependencyTypes(t *testing.T) {
	_, err := Compile(testURL, []byte(`{"type":12}`))
	require.Error(t, err)
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		assert.NotContains(t, fmt.Sprintf("%T", e), "jsonschema")
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
}
