package schema

import (
	"fmt"
	"strings"
	"testing"
)

// libQuote is the jsonschema library's quoting of a name in its messages
// (errors.go, quote), reproduced so that the parser of those messages can
// be checked against it.
func libQuote(s string) string {
	s = fmt.Sprintf("%q", s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}

// FuzzQuotedList checks that quotedList recovers any names from the
// library's "'a', 'b'" lists, and never panics on anything else.
func FuzzQuotedList(f *testing.F) {
	f.Add("a", "b c", `it's "q" \ ', '`)
	f.Add("", "é\t\x00", "\xff")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		quotedList(a + b + c) // arbitrary input must not panic
		names := []string{a, b, c}
		for _, n := range names {
			if strings.HasSuffix(n, `\`) {
				// The library's quoting loses the escape of a final
				// backslash; Validate falls back to its message then.
				return
			}
		}
		var parts []string
		for _, n := range names {
			parts = append(parts, libQuote(n))
		}
		got, ok := quotedList(strings.Join(parts, ", "))
		if !ok {
			t.Fatalf("could not parse %q", strings.Join(parts, ", "))
		}
		for i := range names {
			// %q turns invalid UTF-8 into \x escapes, which unquote to the
			// same bytes.
			if got[i] != names[i] {
				t.Fatalf("name %d: got %q, want %q", i, got[i], names[i])
			}
		}
	})
}
