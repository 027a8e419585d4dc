package schema

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// fastSchemas exercise every keyword the fast checker mirrors.
var fastSchemas = []string{
	`{"type":"object","required":["a"],"properties":{"a":{"type":"string","minLength":1,"maxLength":5,"pattern":"^[a-z]"},"n":{"type":"integer","minimum":0,"exclusiveMaximum":10.5}},"additionalProperties":false}`,
	`{"type":["array","null"],"minItems":1,"maxItems":4,"uniqueItems":true,"prefixItems":[{"type":"number"}],"items":{"enum":["x",1,{"k":[1,2]},null,1.5e1]}}`,
	`{"anyOf":[{"type":"string","format":"uri"},{"type":"number","multipleOf":3}],"not":{"const":"https://bad.example/"}}`,
	`{"oneOf":[{"type":"integer"},{"type":"number","maximum":2}]}`,
	`{"if":{"properties":{"kind":{"const":"a"}},"required":["kind"]},"then":{"required":["a"]},"else":{"required":["b"]}}`,
	`{"properties":{"list":{"contains":{"type":"string"},"minContains":2,"maxContains":3}},"patternProperties":{"^x-":{"type":"boolean"}},"additionalProperties":{"type":"number"},"propertyNames":{"maxLength":6}}`,
	`{"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"},"v":{"type":"number","exclusiveMinimum":-1,"maximum":1e3}}}},"$ref":"#/$defs/node","minProperties":1,"maxProperties":2,"dependentRequired":{"v":["next"]}}`,
	`{"dependentSchemas":{"a":{"required":["b"]}},"allOf":[{"type":"object"},{"not":{"required":["z"]}}],"properties":{"d":{"format":"date-time"},"e":{"format":"email"},"u":{"uniqueItems":true}}}`,
	`{"properties":{"t":true,"f":false},"items":false,"const":{"t":1}}`,
	`{"type":"number","minimum":0.1,"maximum":0.30000000000000004}`,
}

var fastDocs = []string{
	`{"a":"abc"}`, `{"a":"abc","n":3}`, `{"a":""}`, `{"a":"abc","n":10.5}`, `{"a":"abc","n":1.0}`, `{"a":"abc","n":-0}`,
	`{"a":"ABC"}`, `{"b":1}`, `{"a":"abcdef"}`, `{"a":"é"}`, `null`, `[]`, `[1]`, `[1,"x"]`, `[1,"x","x"]`, `[1,{"k":[1,2]}]`,
	`[1, 15]`, `[1, 15.0]`, `["1"]`, `"https://ok.example/"`, `"https://bad.example/"`, `"not a uri"`, `9`, `10`, `1.5`, `2`, `2.5`,
	`{"kind":"a","a":1}`, `{"kind":"a","b":1}`, `{"kind":"b","b":1}`, `{"kind":"b"}`, `{}`,
	`{"list":["a","b"]}`, `{"list":["a"]}`, `{"list":["a","b","c","d"]}`, `{"x-y":true,"n":1}`, `{"x-y":1}`, `{"toolong":1}`, `{"s":"s"}`,
	`{"v":0}`, `{"v":0,"next":{}}`, `{"next":{"next":{"v":-1}}}`, `{"next":{"v":1001}}`, `{"v":1e3,"next":{}}`,
	`{"a":1,"b":2}`, `{"a":1}`, `{"z":1}`, `{"d":"2026-11-29T19:00:00Z"}`, `{"d":"yesterday"}`, `{"e":"a@b.example"}`, `{"e":"nope"}`,
	`{"u":[1,1.0]}`, `{"u":[{"a":1},{"a":1}]}`, `{"u":[[1],[2]]}`, `{"t":1}`, `{"t":1,"f":0}`, `[0]`,
	`0.1`, `0.3`, `0.30000000000000004`, `0.30000000000000005`, `0.09999999999999999`, `1e-1`,
	`true`, `"x"`, `{"a":"abc","n":1e1}`, `{"a":"abc","n":12345678901234567890}`,
}

func fastAgrees(t *testing.T, s *Schema, doc any, label string) {
	t.Helper()
	lib := s.s.Validate(doc) == nil
	switch s.fast.check(doc, 0) {
	case yes:
		if !lib {
			t.Fatalf("%s: fast checker says valid, library says %v", label, s.s.Validate(doc))
		}
	case no:
		if lib {
			t.Fatalf("%s: fast checker says invalid, library says valid", label)
		}
	}
}

func TestFastCheckerAgreesWithLibrary(t *testing.T) {
	for i, src := range fastSchemas {
		s, err := Compile(testURL, []byte(src))
		require.NoError(t, err)
		require.NotNil(t, s.fast, "schema %d should be mirrored", i)
		for _, d := range fastDocs {
			t.Run(fmt.Sprintf("schema%d/%s", i, d), func(t *testing.T) {
				fastAgrees(t, s, decode(t, d), d)
			})
		}
	}
}

func TestFastCheckerDecides(t *testing.T) {
	// The fast path must actually answer for ordinary documents, or it
	// saves nothing.
	s := MustCompile(testURL, []byte(fastSchemas[0]))
	assert.Equal(t, yes, s.fast.check(decode(t, `{"a":"abc","n":3}`), 0))
	assert.Equal(t, no, s.fast.check(decode(t, `{"a":"abc","x":3}`), 0))
	s = MustCompile(testURL, []byte(fastSchemas[9]))
	assert.Equal(t, yes, s.fast.check(decode(t, `0.2`), 0))
	assert.Equal(t, no, s.fast.check(decode(t, `0.5`), 0))
}

func TestFastCheckerUnsupported(t *testing.T) {
	for _, src := range []string{
		`{"unevaluatedProperties":false}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}]}`,
		`{"$defs":{"x":{"$dynamicAnchor":"a","type":"string"}},"properties":{"p":{"$dynamicRef":"#a"}}}`,
		`{"$ref":"https://json-schema.org/draft/2020-12/schema"}`,
	} {
		t.Run(src, func(t *testing.T) {
			s, err := Compile(testURL, []byte(src))
			require.NoError(t, err)
			assert.Nil(t, s.fast)
		})
	}
}

// FuzzFastChecker checks that the fast checker never contradicts the
// library: a certain yes or no must be the library's answer.
func FuzzFastChecker(f *testing.F) {
	for i := range fastSchemas {
		for _, d := range fastDocs {
			f.Add(uint8(i), []byte(d))
		}
	}
	schemas := make([]*Schema, len(fastSchemas))
	for i, src := range fastSchemas {
		schemas[i] = MustCompile(testURL, []byte(src))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		doc, err := strictjson.Decode(data)
		if err != nil {
			return
		}
		s := schemas[int(which)%len(schemas)]
		fastAgrees(t, s, doc, string(data))
		// Validate must agree with the library on validity.
		if (s.Validate(doc) == nil) != (s.s.Validate(doc) == nil) {
			t.Fatalf("Validate and the library disagree on %s", data)
		}
	})
}
