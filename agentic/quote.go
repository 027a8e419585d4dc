package agentic

import (
	"strconv"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// appendJSString appends s as JavaScript's JSON.stringify writes a string
// ([strictjson.AppendString]). '"' and '\' are escaped, and \b \f \n \r \t
// by name. The other C0 controls become \u00xx, invalid UTF-8 U+FFFD, and
// everything else stays literal.
//
// When txt is true it also escapes, as the reference TXT generator does,
// each of U+007F–U+009F, U+200B–U+200F, U+2028–U+202E, U+2060–U+206F and
// U+FEFF. Each becomes \u with four lower-case hex digits (TXT 1.1,
// "Strings use JSON quoting with control, directional, and invisible
// formatting characters escaped").
func appendJSString(b []byte, s string, txt bool) []byte {
	if txt {
		return strictjson.AppendStringFunc(b, s, txtEscaped)
	}
	return strictjson.AppendString(b, s)
}

// txtEscaped reports whether the TXT generator writes r as a \u escape.
func txtEscaped(r rune) bool {
	return (r >= 0x7f && r <= 0x9f) || (r >= 0x200b && r <= 0x200f) ||
		(r >= 0x2028 && r <= 0x202e) || (r >= 0x2060 && r <= 0x206f) || r == 0xfeff
}

// quoteTXT returns s quoted for a TXT line.
func quoteTXT(s string) string { return string(appendJSString(nil, s, true)) }

// jsStringLen returns the UTF-8 length of JSON.stringify(s).
func jsStringLen(s string) int { return len(appendJSString(make([]byte, 0, len(s)+8), s, false)) }

// appendInt appends a decimal integer.
func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
