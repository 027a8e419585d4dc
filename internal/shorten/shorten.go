// Package shorten cuts text that came from elsewhere to a bound before it is
// quoted in a receipt, a problem or an error. A cut string ends in "…".
//
// There are two bounds, because callers bound two things. [Runes] bounds
// what a reader sees, in characters: the scanner's receipts and the card
// reader's problems. [Bytes] bounds what is stored or sent, in bytes: the
// browser's header values, the web readers' problems and the link-set
// problems. Both cut on a character boundary, so the result stays valid
// UTF-8 when s is. The package imports nothing of the module.
package shorten

import "unicode/utf8"

// Runes returns s cut to its first n characters, followed by "…" when it
// was cut.
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n, 0)]) + "…"
}

// Bytes returns s cut to at most n bytes on a character boundary, followed
// by "…" when it was cut.
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
