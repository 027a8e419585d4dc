package linkheader

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error is typed, and
// that Format(Parse(x)) parses back to the same links, with and without a
// base URL.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter"`,
		`</terms>; rel="copyright"; anchor="#foo"`,
		`</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel`,
		`<https://example.org/>; rel="start http://example.net/relation/other", <https://example.org/index>; rel="index"`,
		`</a>; title="a, b; c \"q\" \\"; hreflang=en; hreflang=de; as=style; crossorigin`,
		` , ,</a> ;rel = "x" ; ; ,, </b>;  `,
		`</a>; title*=iso-8859-1'fr'caf%E9; media="screen and (min-width: 10em)"`,
		`<../x?y#z>; anchor=""; rel=UP`,
		`</a b>`, `</a>; =x`, `</a>; title="abc`,
	} {
		f.Add(s, "")
		f.Add(s, `</second>; rel="next"`)
	}
	base, _ := url.Parse("https://example.com/dir/page?q=1")
	f.Fuzz(func(t *testing.T, a, b string) {
		values := []string{a, b}
		for _, base := range []*url.URL{nil, base} {
			links, err := Parse(values, base)
			if err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) && !errors.Is(err, ErrTooManyLinks) {
					t.Fatalf("untyped error %T %v", err, err)
				}
				if se != nil && (se.Offset < 0 || se.Offset > len(values[se.Value])) {
					t.Fatalf("offset %d outside value %d of %d bytes", se.Offset, se.Value, len(values[se.Value]))
				}
				continue
			}
			out := Format(links...)
			again, err := Parse([]string{out}, base)
			if err != nil {
				t.Fatalf("Format output %q does not parse: %v (input %q)", out, err, values)
			}
			if len(links) == 0 && len(again) == 0 {
				continue
			}
			if !reflect.DeepEqual(links, again) {
				t.Fatalf("round trip differs\ninput %q\nformat %q\nfirst  %#v\nsecond %#v", values, out, links, again)
			}
			if strings.ContainsAny(out, "\r\n\x00") {
				t.Fatalf("Format wrote a control character: %q", out)
			}
		}
	})
}
