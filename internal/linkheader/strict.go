package linkheader

import (
	"fmt"
	"net/url"
	"strings"
)

// ParseStrict parses the Link field values (as returned by
// http.Header.Values("Link")) into links, in order. It uses the grammar
// of [RFC 8288] Section 3, the grammar a publisher must write. A field
// that strays from it is an error, never read around. Relative targets
// and anchors are resolved against base unless base is nil. An error is a
// [*SyntaxError] wrapping [ErrMalformed], or wraps [ErrTooManyLinks].
//
// ParseStrict judges what a publisher sends; a client reading what the web
// sends uses [Parse].
func ParseStrict(values []string, base *url.URL) ([]Link, error) {
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
		name := asciiLower(p.s[nameOff:p.p])
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
				// An unquoted value is a token (RFC 8288 Section 3,
				// RFC 9110 Section 5.6.2), followed only by whitespace
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

func (p *parser) resolve(ref string) (string, error) { return resolve(p.base, ref) }

// quoted reads a quoted-string (RFC 9110 Section 5.6.4) starting at the
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
			rels[i] = asciiLower(r)
		}
	}
	if len(rels) == 0 {
		return nil
	}
	return rels
}
