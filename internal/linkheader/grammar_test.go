package linkheader

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// The reference grammar: RFC 8288 Section 3 with the list rule of RFC 9110
// section 5.6.1, written straight from the ABNF, plus the one tolerance the
// package documents (an empty parameter between ';'s).
//
//	Link       = #link-value
//	link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//	quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE
//	qdtext     = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
//	quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
//
// The generator's URI-References are drawn from characters RFC 3986 allows
// or from ones it never does (space, CTL, '<'), so the reference needs no
// URI parser.

type refParam struct{ name, value string }

type refLink struct {
	target string
	params []refParam
}

func refTchar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// refURIChar: RFC 3986 Section 2, the unreserved, reserved and '%'
// characters.
func refURIChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("-._~:/?#[]@!$&'()*+,;=%", c) >= 0
}

// refParse reports whether s matches the grammar and returns its links.
func refParse(s string) ([]refLink, bool) {
	i := 0
	ows := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	token := func() string {
		j := i
		for i < len(s) && refTchar(s[i]) {
			i++
		}
		return s[j:i]
	}
	var links []refLink
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++
		}
		if i == len(s) {
			return links, true
		}
		if s[i] != '<' {
			return nil, false
		}
		j := i + 1
		for j < len(s) && refURIChar(s[j]) {
			j++
		}
		if j == len(s) || s[j] != '>' {
			return nil, false
		}
		l := refLink{target: s[i+1 : j]}
		i = j + 1
		for {
			ows()
			if i == len(s) || s[i] == ',' {
				break
			}
			if s[i] != ';' {
				return nil, false
			}
			i++
			ows()
			if i == len(s) || s[i] == ';' || s[i] == ',' {
				continue // the documented tolerance: an empty parameter
			}
			name := token()
			if name == "" {
				return nil, false
			}
			ows()
			p := refParam{name: strings.ToLower(name)}
			if i < len(s) && s[i] == '=' {
				i++
				ows()
				if i < len(s) && s[i] == '"' {
					i++
					var v strings.Builder
					closed := false
					for i < len(s) && !closed {
						c := s[i]
						switch {
						case c == '"':
							closed = true
						case c == '\\':
							if i+1 == len(s) || s[i+1] != '\t' && s[i+1] < ' ' || s[i+1] == 0x7f {
								return nil, false
							}
							i++
							v.WriteByte(s[i])
						case c == '\t' || c >= ' ' && c != 0x7f:
							v.WriteByte(c)
						default:
							return nil, false
						}
						i++
					}
					if !closed {
						return nil, false
					}
					p.value = v.String()
				} else if p.value = token(); p.value == "" {
					return nil, false
				}
			}
			if p.name == "title*" && !slices.ContainsFunc(l.params, func(q refParam) bool { return q.name == "title*" }) {
				// The first title* is an RFC 8187 ext-value (section 3.4.1).
				v, ok := refExtValue(p.value)
				if !ok {
					return nil, false
				}
				p.value = v
			}
			l.params = append(l.params, p)
		}
		links = append(links, l)
	}
}

// refExtValue decodes an RFC 8187 Section 3.2 ext-value in UTF-8 or
// ISO-8859-1: charset "'" [ language ] "'" value-chars, where value-chars
// are attr-chars and pct-encoded octets.
func refExtValue(v string) (string, bool) {
	parts := strings.SplitN(v, "'", 3)
	if len(parts) != 3 {
		return "", false
	}
	var out []byte
	for i := 0; i < len(parts[2]); i++ {
		c := parts[2][i]
		switch {
		case c == '%':
			if i+2 >= len(parts[2]) {
				return "", false
			}
			hi, lo := strings.IndexByte("0123456789abcdef", lowerByte(parts[2][i+1])), strings.IndexByte("0123456789abcdef", lowerByte(parts[2][i+2]))
			if hi < 0 || lo < 0 {
				return "", false
			}
			out = append(out, byte(hi<<4|lo))
			i += 2
		case refTchar(c) && c != '*' && c != '\'' && c != '%':
			out = append(out, c)
		default:
			return "", false
		}
	}
	switch strings.ToUpper(parts[0]) {
	case "UTF-8":
		return string(out), utf8.Valid(out)
	case "ISO-8859-1":
		var b strings.Builder
		for _, c := range out {
			b.WriteRune(rune(c))
		}
		return b.String(), true
	}
	return "", false
}

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// genHeader builds one Link field value from the grammar, and the byte
// spans of its targets.
func genHeader(r *rand.Rand) (string, [][2]int) {
	var spans [][2]int
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	word := func(alpha string, n int) string {
		var b strings.Builder
		for range 1 + r.IntN(n) {
			b.WriteByte(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	const tchars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~"
	const pathChars = "abcxyz0123456789-._~"
	ows := func() string { return pick("", "", " ", "\t", "  ") }
	var b strings.Builder
	// Empty list elements may lead (RFC 9110 Section 5.6.1.2).
	b.WriteString(pick("", "", ",", ", ", ","+ows()+","+ows()))
	for li := range 1 + r.IntN(4) {
		if li > 0 {
			b.WriteString(ows() + "," + pick("", ",", " ,") + ows())
		}
		b.WriteString("<")
		start := b.Len()
		b.WriteString(pick("https://a.example", "", "/", "https://b.example", "//c.example") + "/" + word(pathChars, 8))
		if r.IntN(3) == 0 {
			b.WriteString("?" + word(pathChars, 5) + "=" + word(pathChars, 5))
		}
		if r.IntN(4) == 0 {
			b.WriteString("#" + word(pathChars, 4))
		}
		spans = append(spans, [2]int{start, b.Len()})
		b.WriteString(">")
		for range r.IntN(5) {
			b.WriteString(ows() + ";" + ows())
			if r.IntN(12) == 0 {
				continue // an empty parameter
			}
			name := pick("rel", "REL", "type", "title", "title*", "media", "hreflang", "x-ext", "crossorigin", "a")
			if name == "title*" {
				// An RFC 8187 ext-value is a token, never quoted.
				b.WriteString(name + ows() + "=" + ows() + pick("UTF-8", "utf-8", "ISO-8859-1") + "'" + pick("", "en", "de-CH") + "'" + pick("", "a", "n%c3%a4chstes%20Kapitel", "%e2%82%ac", "caf%C3%A9", word("abc!#$&+-.^_`|~", 6)))
				continue
			}
			b.WriteString(name)
			if r.IntN(5) == 0 {
				continue // no value
			}
			b.WriteString(ows() + "=" + ows())
			if r.IntN(2) == 0 {
				b.WriteString(word(tchars, 10))
			} else {
				q := word(tchars+" \t,;=/:@()<>[]{}?\x80\xff", 12)
				q = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(q)
				if r.IntN(4) == 0 {
					q += `\"` + word(tchars, 3)
				}
				b.WriteString(`"` + q + `"`)
			}
		}
	}
	// And trail, each with the OWS the list rule allows before its comma.
	b.WriteString(pick("", "", ows()+",", ows()+","+ows()+","))
	return b.String(), spans
}

// mutate inserts, replaces or deletes one byte, drawn mostly from the bytes
// that matter to the grammar. Inside a target, or at its end, it puts only characters RFC
// 3986 never allows, so that the target stays a URI-reference or becomes
// plainly none.
func mutate(r *rand.Rand, s string, spans [][2]int) string {
	const hostile = " \t,;=\"\\<>/:@()[]{}?\x00\x01\x1f\x7f\x80\xffé"
	const never = " \t\"<\\^`{|}\x00\x01\x7f\x80\xff"
	i := r.IntN(len(s) + 1)
	c := string(hostile[r.IntN(len(hostile))])
	for _, sp := range spans {
		if i >= sp[0] && i <= sp[1] {
			c = string(never[r.IntN(len(never))])
		}
	}
	switch r.IntN(3) {
	case 0:
		return s[:i] + c + s[i:]
	case 1:
		if i < len(s) {
			return s[:i] + c + s[i+1:]
		}
		return s + c
	default:
		if i < len(s) {
			return s[:i] + s[i+1:]
		}
		return s
	}
}

func TestGeneratedGrammar(t *testing.T) {
	r := rand.New(rand.NewPCG(8288, 9110))
	const n = 4000
	valid, hostile, accepted, starred := 0, 0, 0, 0
	for k := range n {
		h, spans := genHeader(r)
		if k%2 == 1 {
			h = mutate(r, h, spans)
			hostile++
		}
		want, ok := refParse(h)
		got, err := ParseStrict([]string{h}, nil)
		if !assert.Equal(t, ok, err == nil, "header %q: reference grammar %v, Parse error %v", h, ok, err) {
			continue
		}
		if !ok {
			assert.ErrorIs(t, err, ErrMalformed, "header %q", h)
			continue
		}
		accepted++
		if k%2 == 0 {
			valid++
		}
		if !assert.Len(t, got, len(want), "header %q", h) {
			continue
		}
		for i, w := range want {
			assert.Equal(t, w.target, got[i].Target, "header %q", h)
			assert.Equal(t, refView(w), linkView(got[i]), "header %q", h)
		}
		// What the grammar accepts, the reader reads the same way: the
		// link-values with a relation type (Appendix B.2 step 17), every
		// relation type lower-cased (step 17.1), the empty parameter of
		// ";;" as the attribute named "" (B.3 steps 5 and 10), and every
		// value as the grammar delimits it: the OWS before the ";" or ","
		// that ends an unquoted value is the grammar's, not the value's.
		read, err := Parse([]string{h}, nil)
		if !assert.NoError(t, err, "header %q", h) {
			continue
		}
		// A star parameter other than title* (a mutation's "itle*")
		// replaces its plain form in the reader (Appendix B.2 step 16),
		// which the grammar does not say; the appendix's tests cover it.
		if slices.ContainsFunc(got, func(l Link) bool {
			return slices.ContainsFunc(l.Params, func(p Param) bool { return strings.HasSuffix(p.Name, "*") })
		}) {
			starred++
			continue
		}
		var withRel []Link
		for _, l := range got {
			if len(l.Rel) > 0 {
				l.Rel = slices.Clone(l.Rel)
				for i := range l.Rel {
					l.Rel[i] = asciiLower(l.Rel[i])
				}
				withRel = append(withRel, l)
			}
		}
		for i := range read {
			read[i].Params = slices.DeleteFunc(read[i].Params, func(p Param) bool { return p.Name == "" })
			if len(read[i].Params) == 0 {
				read[i].Params = nil
			}
		}
		assert.Equal(t, withRel, read, "header %q: the reader and the grammar differ", h)
	}
	assert.Equal(t, n/2, valid, "every generated valid header is accepted")
	t.Logf("%d generated headers (%d mutated): %d accepted, %d refused, all as the reference grammar says; Parse read the %d accepted without an extension star parameter as the grammar does", n, hostile, accepted, n-accepted, accepted-starred)
}

// refView applies the attribute rules of RFC 8288 Section 3 to a reference
// link: the first rel, type, title and media count, hreflang repeats, the
// rest is kept in order.
func refView(l refLink) map[string]string {
	m := map[string]string{"rel": "", "type": "", "title": "", "media": ""}
	seen := map[string]bool{}
	var other, hreflang []string
	for _, p := range l.params {
		switch p.name {
		case "title*":
			// The first title* gives the title, over any title.
			if !seen[p.name] {
				seen[p.name] = true
				m["title"] = p.value
			}
		case "title":
			if !seen[p.name] {
				seen[p.name] = true
				if !seen["title*"] {
					m["title"] = p.value
				}
			}
		case "rel", "type", "media":
			if !seen[p.name] {
				seen[p.name] = true
				m[p.name] = p.value
			}
		case "hreflang":
			hreflang = append(hreflang, p.value)
		default:
			other = append(other, p.name+"="+p.value)
		}
	}
	var rels []string
	for _, r := range strings.Fields(m["rel"]) {
		if !strings.Contains(r, ":") {
			r = asciiLower(r)
		}
		rels = append(rels, r)
	}
	m["rel"] = strings.Join(rels, " ")
	m["hreflang"] = strings.Join(hreflang, " ")
	m["other"] = strings.Join(other, ";")
	return m
}

func linkView(l Link) map[string]string {
	var other []string
	for _, p := range l.Params {
		other = append(other, p.Name+"="+p.Value)
	}
	return map[string]string{
		"rel": strings.Join(l.Rel, " "), "type": l.Type, "title": l.Title, "media": l.Media,
		"hreflang": strings.Join(l.Hreflang, " "), "other": strings.Join(other, ";"),
	}
}
