package linkheader

import (
	"strings"
	"unicode/utf8"
)

// Format writes links as one Link field value in RFC 8288 Section 3 syntax,
// link-values separated by ", ". [ParseStrict] accepts it, and both it and
// [Parse] read back the same links. Parse lower-cases every relation type and
// leaves out a link without one.
//
// Every attribute value is written as a quoted-string. A Title that is not
// printable ASCII is written as title* in the RFC 8187 UTF-8 form. Bytes that
// cannot appear in a target URI (controls, space, '<' and '>') are
// percent-encoded, and control characters that cannot appear in a
// quoted-string are dropped. Relation types must not contain whitespace, and
// parameter names must be tokens (RFC 9110 Section 5.6.2). Params named like
// a [Link] field ("rel", "title" ...) are written, but read back into that
// field only if the field is empty.
func Format(links ...Link) string {
	var b strings.Builder
	for i, l := range links {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('<')
		writeTarget(&b, l.Target)
		b.WriteByte('>')
		if len(l.Rel) > 0 {
			writeParam(&b, "rel", strings.Join(l.Rel, " "))
		}
		if l.Anchor != "" {
			writeParam(&b, "anchor", l.Anchor)
		}
		if l.Type != "" {
			writeParam(&b, "type", l.Type)
		}
		for _, h := range l.Hreflang {
			writeParam(&b, "hreflang", h)
		}
		if l.Title != "" {
			writeTitle(&b, l.Title)
		}
		if l.Media != "" {
			writeParam(&b, "media", l.Media)
		}
		for _, p := range l.Params {
			if p.Value == "" {
				b.WriteString("; ")
				b.WriteString(p.Name)
				continue
			}
			writeParam(&b, p.Name, p.Value)
		}
	}
	return b.String()
}

const hexDigits = "0123456789ABCDEF"

func writeTarget(b *strings.Builder, t string) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c <= ' ' || c == 0x7f || c == '<' || c == '>' {
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
			continue
		}
		b.WriteByte(c)
	}
}

func writeParam(b *strings.Builder, name, value string) {
	b.WriteString("; ")
	b.WriteString(name)
	b.WriteString(`="`)
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case isCTL(c):
			// Not representable in a quoted-string: dropped.
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

func isCTL(c byte) bool { return c < ' ' && c != '\t' || c == 0x7f }

// writeTitle writes title, or title* (RFC 8187 Section 3.2) when the value
// is valid UTF-8 that is not all printable ASCII.
func writeTitle(b *strings.Builder, title string) {
	plain := true
	for i := 0; i < len(title); i++ {
		if c := title[i]; isCTL(c) || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain || !utf8.ValidString(title) {
		writeParam(b, "title", title)
		return
	}
	b.WriteString("; title*=UTF-8''")
	for i := 0; i < len(title); i++ {
		c := title[i]
		if isAttrChar(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
}
