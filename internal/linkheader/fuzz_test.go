package linkheader

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// fuzzSeeds are RFC 8288's examples and the shapes that found bugs.
var fuzzSeeds = []string{
	`<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter"`,
	`</terms>; rel="copyright"; anchor="#foo"`,
	`</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel`,
	`<https://example.org/>; rel="start http://example.net/relation/other", <https://example.org/index>; rel="index"`,
	`</a>; title="a, b; c \"q\" \\"; hreflang=en; hreflang=de; as=style; crossorigin`,
	` , ,</a> ;rel = "x" ; ; ,, </b>;  `,
	`</a>; title*=iso-8859-1'fr'caf%E9; media="screen and (min-width: 10em)"`,
	`<../x?y#z>; anchor=""; rel=UP`,
	`</a b>`, `</a>; =x`, `</a>; title="abc`,
	`</llms.txt>; rel=describedby; type=text/plain`, `</a"b>; rel=x; title*="UTF-8''q"; rel*=UTF-8''y`,
	`</a>;; rel=x y ; note=p; note*=UTF-8''%C3%A9; title*=UTF-8''%ff, junk, </b>; rel=z`,
}

// fuzzValues seeds f with fuzzSeeds and calls check with each pair of
// header values it makes, without a base URL and then with one.
func fuzzValues(f *testing.F, check func(t *testing.T, values []string, base *url.URL)) {
	for _, s := range fuzzSeeds {
		f.Add(s, "")
		f.Add(s, `</second>; rel="next"`)
	}
	base, _ := url.Parse("https://example.com/dir/page?q=1")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, base := range []*url.URL{nil, base} {
			check(t, []string{a, b}, base)
		}
	})
}

// FuzzParseStrict checks that ParseStrict never panics, that every error is
// typed, and that Format(ParseStrict(x)) parses back to the same links,
// with and without a base URL.
func FuzzParseStrict(f *testing.F) {
	fuzzValues(f, func(t *testing.T, values []string, base *url.URL) {
		links, err := ParseStrict(values, base)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) && !errors.Is(err, ErrTooManyLinks) {
				t.Fatalf("untyped error %T %v", err, err)
			}
			if se != nil && (se.Offset < 0 || se.Offset > len(values[se.Value])) {
				t.Fatalf("offset %d outside value %d of %d bytes", se.Offset, se.Value, len(values[se.Value]))
			}
			return
		}
		out := Format(links...)
		again, err := ParseStrict([]string{out}, base)
		if err != nil {
			t.Fatalf("Format output %q does not parse: %v (input %q)", out, err, values)
		}
		if len(links) == 0 && len(again) == 0 {
			return
		}
		if !reflect.DeepEqual(links, again) {
			t.Fatalf("round trip differs\ninput %q\nformat %q\nfirst  %#v\nsecond %#v", values, out, links, again)
		}
		if strings.ContainsAny(out, "\r\n\x00") {
			t.Fatalf("Format wrote a control character: %q", out)
		}
	})
}

// FuzzParse checks the Appendix B reader: it never panics and never fails
// below MaxLinks; every link it returns has a relation type, lower-cased,
// and no parameter named rel or anchor; what ParseStrict accepts it reads
// to the same targets and relation types; and what Format writes of its
// links it reads back to the same targets and relation types.
func FuzzParse(f *testing.F) {
	fuzzValues(f, func(t *testing.T, values []string, base *url.URL) {
		links, err := Parse(values, base)
		if err != nil {
			if !errors.Is(err, ErrTooManyLinks) || len(links) != MaxLinks {
				t.Fatalf("unexpected error %v with %d links", err, len(links))
			}
			return
		}
		for _, l := range links {
			if len(l.Rel) == 0 {
				t.Fatalf("a link without a relation type: %#v", l)
			}
			for _, r := range l.Rel {
				if r == "" || r != asciiLower(r) || strings.ContainsAny(r, " \t") {
					t.Fatalf("relation type %q", r)
				}
			}
			for _, p := range l.Params {
				if p.Name == "rel" || p.Name == "anchor" || p.Name != asciiLower(p.Name) {
					t.Fatalf("parameter %q kept", p.Name)
				}
			}
		}
		if strict, err := ParseStrict(values, base); err == nil {
			if got, want := view(links), view(withRel(strict)); !reflect.DeepEqual(got, want) {
				t.Fatalf("the grammar accepts %q: strict %v, read %v", values, want, got)
			}
		}
		// Format drops the control characters a quoted-string cannot
		// hold; the rest of each relation type reads back.
		again, err := Parse([]string{Format(links...)}, nil)
		if err != nil {
			t.Fatalf("Format(%q) does not read back: %v", values, err)
		}
		var want []string
		for _, l := range links {
			var rels []string
			for _, r := range l.Rel {
				kept := make([]byte, 0, len(r))
				for i := 0; i < len(r); i++ {
					if !isCTL(r[i]) {
						kept = append(kept, r[i])
					}
				}
				rels = append(rels, splitRWS(string(kept))...)
			}
			if len(rels) > 0 {
				want = append(want, strings.Join(rels, " "))
			}
		}
		var got []string
		for _, l := range again {
			got = append(got, strings.Join(l.Rel, " "))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Format(%q): relation types %q read back as %q", values, want, got)
		}
	})
}

// withRel keeps the links with a relation type, lower-cased.
func withRel(links []Link) []Link {
	var out []Link
	for _, l := range links {
		if len(l.Rel) > 0 {
			rels := make([]string, len(l.Rel))
			for i, r := range l.Rel {
				rels[i] = asciiLower(r)
			}
			l.Rel = rels
			out = append(out, l)
		}
	}
	return out
}

// view is what the reader and the grammar must agree on: each link's target
// and relation types.
func view(links []Link) []string {
	var out []string
	for _, l := range links {
		out = append(out, l.Target+" "+strings.Join(l.Rel, " "))
	}
	return out
}
