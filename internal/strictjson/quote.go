package strictjson

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s to b as a JSON string, quoted as JavaScript's
// JSON.stringify writes it, and as RFC 8785 (JSON Canonicalization Scheme)
// Section 3.2.2.2 does. The quotation mark and the reverse solidus are
// escaped, and \b, \f, \n, \r and \t by name. The other C0 controls (U+0000 to
// U+001F) are written as \u00xx with lower-case hexadecimal digits. Every
// other character, DEL, '/', '<', '>', '&' and U+2028 included, is written as
// it is. Invalid UTF-8 (which neither a JavaScript string nor an I-JSON text
// can hold) is written as U+FFFD, one replacement character per invalid byte.
func AppendString(b []byte, s string) []byte {
	return AppendStringFunc(b, s, nil)
}

// AppendStringFunc is [AppendString] with extra escapes. Every character from
// U+007F (DEL) up for which escape returns true is written as a \u escape
// instead of literally. The escape has four lower-case hexadecimal digits, or
// is a UTF-16 surrogate pair above U+FFFF. Printable ASCII is always literal,
// and the characters AppendString escapes are always escaped. A replacement
// of invalid UTF-8 is offered to escape as U+FFFD. A nil escape is
// AppendString.
func AppendStringFunc(b []byte, s string, escape func(r rune) bool) []byte {
	b = append(b, '"')
	literal := &plain // the ASCII bytes written as they are
	if escape != nil && escape(0x7f) {
		literal = &plainButDEL
	}
	start := 0 // s[start:i] is pending, to be copied as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if literal[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
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
				b = appendU4(b, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		invalid := r == utf8.RuneError && size == 1
		if escape != nil && escape(r) {
			b = append(b, s[start:i]...)
			if r > 0xffff {
				r -= 0x10000
				b = appendU4(b, 0xd800+r>>10)
				r = 0xdc00 + r&0x3ff
			}
			b = appendU4(b, r)
		} else if invalid {
			b = append(append(b, s[start:i]...), "\uFFFD"...)
		} else {
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainButDEL is [plain] without DEL, for an escape function that escapes it.
var plainButDEL = func() [256]bool {
	t := plain
	t[0x7f] = false
	return t
}()

// appendU4 appends the escape \u with the four lower-case hexadecimal digits
// of the UTF-16 code unit r.
func appendU4(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}
