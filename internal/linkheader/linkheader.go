package linkheader

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// MaxLinks is the largest number of links [Parse] accepts across all field
// values of one response.
const MaxLinks = 1024

// ErrMalformed is the sentinel every [*SyntaxError] unwraps to.
var ErrMalformed = errors.New("linkheader: malformed Link header")

// ErrTooManyLinks is returned (wrapped) when the fields hold more than
// [MaxLinks] links.
var ErrTooManyLinks = errors.New("linkheader: too many links")

// SyntaxError locates a grammar violation: Value is the index of the field
// value in the slice given to [Parse] and Offset the byte offset within it.
type SyntaxError struct {
	Value  int
	Offset int
	Reason string
}

// Error implements the error interface.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("linkheader: Link field value %d, byte offset %d: %s", e.Value, e.Offset, e.Reason)
}

// Unwrap returns [ErrMalformed].
func (e *SyntaxError) Unwrap() error { return ErrMalformed }

// Link is one link-value of a Link header field (RFC 8288 section 3).
type Link struct {
	// Target is the target URI-reference, resolved against the base URL
	// when one was given to Parse.
	Target string
	// Rel holds the relation types of the "rel" attribute split on
	// whitespace (section 3.3). Registered relation types (those that are
	// not URIs) are lower-cased; extension relation types are kept as sent.
	Rel []string
	// Anchor is the "anchor" attribute (section 3.2), resolved against the
	// base URL when one was given; "" when absent.
	Anchor string
	// Type is the "type" attribute, a media type hint.
	Type string
	// Title is the "title" attribute, or the decoded "title*" attribute
	// (section 3.4.1, RFC 8187) when present.
	Title string
	// Media is the "media" attribute.
	Media string
	// Hreflang holds every "hreflang" attribute in order.
	Hreflang []string
	// Params holds every other target attribute in order, names
	// lower-cased.
	Params []Param
}

// Param is one target attribute that has no field of its own in [Link]. A
// parameter sent without a value has Value "".
type Param struct {
	Name  string
	Value string
}

// HasRel reports whether l has the relation type rel. Registered relation
// types compare case-insensitively, extension relation types (URIs) exactly
// (RFC 8288 section 2.1).
func (l Link) HasRel(rel string) bool {
	for _, r := range l.Rel {
		if r == rel || !isURIRel(rel) && strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// Param returns the value of the first parameter named name (compared
// case-insensitively) in [Link.Params], and whether there was one.
func (l Link) Param(name string) (string, bool) {
	for _, p := range l.Params {
		if strings.EqualFold(p.Name, name) {
			return p.Value, true
		}
	}
	return "", false
}

func isURIRel(rel string) bool { return strings.Contains(rel, ":") }

// Parse parses the Link field values (as returned by
// http.Header.Values("Link")) into links, in order. Relative targets and
// anchors are resolved against base unless base is nil. An error is a
// [*SyntaxError] wrapping [ErrMalformed], or wraps [ErrTooManyLinks].
func Parse(values []string, base *url.URL) ([]Link, error) {
	var links []Link
	for i, v := range values {
		p := parser{s: v, idx: i, base: base}
		var err error
		links, err = p.parse(links)
		if err != nil {
			return nil, err
		}
	}
	return links, nil
}

type parser struct {
	s    string
	p    int
	idx  int
	base *url.URL
}

func (p *parser) errorf(off int, format string, a ...any) error {
	return &SyntaxError{Value: p.idx, Offset: off, Reason: fmt.Sprintf(format, a...)}
}

func (p *parser) skipOWS() {
	for p.p < len(p.s) && (p.s[p.p] == ' ' || p.s[p.p] == '\t') {
		p.p++
	}
}

func (p *parser) parse(links []Link) ([]Link, error) {
	for {
		// Empty list elements and whitespace are tolerated (RFC 9110 5.6.1).
		for p.p < len(p.s) && (p.s[p.p] == ' ' || p.s[p.p] == '\t' || p.s[p.p] == ',') {
			p.p++
		}
		if p.p >= len(p.s) {
			return links, nil
		}
		l, err := p.link()
		if err != nil {
			return nil, err
		}
		if len(links) >= MaxLinks {
			return nil, fmt.Errorf("%w: more than %d", ErrTooManyLinks, MaxLinks)
		}
		links = append(links, l)
	}
}

// link parses one link-value starting at p.p.
func (p *parser) link() (Link, error) {
	var l Link
	start := p.p
	if p.s[p.p] != '<' {
		return l, p.errorf(p.p, "expected '<' at the start of a link, found %q", p.s[p.p])
	}
	end := strings.IndexByte(p.s[p.p+1:], '>')
	if end < 0 {
		return l, p.errorf(start, "unterminated target: no '>'")
	}
	raw := p.s[p.p+1 : p.p+1+end]
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; !isURIChar(c) {
			return l, p.errorf(p.p+1+i, "invalid character %q in target URI", c)
		}
	}
	target, err := p.resolve(raw)
	if err != nil {
		return l, p.errorf(p.p+1, "invalid target URI %q: %v", raw, unwrapURLError(err))
	}
	l.Target = target
	p.p += end + 2

	var seenRel, seenAnchor, seenType, seenTitle, seenMedia, seenTitleStar bool
	for {
		p.skipOWS()
		if p.p >= len(p.s) || p.s[p.p] == ',' {
			return l, nil
		}
		if p.s[p.p] != ';' {
			return l, p.errorf(p.p, "expected ';' or ',' after a link, found %q", p.s[p.p])
		}
		p.p++
		p.skipOWS()
		if p.p >= len(p.s) || p.s[p.p] == ',' || p.s[p.p] == ';' {
			continue // an empty parameter: tolerated
		}
		nameOff := p.p
		for p.p < len(p.s) && isTchar(p.s[p.p]) {
			p.p++
		}
		if p.p == nameOff {
			return l, p.errorf(p.p, "expected a parameter name, found %q", p.s[p.p])
		}
		name := strings.ToLower(p.s[nameOff:p.p])
		p.skipOWS()
		value := ""
		quoted := false
		if p.p < len(p.s) && p.s[p.p] == '=' {
			p.p++
			p.skipOWS()
			if p.p < len(p.s) && p.s[p.p] == '"' {
				value, err = p.quoted()
				if err != nil {
					return l, err
				}
				quoted = true
			} else {
				// An unquoted value is a token (RFC 8288 section 3,
				// RFC 9110 section 5.6.2), followed only by whitespace
				// before the next ';' or ','.
				vs := p.p
				for p.p < len(p.s) && isTchar(p.s[p.p]) {
					p.p++
				}
				value = p.s[vs:p.p]
				if value == "" {
					if p.p < len(p.s) {
						return l, p.errorf(p.p, "parameter %s: expected a token or a quoted string, found %q", name, p.s[p.p])
					}
					return l, p.errorf(p.p, "parameter %s: expected a token or a quoted string, found the end", name)
				}
				ws := p.p
				p.skipOWS()
				if p.p < len(p.s) && p.s[p.p] != ';' && p.s[p.p] != ',' {
					if p.p == ws {
						return l, p.errorf(p.p, "parameter %s: character %q is not allowed in a token (quote the value)", name, p.s[p.p])
					}
					return l, p.errorf(p.p, "parameter %s: unquoted value %q is followed by %q (a token holds no whitespace; quote the value)", name, value, p.s[p.p])
				}
			}
		}
		switch name {
		case "rel":
			if !seenRel {
				seenRel = true
				l.Rel = splitRel(value)
			}
		case "anchor":
			if !seenAnchor {
				seenAnchor = true
				a, err := p.resolve(value)
				if err != nil {
					return l, p.errorf(nameOff, "invalid anchor URI %q: %v", value, unwrapURLError(err))
				}
				l.Anchor = a
			}
		case "type":
			if !seenType {
				seenType = true
				l.Type = value
			}
		case "media":
			if !seenMedia {
				seenMedia = true
				l.Media = value
			}
		case "hreflang":
			l.Hreflang = append(l.Hreflang, value)
		case "title":
			if !seenTitle {
				seenTitle = true
				if !seenTitleStar {
					l.Title = value
				}
			}
		case "title*":
			if !seenTitleStar {
				t, err := decodeExtValue(value, quoted)
				if err != nil {
					return l, p.errorf(nameOff, "invalid title* value %q: %v", value, err)
				}
				seenTitleStar = true
				l.Title = t
			}
		default:
			l.Params = append(l.Params, Param{Name: name, Value: value})
		}
	}
}

func (p *parser) resolve(ref string) (string, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if p.base == nil {
		return ref, nil
	}
	abs := p.base.ResolveReference(u).String()
	// net/url accepts some references, such as "//::", whose resolution
	// it then refuses to parse; such a target is not a usable URI.
	if _, err := url.Parse(abs); err != nil {
		return "", err
	}
	return abs, nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// quoted reads a quoted-string (RFC 9110 section 5.6.4) starting at the
// opening quote and returns its unescaped content.
func (p *parser) quoted() (string, error) {
	start := p.p
	p.p++
	var b []byte
	from := p.p
	for p.p < len(p.s) {
		c := p.s[p.p]
		switch {
		case c == '"':
			v := p.s[from:p.p]
			if b != nil {
				v = string(append(b, v...))
			}
			p.p++
			return v, nil
		case c == '\\':
			if p.p+1 >= len(p.s) {
				return "", p.errorf(p.p, "unterminated quoted-pair")
			}
			e := p.s[p.p+1]
			if e < ' ' && e != '\t' || e == 0x7f {
				return "", p.errorf(p.p+1, "control character %q in quoted-pair", e)
			}
			b = append(b, p.s[from:p.p]...)
			b = append(b, e)
			p.p += 2
			from = p.p
		case c < ' ' && c != '\t' || c == 0x7f:
			return "", p.errorf(p.p, "control character %q in quoted string", c)
		default:
			p.p++
		}
	}
	return "", p.errorf(start, "unterminated quoted string")
}

func splitRel(v string) []string {
	rels := strings.Fields(v)
	for i, r := range rels {
		if !isURIRel(r) {
			rels[i] = strings.ToLower(r)
		}
	}
	if len(rels) == 0 {
		return nil
	}
	return rels
}

// decodeExtValue decodes an RFC 8187 section 3.2 ext-value:
// charset "'" [ language ] "'" value-chars. UTF-8 and ISO-8859-1 are
// supported; the result must be valid UTF-8.
func decodeExtValue(v string, quoted bool) (string, error) {
	if quoted {
		return "", errors.New("an ext-value must not be quoted")
	}
	cs, rest, ok := strings.Cut(v, "'")
	if !ok {
		return "", errors.New("missing charset delimiter")
	}
	_, enc, ok := strings.Cut(rest, "'")
	if !ok {
		return "", errors.New("missing language delimiter")
	}
	raw, err := url.PathUnescape(enc)
	if err != nil {
		return "", errors.New("invalid percent-encoding")
	}
	for i := 0; i < len(enc); i++ {
		if c := enc[i]; c != '%' && !isAttrChar(c) {
			return "", fmt.Errorf("character %q not allowed in an ext-value", c)
		}
	}
	switch {
	case strings.EqualFold(cs, "UTF-8"):
		if !utf8.ValidString(raw) {
			return "", errors.New("invalid UTF-8")
		}
		return raw, nil
	case strings.EqualFold(cs, "ISO-8859-1"):
		r := make([]rune, len(raw))
		for i := 0; i < len(raw); i++ {
			r[i] = rune(raw[i])
		}
		return string(r), nil
	default:
		return "", fmt.Errorf("unsupported charset %q", cs)
	}
}

// isTchar reports whether c is a token character (RFC 9110 section 5.6.2).
// The '*' that ends an extended parameter name is a tchar.
func isTchar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// isURIChar reports whether c may appear in a URI-reference (RFC 3986
// section 2): a printable US-ASCII character other than the ones RFC 3986
// never allows (space, '"', '<', '>', '\\', '^', '`', '{', '|', '}').
func isURIChar(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"<>\\^`{|}", c) < 0
}

// isAttrChar reports whether c is an attr-char (RFC 8187 section 3.2.1).
func isAttrChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}
