package linkheader

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

// readCases reads testdata/rfc8288-3.5.txt: blocks separated by blank lines,
// one field value per line, # comments.
func readCases(t testing.TB) [][]string {
	b, err := os.ReadFile("testdata/rfc8288-3.5.txt")
	require.NoError(t, err)
	var cases [][]string
	var cur []string
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			if cur != nil {
				cases = append(cases, cur)
				cur = nil
			}
		default:
			cur = append(cur, line)
		}
	}
	if cur != nil {
		cases = append(cases, cur)
	}
	return cases
}

func TestRFC8288Examples(t *testing.T) {
	base := mustURL(t, "https://example.com/TheBook/chapter3")
	type result struct {
		Values []string
		Links  []Link
	}
	var got []result
	for _, vals := range readCases(t) {
		links, err := ParseStrict(vals, base)
		require.NoError(t, err, "%q", vals)
		got = append(got, result{vals, links})

		// The reader reads the section's examples as the grammar does.
		read, err := Parse(vals, base)
		require.NoError(t, err)
		assert.Equal(t, links, read, "%q", vals)

		// Round trip through Format.
		again, err := ParseStrict([]string{Format(links...)}, base)
		require.NoError(t, err)
		assert.Equal(t, links, again)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(got))
	out := buf.Bytes()
	golden := "testdata/rfc8288-3.5.golden.json"
	if *update {
		require.NoError(t, os.WriteFile(golden, out, 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(out))
}

func TestParseStrict(t *testing.T) {
	base := mustURL(t, "https://example.com/a/b")
	tests := []struct {
		name   string
		values []string
		base   *url.URL
		want   []Link
	}{
		{"rfc example 1", []string{`<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter"`}, nil,
			[]Link{{Target: "http://example.com/TheBook/chapter2", Rel: []string{"previous"}, Title: "previous chapter"}}},
		{"rfc anchor", []string{`</terms>; rel="copyright"; anchor="#foo"`}, base,
			[]Link{{Target: "https://example.com/terms", Rel: []string{"copyright"}, Anchor: "https://example.com/a/b#foo"}}},
		{"rfc title*", []string{`</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel`}, nil,
			[]Link{
				{Target: "/TheBook/chapter2", Rel: []string{"previous"}, Title: "letztes Kapitel"},
				{Target: "/TheBook/chapter4", Rel: []string{"next"}, Title: "nächstes Kapitel"},
			}},
		{"rfc several rels", []string{`<http://example.org/>; rel="start http://example.net/relation/other"`}, nil,
			[]Link{{Target: "http://example.org/", Rel: []string{"start", "http://example.net/relation/other"}}}},
		{"several values", []string{`<https://example.org/>; rel="start"`, `<https://example.org/index>; rel="index"`}, nil,
			[]Link{{Target: "https://example.org/", Rel: []string{"start"}}, {Target: "https://example.org/index", Rel: []string{"index"}}}},
		{"relative resolved", []string{`<c>; rel=next`, `<../d?x=1#f>; rel=prev`, `<//cdn.example/x>; rel=preload`}, base,
			[]Link{
				{Target: "https://example.com/a/c", Rel: []string{"next"}},
				{Target: "https://example.com/d?x=1#f", Rel: []string{"prev"}},
				{Target: "https://cdn.example/x", Rel: []string{"preload"}},
			}},
		{"comma and semicolon in quotes", []string{`</a>; title="a, b; c", </b>; rel="x"`}, nil,
			[]Link{{Target: "/a", Title: "a, b; c"}, {Target: "/b", Rel: []string{"x"}}}},
		{"quoted-pair", []string{`</a>; title="say \"hi\" \\ \o"`}, nil,
			[]Link{{Target: "/a", Title: `say "hi" \ o`}}},
		{"comma in target", []string{`</a,b>; rel=x`}, nil, []Link{{Target: "/a,b", Rel: []string{"x"}}}},
		{"case of names and registered rels", []string{`</a>; REL="Next PREV https://Example.com/Rel"; Type="text/HTML"`}, nil,
			[]Link{{Target: "/a", Rel: []string{"next", "prev", "https://Example.com/Rel"}, Type: "text/HTML"}}},
		{"first rel wins", []string{`</a>; rel=a; rel=b; anchor="#1"; anchor="#2"; type=x; type=y; media=m1; media=m2`}, nil,
			[]Link{{Target: "/a", Rel: []string{"a"}, Anchor: "#1", Type: "x", Media: "m1"}}},
		{"hreflang repeated", []string{`</a>; hreflang=en; hreflang="de-AT"`}, nil,
			[]Link{{Target: "/a", Hreflang: []string{"en", "de-AT"}}}},
		{"title* preferred after title", []string{`</a>; title="plain"; title*=utf-8''%E2%82%AC%20rates`}, nil,
			[]Link{{Target: "/a", Title: "€ rates"}}},
		{"title* preferred before title", []string{`</a>; title*=UTF-8'en'x; title="plain"`}, nil,
			[]Link{{Target: "/a", Title: "x"}}},
		{"title* iso-8859-1", []string{`</a>; title*=iso-8859-1'fr'caf%E9`}, nil,
			[]Link{{Target: "/a", Title: "café"}}},
		{"unknown params kept in order", []string{`</style.css>; rel=preload; as=style; crossorigin; nopush; X-Custom="v w"; ext*=UTF-8''%41`}, nil,
			[]Link{{Target: "/style.css", Rel: []string{"preload"}, Params: []Param{{"as", "style"}, {"crossorigin", ""}, {"nopush", ""}, {"x-custom", "v w"}, {"ext*", "UTF-8''%41"}}}}},
		{"whitespace and empty elements", []string{" , ,\t</a> ;rel = \"x\" ; ; ,, </b>;  ", "", "  ,  "}, nil,
			[]Link{{Target: "/a", Rel: []string{"x"}}, {Target: "/b"}}},
		{"empty rel", []string{`</a>; rel=""`}, nil, []Link{{Target: "/a"}}},
		{"empty target", []string{`<>; rel=self`}, base, []Link{{Target: "https://example.com/a/b", Rel: []string{"self"}}}},
		{"no values", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseStrict(tc.values, tc.base)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseStrictErrors(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		value  int
		offset int
	}{
		{"no angle brackets", []string{`https://example.com/; rel=x`}, 0, 0},
		{"unterminated target", []string{`</a; rel=x`}, 0, 0},
		{"space in target", []string{`</a b>; rel=x`}, 0, 3},
		{"garbage after target", []string{`</a> x; rel=y`}, 0, 5},
		{"second value bad", []string{`</a>; rel=x`, `</b>; rel=y, oops`}, 1, 13},
		{"missing param name", []string{`</a>; =x`}, 0, 6},
		{"bad param name", []string{`</a>; r@l=x`}, 0, 7},
		{"unterminated quote", []string{`</a>; title="abc`}, 0, 12},
		{"control char in quote", []string{"</a>; title=\"a\x01\""}, 0, 14},
		{"control char in token", []string{"</a>; rel=a\x00b"}, 0, 11},
		{"dangling quoted-pair", []string{`</a>; title="abc\`}, 0, 16},
		{"bad target URI", []string{`<http://[::1>; rel=x`}, 0, 1},
		{"target that resolves to an invalid URI", []string{`<//::>`}, 0, 1},
		{"bad anchor URI", []string{`</a>; anchor="%zz"`}, 0, 6},
		{"title* no charset", []string{`</a>; title*=abc`}, 0, 6},
		{"title* bad pct", []string{`</a>; title*=UTF-8''%zz`}, 0, 6},
		{"title* bad utf8", []string{`</a>; title*=UTF-8''%ff`}, 0, 6},
		{"title* unknown charset", []string{`</a>; title*=koi8-r''abc`}, 0, 6},
		{"title* quoted", []string{`</a>; title*="UTF-8''abc"`}, 0, 6},
		{"title* space", []string{`</a>; title*=UTF-8''a b`}, 0, 22},
		// An unquoted value is a token (RFC 8288 Section 3, RFC 9110
		// section 5.6.2): a '/' or a space needs quotes.
		{"unquoted type with slash", []string{`</a>; rel=alternate; type=application/json`}, 0, 37},
		{"unquoted value with a space", []string{`<https://a.example/>; rel=x garbage`}, 0, 28},
		{"unquoted value with a tab", []string{"</a>; rel=x\ty"}, 0, 12},
		{"unquoted URI", []string{`</a>; rel=https://a.example/rel`}, 0, 15},
		{"empty value", []string{`</a>; rel=`}, 0, 10},
		{"empty value before ;", []string{`</a>; rel= ; type="x"`}, 0, 11},
		{"quote after a token", []string{`</a>; rel=x"y"`}, 0, 11},
		{"non-ASCII token", []string{"</a>; rel=n\u00e4chst"}, 0, 11},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseStrict(tc.values, mustURL(t, "https://example.com/dir/"))
			assert.Nil(t, got)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrMalformed)
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.value, se.Value)
			assert.Equal(t, tc.offset, se.Offset, se.Reason)
			assert.True(t, strings.HasPrefix(err.Error(), "linkheader: "))
		})
	}
}

func TestMaxLinks(t *testing.T) {
	one := strings.Repeat("</a>; rel=x, ", MaxLinks/2)
	for name, parse := range map[string]func([]string, *url.URL) ([]Link, error){"Parse": Parse, "ParseStrict": ParseStrict} {
		t.Run(name, func(t *testing.T) {
			links, err := parse([]string{one, one}, nil)
			require.NoError(t, err)
			assert.Len(t, links, MaxLinks)

			links, err = parse([]string{one, one, "</b>; rel=y"}, nil)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrTooManyLinks))
			if name == "Parse" {
				assert.Len(t, links, MaxLinks, "the reader keeps the first MaxLinks links")
			}
		})
	}
}

func TestHasRelAndParam(t *testing.T) {
	links, err := Parse([]string{`</a>; rel="Describedby https://Example.com/rel"; as=style`}, nil)
	require.NoError(t, err)
	l := links[0]
	assert.True(t, l.HasRel("describedby"))
	assert.True(t, l.HasRel("DescribedBy"))
	assert.True(t, l.HasRel("https://Example.com/rel"))
	// RFC 8288 Section 2.1.2: extension relation types compare
	// case-insensitively too.
	assert.True(t, l.HasRel("https://example.com/REL"))
	assert.False(t, l.HasRel("describes"))
	v, ok := l.Param("AS")
	assert.True(t, ok)
	assert.Equal(t, "style", v)
	_, ok = l.Param("crossorigin")
	assert.False(t, ok)
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name  string
		links []Link
		want  string
	}{
		{"simple", []Link{{Target: "/.well-known/knowledge-linkset", Rel: []string{"describedby"}, Type: "application/linkset+json"}},
			`</.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json"`},
		{"all fields", []Link{{Target: "https://example.com/x", Rel: []string{"alternate", "https://example.net/rel"}, Anchor: "#a",
			Type: "text/html", Title: `say "hi"`, Media: "screen", Hreflang: []string{"en", "de"}, Params: []Param{{"as", "document"}, {"crossorigin", ""}}}},
			`<https://example.com/x>; rel="alternate https://example.net/rel"; anchor="#a"; type="text/html"; hreflang="en"; hreflang="de"; title="say \"hi\""; media="screen"; as="document"; crossorigin`},
		{"non-ascii title", []Link{{Target: "/c4", Rel: []string{"next"}, Title: "nächstes Kapitel"}},
			`</c4>; rel="next"; title*=UTF-8''n%C3%A4chstes%20Kapitel`},
		{"control in title", []Link{{Target: "/a", Title: "a\nb"}}, `</a>; title*=UTF-8''a%0Ab`},
		{"unsafe target bytes", []Link{{Target: "/a b<c>"}}, `</a%20b%3Cc%3E>`},
		{"two links", []Link{{Target: "/a"}, {Target: "/b", Rel: []string{"x"}}}, `</a>, </b>; rel="x"`},
		{"none", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Format(tc.links...)
			assert.Equal(t, tc.want, got)
			back, err := ParseStrict([]string{got}, nil)
			require.NoError(t, err)
			if tc.name != "unsafe target bytes" {
				assert.Equal(t, tc.links, back)
			}
		})
	}
}
