package linkheader

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseAppendixB ports the steps of RFC 8288 Appendix B (B.1 Parsing a
// Header Set for Links, B.2 Parsing a Link Field Value, B.3 Parsing
// Parameters, B.4 Parsing a Quoted String) into cases: each case is named
// after the step it exercises, and its expected links are what the step
// says, worked by hand.
func TestParseAppendixB(t *testing.T) {
	base := mustURL(t, "https://example.com/dir/page")
	l := func(target string, rel ...string) Link { return Link{Target: target, Rel: rel} }
	with := func(k Link, f func(*Link)) Link { f(&k); return k }
	tests := []struct {
		name   string
		values []string
		base   *url.URL
		want   []Link
	}{
		// B.1
		{"B.1 step 3: the links of every field value, in order", []string{`</a>; rel=x`, `</b>; rel=y`}, nil,
			[]Link{l("/a", "x"), l("/b", "y")}},
		{"B.1: no field value, no link", nil, nil, nil},

		// B.2
		{"B.2 step 2.1: leading OWS is consumed", []string{" \t</a>; rel=x"}, nil, []Link{l("/a", "x")}},
		{"B.2 step 2.2: no '<' ends the field value, keeping what was read", []string{`</a>; rel=x, junk, </b>; rel=y`}, nil,
			[]Link{l("/a", "x")}},
		{"B.2 step 2.2: a bare URI is no link-value", []string{`https://example.com/; rel=x`}, nil, nil},
		{"B.2 step 2.4: the target runs to the first '>', whatever it holds", []string{`</a "b",c;d>; rel=x`}, nil,
			[]Link{l(`/a "b",c;d`, "x")}},
		{"B.2 step 2.4: a quote inside the target is the target's", []string{`</llms".txt>; rel=describedby`}, nil,
			[]Link{l(`/llms".txt`, "describedby")}},
		{"B.2 step 2.5: no '>' ends the field value", []string{`</a>; rel=x, </b; rel=y`}, nil, []Link{l("/a", "x")}},
		{"B.2 step 2.8: the target is resolved against the response's URL", []string{`<../c?q#f>; rel=x`}, base,
			[]Link{l("https://example.com/c?q#f", "x")}},
		{"B.2 step 2.8: an unresolvable target leaves only that link out", []string{`<http://[::1>; rel=x, </b>; rel=y`}, base,
			[]Link{l("https://example.com/b", "y")}},
		{"B.2 step 2.9: the first rel wins", []string{`</a>; rel=first; rel=second; REL=third`}, nil, []Link{l("/a", "first")}},
		{"B.2 step 2.10: relation types split on RWS", []string{"</a>; rel=\"one  two\tthree\""}, nil,
			[]Link{l("/a", "one", "two", "three")}},
		{"B.2 step 2.11: the first anchor wins", []string{`</a>; rel=x; anchor="#one"; anchor="#two"`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Anchor = "#one" })}},
		{"B.2 step 2.12: the anchor is resolved against the response's URL", []string{`</a>; rel=x; anchor="../#s"`}, base,
			[]Link{with(l("https://example.com/a", "x"), func(k *Link) { k.Anchor = "https://example.com/#s" })}},
		{"B.2 step 2.12: an unresolvable anchor leaves the link out", []string{`</a>; rel=x; anchor="%zz", </b>; rel=y`}, nil,
			[]Link{l("/b", "y")}},
		{"B.2 step 2.14.1: rel and anchor are not target attributes", []string{`</a>; rel=x; anchor="#s"; as=style`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Anchor = "#s"; k.Params = []Param{{"as", "style"}} })}},
		{"B.2 step 2.14.2: the first media, title and type win", []string{`</a>; rel=x; type=a/b; type=c/d; title=t1; title=t2; media=m1; media=m2`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Type, k.Title, k.Media = "a/b", "t1", "m1" })}},
		{"B.2 step 2.14.3: other attributes repeat, in order", []string{`</a>; rel=x; hreflang=en; as=a; hreflang=de; as=b`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Hreflang = []string{"en", "de"}; k.Params = []Param{{"as", "a"}, {"as", "b"}} })}},
		{"B.2 step 2.16.3: title* replaces title, after it", []string{`</a>; rel=x; title="plain"; title*=UTF-8'en'%E2%82%AC%20rates`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "€ rates" })}},
		{"B.2 step 2.16.3: title* replaces title, before it", []string{`</a>; rel=x; title*=UTF-8''star; title="plain"`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "star" })}},
		{"B.2 step 2.16.4: any star attribute replaces its plain form", []string{`</a>; rel=x; note=plain; note*=UTF-8''d%C3%A9j%C3%A0; note=again`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Params = []Param{{"note", "déjà"}} })}},
		{"B.2 step 2.16.4: hreflang* replaces every hreflang", []string{`</a>; rel=x; hreflang=en; hreflang*=UTF-8''de; hreflang=fr`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Hreflang = []string{"de"} })}},
		{"B.2 step 2.16.2: rel* is not supported (rel is no target attribute), the plain rel stands", []string{`</a>; rel=x; rel*=UTF-8''y`}, nil,
			[]Link{l("/a", "x")}},
		{"B.2 step 2.16.2: a star value that does not decode is dropped, the plain one stands", []string{`</a>; rel=x; title=plain; title*=GB2312''%C6%F3`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "plain" })}},
		{"B.2 step 2.16.2: ISO-8859-1 decodes", []string{`</a>; rel=x; title*=iso-8859-1'fr'caf%E9`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "café" })}},
		{"B.2 step 2.14.2 before 2.16: the first title* counts even if it does not decode", []string{`</a>; rel=x; title=plain; title*=UTF-8''%ff; title*=UTF-8''good`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "plain" })}},
		{"B.2 step 2.17: a link-value without a relation type establishes no link", []string{`</a>, </b>; rel="", </c>; rel=x`}, nil,
			[]Link{l("/c", "x")}},
		{"B.2 step 2.17.1: every relation type is lower-cased, URIs too", []string{`</a>; rel="Next HTTPS://Example.COM/Rel"`}, nil,
			[]Link{l("/a", "next", "https://example.com/rel")}},
		{"B.2 step 2: the comma between link-values is consumed", []string{`</a>; rel=x, </b>; rel=y,</c>;rel=z`}, nil,
			[]Link{l("/a", "x"), l("/b", "y"), l("/c", "z")}},
		{"B.2 step 2, RFC 9110 5.6.1.2: empty list elements are skipped", []string{` , ,</a>; rel=x,, ,</b>; rel=y, `}, nil,
			[]Link{l("/a", "x"), l("/b", "y")}},

		// B.3
		{"B.3 step 2.2: something other than ';' ends the parameters and the field value", []string{`</a> junk; rel=x, </b>; rel=y`}, nil, nil},
		{"B.3 step 2.4: OWS after ';'", []string{"</a>;\t rel=x"}, nil, []Link{l("/a", "x")}},
		{"B.3 step 2.5: the name runs to BWS, '=', ';' or ','", []string{`</a>; rel=x; as"q=v`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Params = []Param{{`as"q`, "v"}} })}},
		{"B.3 step 2.5: ';;' is a parameter with an empty name", []string{`</a>;; rel=x`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Params = []Param{{"", ""}} })}},
		{"B.3 step 2.6: BWS before '='", []string{"</a>; rel \t= x"}, nil, []Link{l("/a", "x")}},
		{"B.3 step 2.7.2: BWS after '='", []string{"</a>; rel=\t x"}, nil, []Link{l("/a", "x")}},
		{"B.3 step 2.7.4: an unquoted value runs to ';' or ','", []string{`</llms.txt>; rel=describedby; type=text/plain`}, base,
			[]Link{with(l("https://example.com/llms.txt", "describedby"), func(k *Link) { k.Type = "text/plain" })}},
		{"B.3 step 2.7.4: an unquoted value may hold spaces, quotes and URIs", []string{`</a>; rel=x y; title=a "b" c; anchor=https://e.example/#s`}, nil,
			[]Link{with(l("/a", "x", "y"), func(k *Link) { k.Title = `a "b" c`; k.Anchor = "https://e.example/#s" })}},
		{"B.3 step 2.7.4: the whitespace before the delimiter is the grammar's OWS, not the value's", []string{"</a>; rel=x \t; type=a/b ,</b>; rel=y;title*=UTF-8''%c3%a9t%c3%a9\t, </c>; rel=z; title=a b \t"}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Type = "a/b" }), with(l("/b", "y"), func(k *Link) { k.Title = "été" }), with(l("/c", "z"), func(k *Link) { k.Title = "a b" })}},
		{"B.3 step 2.7.4: an empty unquoted value", []string{`</a>; rel=x; type=; title=`}, nil, []Link{l("/a", "x")}},
		{"B.3 step 2.7.5: a star value may be quoted", []string{`</a>; rel=x; title*="UTF-8''quoted"`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "quoted" })}},
		{"B.3 step 2.8: a parameter without '=' has the empty value", []string{`</a>; rel=x; crossorigin; nopush`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Params = []Param{{"crossorigin", ""}, {"nopush", ""}} })}},
		{"B.3 step 2.9: names are lower-cased", []string{`</a>; REL=x; TyPe=a/b; X-Ext=V`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Type = "a/b"; k.Params = []Param{{"x-ext", "V"}} })}},
		{"B.3 step 2.12: ',' ends the parameters", []string{`</a>; rel=x, </b>; rel=y`}, nil, []Link{l("/a", "x"), l("/b", "y")}},

		// B.4
		{"B.4 step 4.1: a backslash takes the next character", []string{`</a>; rel=x; title="say \"hi\" \\ \o"`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = `say "hi" \ o` })}},
		{"B.4 step 4.1.2: a backslash at the end returns what was read", []string{`</a>; rel=x; title="abc\`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "abc" })}},
		{"B.4 step 4.2: ',' and ';' inside quotes are data", []string{`</a>; title="a, b; c"; rel="x"`}, nil,
			[]Link{with(l("/a", "x"), func(k *Link) { k.Title = "a, b; c" })}},
		{"B.4 step 5: an unterminated string runs to the end", []string{`</a>; rel="x y`}, nil, []Link{l("/a", "x", "y")}},
		{"B.4: what follows the closing quote ends the field value", []string{`</a>; rel="x"y; type=t, </b>; rel=z`}, nil,
			[]Link{l("/a", "x")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.values, tc.base)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestParseReadsWhatStrictRefuses: the field values the section 3 grammar
// refuses that Appendix B reads, the measured case first.
func TestParseReadsWhatStrictRefuses(t *testing.T) {
	base := mustURL(t, "https://example.com/")
	for _, v := range []string{
		`</llms.txt>; rel=describedby; type=text/plain`,
		`</a>; rel=alternate; type=application/json`,
		`</a"b>; rel=x`,
		`</a>; rel=https://a.example/rel`,
	} {
		t.Run(v, func(t *testing.T) {
			_, strictErr := ParseStrict([]string{v}, base)
			assert.ErrorIs(t, strictErr, ErrMalformed, "the grammar refuses it")
			links, err := Parse([]string{v}, base)
			require.NoError(t, err)
			require.Len(t, links, 1, "Appendix B reads it")
			assert.NotEmpty(t, links[0].Rel)
		})
	}
}
