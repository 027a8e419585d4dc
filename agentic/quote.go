package agentic

import (
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// appendJSString appends s as JavaScript's JSON.stringify writes a string:
// '"' and '\' escaped, \b \f \n \r \t by name, the other C0 controls as \u00xx,
// and everything else, '<', '>', '&', '/' and U+2028 included, literal.
// Invalid UTF-8 (which a JavaScript string cannot hold) is written as U+FFFD.
// When txt is true it also escapes, as the reference TXT generator does, each
// of U+007F–U+009F, U+200B–U+200F, U+2028–U+202E, U+2060–U+206F and U+FEFF as
// \u with four lower-case hex digits (TXT 1.1, "Strings use JSON quoting with
// control, directional, and invisible formatting characters escaped").
func appendJSString(b []byte, s string, txt bool) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				if c < 0x20 || (txt && c == 0x7f) {
					b = appendU4(b, rune(c))
				} else {
					b = append(b, c)
				}
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if txt && txtEscaped(r) {
			b = appendU4(b, r)
		} else if r == utf8.RuneError && size == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// txtEscaped reports whether the TXT generator writes r as a \u escape.
func txtEscaped(r rune) bool {
	return (r >= 0x7f && r <= 0x9f) || (r >= 0x200b && r <= 0x200f) ||
		(r >= 0x2028 && r <= 0x202e) || (r >= 0x2060 && r <= 0x206f) || r == 0xfeff
}

func appendU4(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// quoteTXT returns s quoted for a TXT line.
func quoteTXT(s string) string { return string(appendJSString(nil, s, true)) }

// jsStringLen returns the UTF-8 length of JSON.stringify(s).
func jsStringLen(s string) int { return len(appendJSString(make([]byte, 0, len(s)+8), s, false)) }

// appendInt appends a decimal integer.
func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
