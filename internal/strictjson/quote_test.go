package strictjson

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppendString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", `""`},
		{"plain", "plain", `"plain"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"named escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other C0 controls", "\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"DEL and C1 literal", "\x7f\u0085", "\"\x7f\u0085\""},
		{"solidus and HTML literal", "</a>&", `"</a>&"`},
		{"line separators literal", "\u2028\u2029\ufeff", "\"\u2028\u2029\ufeff\""},
		{"non-ASCII literal", "café 😀 日本", `"café 😀 日本"`},
		{"invalid UTF-8", "a\xffb", "\"a\ufffdb\""},
		{"each invalid byte replaced", "\xe2\x82", "\"\ufffd\ufffd\""},
		{"lone surrogate bytes", "\xed\xa0\x80", "\"\ufffd\ufffd\ufffd\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := AppendString([]byte("x"), tc.in)
			assert.Equal(t, "x"+tc.want, string(got))
			assert.Equal(t, tc.want, string(AppendStringFunc(nil, tc.in, nil)), "a nil escape is AppendString")
			back, err := Decode(got[1:])
			require.NoError(t, err)
			assert.Equal(t, replaceInvalid(tc.in), back)
		})
	}
}

func TestAppendStringFunc(t *testing.T) {
	all := func(rune) bool { return true }
	tests := []struct {
		name, in, want string
		escape         func(rune) bool
	}{
		{"DEL escaped", "a\x7fb", `"a\u007fb"`, func(r rune) bool { return r == 0x7f }},
		{"DEL literal when not asked", "a\x7fb", "\"a\x7fb\"", func(r rune) bool { return r == 0x2028 }},
		{"chosen BMP character", "x\u2028y\u2029", "\"x\\u2028y\u2029\"", func(r rune) bool { return r == 0x2028 }},
		{"upper-case hex never", "\ufeff", `"\ufeff"`, all},
		{"astral as surrogate pair", "😀", `"\ud83d\ude00"`, all},
		{"ASCII always literal", "az/<", `"az/<"`, all},
		{"mandatory escapes kept", "\"\n\x01", `"\"\n\u0001"`, all},
		{"replacement offered", "\xff", `"\ufffd"`, func(r rune) bool { return r == utf8.RuneError }},
		{"replacement literal", "\xff", "\"\ufffd\"", func(r rune) bool { return r == 0x2028 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := AppendStringFunc(nil, tc.in, tc.escape)
			assert.Equal(t, tc.want, string(got))
			back, err := Decode(got)
			require.NoError(t, err)
			assert.Equal(t, replaceInvalid(tc.in), back)
		})
	}
}

// replaceInvalid replaces each byte of invalid UTF-8 with U+FFFD, as
// AppendString does.
func replaceInvalid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += size
	}
	return b.String()
}

// FuzzAppendString checks that AppendString's output is a strict JSON text
// that encoding/json reads back as the input (invalid UTF-8 replaced), that it
// escapes nothing but the characters it must, and that AppendStringFunc with
// every escape reads back the same.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\b\f\n\r\t\x00\x1f\x7f", "\u2028😀", "a\xffb\xed\xa0\x80", "</script>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := replaceInvalid(s)
		for _, escape := range []func(rune) bool{nil, func(rune) bool { return true }} {
			out := AppendStringFunc(nil, s, escape)
			if err := Valid(out); err != nil {
				t.Fatalf("output %q of %q: %v", out, s, err)
			}
			var back string
			if err := json.Unmarshal(out, &back); err != nil || back != want {
				t.Fatalf("output %q of %q reads back as %q (%v)", out, s, back, err)
			}
			if escape == nil && len(out) < len(want)+2 {
				t.Fatalf("output %q shorter than its value %q", out, want)
			}
		}
		needsEscape := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }) >= 0
		if out := AppendString(nil, s); !needsEscape && utf8.ValidString(s) && string(out) != `"`+s+`"` {
			t.Fatalf("%q needs no escape but was written %q", s, out)
		}
	})
}

// BenchmarkAppendString measures quoting a typical mixed string.
func BenchmarkAppendString(b *testing.B) {
	s := strings.Repeat(`The agent's "résumé" of https://example.com/docs/ — tab	and 😀 `, 8)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	buf := make([]byte, 0, 2*len(s))
	for b.Loop() {
		buf = AppendString(buf[:0], s)
	}
}
