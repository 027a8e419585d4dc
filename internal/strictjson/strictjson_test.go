package strictjson

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

// stdDecode decodes with encoding/json the way Decode promises to agree with.
func stdDecode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func nest(open, close string, n int, inner string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		rule    string
		pointer string
		offset  int64
	}{
		{"empty", ``, RuleSyntax, "", 0},
		{"only whitespace", " \n\t\r", RuleSyntax, "", 4},
		{"bare word", `nope`, RuleSyntax, "", 1},
		{"unquoted key", `{a:1}`, RuleSyntax, "", 1},
		{"single quotes", `{'a':1}`, RuleSyntax, "", 1},
		{"missing colon", `{"a" 1}`, RuleSyntax, "", 5},
		{"missing value", `{"a":}`, RuleSyntax, "/a", 5},
		{"trailing comma object", `{"a":1,}`, RuleSyntax, "", 7},
		{"trailing comma array", `[1,]`, RuleSyntax, "/1", 3},
		{"missing comma", `[1 2]`, RuleSyntax, "", 3},
		{"unclosed array", `[1,2`, RuleSyntax, "", 4},
		{"unclosed object", `{"a":[1]`, RuleSyntax, "", 8},
		{"unterminated string", `{"a":"xyz`, RuleSyntax, "/a", 5},
		{"control char in string", "[\"a\tb\"]", RuleSyntax, "/0", 3},
		{"bad escape", `["\x"]`, RuleSyntax, "/0", 2},
		{"bad hex escape", `["\u12g4"]`, RuleSyntax, "/0", 6},
		{"truncated hex escape", `["\u12`, RuleSyntax, "/0", 2},
		{"leading zero", `[01]`, RuleSyntax, "/0", 2},
		{"plus sign", `[+1]`, RuleSyntax, "/0", 1},
		{"bare fraction", `[.5]`, RuleSyntax, "/0", 1},
		{"empty fraction", `[1.]`, RuleSyntax, "/0", 3},
		{"empty exponent", `[1e]`, RuleSyntax, "/0", 3},
		{"hex number", `[0x10]`, RuleSyntax, "/0", 2},
		{"NaN", `[NaN]`, RuleSyntax, "/0", 1},
		{"Infinity", `{"x":-Infinity}`, RuleSyntax, "/x", 6},
		{"truncated literal", `[tru]`, RuleSyntax, "/0", 4},
		{"literal with suffix", `[nullx]`, RuleSyntax, "/0", 5},
		{"capital literal", `[True]`, RuleSyntax, "/0", 1},
		{"comment", `{"a":1 /* c */}`, RuleSyntax, "", 7},
		{"bom", "\uFEFF{}", RuleBOM, "", 0},
		{"bom inside", "{}\uFEFF", RuleTrailing, "", 2},
		{"invalid utf8 in string", "{\"a\":\"\xff\"}", RuleUTF8, "/a", 6},
		{"invalid utf8 in key", "{\"\xc3\x28\":1}", RuleUTF8, "", 2},
		{"invalid utf8 outside", "[1,\xff]", RuleUTF8, "/1", 3},
		{"invalid utf8 trailing", "{}\xe2\x82", RuleUTF8, "", 2},
		{"utf8 encoded surrogate", "[\"\xed\xa0\x80\"]", RuleUTF8, "/0", 2},
		{"overlong utf8", "[\"\xc0\xaf\"]", RuleUTF8, "/0", 2},
		{"invalid utf8 after escape", "[\"\\n\xff\"]", RuleUTF8, "/0", 4},
		{"lone high surrogate", `{"s":"\ud800"}`, RuleSurrogate, "/s", 6},
		{"lone high surrogate then text", `{"s":"\ud800abcdefg"}`, RuleSurrogate, "/s", 6},
		{"lone low surrogate", `{"s":"\udc00"}`, RuleSurrogate, "/s", 6},
		{"high then high", `["\ud800\ud800"]`, RuleSurrogate, "/0", 2},
		{"high then escape", `["\ud800\n"]`, RuleSurrogate, "/0", 2},
		{"surrogate in key", `{"\udfff":1}`, RuleSurrogate, "", 2},
		{"duplicate", `{"a":1,"a":2}`, RuleDuplicate, "/a", 7},
		{"duplicate after unescaping", `{"a":1,"\u0061":2}`, RuleDuplicate, "/a", 7},
		{"duplicate nested", `{"x":[{"b":1,"c":2,"b":3}]}`, RuleDuplicate, "/x/0/b", 19},
		{"duplicate pointer escaping", `{"p":{"a/b~c":1,"a/b~c":2}}`, RuleDuplicate, "/p/a~1b~0c", 16},
		{"duplicate in large object", `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":3}`,
			RuleDuplicate, "/k3", 143},
		{"depth 65 arrays", nest("[", "]", 65, ""), RuleDepth, "/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0", 64},
		{"depth 65 objects", nest(`{"a":`, "}", 65, "1"), RuleDepth, strings.Repeat("/a", 64), 320},
		{"depth huge", nest("[", "]", 100000, ""), RuleDepth, strings.Repeat("/0", 64), 64},
		{"trailing value", `{} {}`, RuleTrailing, "", 3},
		{"trailing garbage", `1 x`, RuleTrailing, "", 2},
		{"trailing comma", `[],`, RuleTrailing, "", 2},
		{"trailing nul", "true\x00", RuleTrailing, "", 4},
		{"trailing nbsp", "true\u00a0", RuleTrailing, "", 4},
		{"number overflow", `{"n":1e309}`, RuleNumberRange, "/n", 5},
		{"negative overflow", `[-1.8e308]`, RuleNumberRange, "/0", 1},
		{"underflow", `{"n":1e-400}`, RuleNumberRange, "/n", 5},
		{"huge negative exponent", `[-1.5e-400000]`, RuleNumberRange, "/0", 1},
		{"long fraction underflow", "[0." + strings.Repeat("0", 400) + "1]", RuleNumberRange, "/0", 1},
		{"long integer overflow", "[" + strings.Repeat("9", 400) + "]", RuleNumberRange, "/0", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Decode([]byte(tc.in))
			assert.Nil(t, v)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.rule, e.Rule, "rule; message %q", e.Message)
			assert.Equal(t, tc.pointer, e.Pointer)
			assert.Equal(t, tc.offset, e.Offset, "offset; message %q", e.Message)
			assert.NotEmpty(t, e.Message)
			assert.True(t, strings.HasPrefix(err.Error(), "strictjson: "), err.Error())

			verr := Valid([]byte(tc.in))
			require.Error(t, verr)
			assert.Equal(t, err, verr, "Valid and Decode agree")

			ov, oerr := DecodeOrdered([]byte(tc.in))
			assert.Zero(t, ov)
			assert.Equal(t, err, oerr, "DecodeOrdered and Decode agree")
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"null", `null`, nil},
		{"true with whitespace", " \t\r\ntrue \n", true},
		{"false", `false`, false},
		{"string", `"a"`, "a"},
		{"escapes", `"\"\\\/\b\f\n\r\t\u00e9\u20AC"`, "\"\\/\b\f\n\r\té€"},
		{"surrogate pair", `"\ud83d\ude00"`, "😀"},
		{"raw utf8", `"héllo 😀 \u0000"`, "héllo 😀 \x00"},
		{"bom inside a string", "\"\uFEFF\"", "\uFEFF"},
		{"zero", `0`, json.Number("0")},
		{"negative zero", `-0`, json.Number("-0")},
		{"negative zero float", `-0.0e0`, json.Number("-0.0e0")},
		{"max double", `1.7976931348623157e308`, json.Number("1.7976931348623157e308")},
		{"smallest denormal", `5e-324`, json.Number("5e-324")},
		{"zero with big exponents", `[0e99999,-0.000e-99999999]`, []any{json.Number("0e99999"), json.Number("-0.000e-99999999")}},
		{"long fraction", "0." + strings.Repeat("0", 400) + "1e400", json.Number("0." + strings.Repeat("0", 400) + "1e400")},
		{"308 digit integer", strings.Repeat("9", 308), json.Number(strings.Repeat("9", 308))},
		{"exponent forms", `[1E2,1e+2,1e-2,1.5E-0]`, []any{json.Number("1E2"), json.Number("1e+2"), json.Number("1e-2"), json.Number("1.5E-0")}},
		{"empty containers", `{"a":{},"b":[]}`, map[string]any{"a": map[string]any{}, "b": []any{}}},
		{"empty key", `{"":1}`, map[string]any{"": json.Number("1")}},
		{"similar keys", `{"a":1,"A":2,"a ":3}`, map[string]any{"a": json.Number("1"), "A": json.Number("2"), "a ": json.Number("3")}},
		{"depth 64 arrays", nest("[", "]", 64, ""), nil},
		{"depth 64 objects", nest(`{"a":`, "}", 64, "1"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.in))
			require.NoError(t, err)
			require.NoError(t, Valid([]byte(tc.in)))
			std, err := stdDecode([]byte(tc.in))
			require.NoError(t, err)
			assert.Equal(t, std, got, "same tree as encoding/json")
			if tc.want != nil || tc.in == "null" {
				assert.Equal(t, tc.want, got)
			}
			checkOrdered(t, []byte(tc.in))
		})
	}
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	docs := map[string][]byte{"generated-5k": genDoc(5 << 10), "generated-60k": genDoc(60 << 10)}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		docs[filepath.Base(f)] = b
	}
	for name, b := range docs {
		t.Run(name, func(t *testing.T) {
			got, err := Decode(b)
			require.NoError(t, err)
			want, err := stdDecode(b)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.NoError(t, Valid(b))
		})
	}
}

func TestEscapeToken(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"a/b", "a~1b"},
		{"m~n", "m~0n"},
		{"~/", "~0~1"},
		{"~1", "~01"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			assert.Equal(t, tc.want, EscapeToken(tc.in))
		})
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := Decode([]byte(`{"a":1,"a":2}`))
	require.Error(t, err)
	assert.Equal(t, `strictjson: duplicate member name "a" at line 1, column 8 ("/a", byte offset 7, json-duplicate-member)`, err.Error())

	_, err = Decode([]byte(`[] x`))
	require.Error(t, err)
	assert.Equal(t, `strictjson: unexpected character 'x' after the JSON value at line 1, column 4 (the document root, byte offset 3, json-trailing-data)`, err.Error())
	assert.True(t, errors.Is(err, ErrInvalid))
}

// TestSyntaxErrorsGiveLineAndColumn: every refusal says where, as an
// editor counts: lines and characters from 1, a multi-byte character
// counted once.
func TestSyntaxErrorsGiveLineAndColumn(t *testing.T) {
	tests := []struct {
		doc       string
		line, col int
		inMessage string
	}{
		{"{\n  \"a\": 1,\n  \"b\": tru\n}", 3, 11, "at line 3, column 11"},
		{"{\"é\": 1, \"é\": 2}", 1, 10, "at line 1, column 10"},
		{"[1,\r\n2,]", 2, 3, "at line 2, column 3"},
		{"", 1, 1, "at line 1, column 1"},
		{"{}\n\n x", 3, 2, "at line 3, column 2"},
	}
	for _, tc := range tests {
		t.Run(tc.doc, func(t *testing.T) {
			_, err := Decode([]byte(tc.doc))
			var je *Error
			require.ErrorAs(t, err, &je)
			assert.Equal(t, tc.line, je.Line)
			assert.Equal(t, tc.col, je.Column)
			assert.Contains(t, je.Message, tc.inMessage)
		})
	}
}

// TestDecodeDoesNotAlias checks that the tree does not share memory with the
// caller's buffer, which may be reused.
func TestDecodeDoesNotAlias(t *testing.T) {
	b := []byte(`{"k":"value","n":12}`)
	v, err := Decode(b)
	require.NoError(t, err)
	for i := range b {
		b[i] = 'x'
	}
	assert.Equal(t, map[string]any{"k": "value", "n": json.Number("12")}, v)
}

// TestDecodeReusesScratchCleanly checks that the scratch stacks Decode
// reuses carry nothing from an earlier call, a failed one included: a
// document left half-read by an error does not leak members or elements
// into the next tree.
func TestDecodeReusesScratchCleanly(t *testing.T) {
	for _, bad := range []string{`{"a":[1,2,{"b":"x\n","c":3`, `{"a":1,"a":2}`, `[1,[2,[3,{"d":4},` + "\xff"} {
		_, err := Decode([]byte(bad))
		require.Error(t, err, bad)
		good := []byte(`{"k":[{"x":"y\t"},[true,null]],"n":1.5}`)
		got, err := Decode(good)
		require.NoError(t, err)
		want, err := stdDecode(good)
		require.NoError(t, err)
		assert.Equal(t, want, got, "after %q", bad)
	}
}
