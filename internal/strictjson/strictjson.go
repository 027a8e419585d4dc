package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of objects and arrays that [Decode] and
// [Valid] accept. A text whose containers nest exactly MaxDepth levels deep is
// accepted; one more level is refused with the "json-depth" rule.
const MaxDepth = 64

// ErrInvalid is the sentinel that every [*Error] unwraps to, so that callers
// can test errors.Is(err, strictjson.ErrInvalid).
var ErrInvalid = errors.New("strictjson: invalid JSON text")

// The stable rule names carried by [Error.Rule].
const (
	RuleSyntax      = "json-syntax"
	RuleBOM         = "json-bom"
	RuleUTF8        = "json-utf8"
	RuleSurrogate   = "json-surrogate"
	RuleDuplicate   = "json-duplicate-member"
	RuleDepth       = "json-depth"
	RuleTrailing    = "json-trailing-data"
	RuleNumberRange = "json-number-range"
)

// Error describes why a text was refused. Pointer is the RFC 6901 JSON
// Pointer of the value in which the problem was found ("" is the whole
// document). Rule is one of the Rule constants. Offset is the byte offset of
// the offending input. Line and Column are its position as an editor shows
// it, both from 1. The column counts characters, a byte that is not UTF-8 as
// one. Message says what went wrong in words, ending with that position ("at
// line 3, column 7").
type Error struct {
	Pointer string
	Rule    string
	Message string
	Offset  int64
	Line    int
	Column  int
}

// Error implements the error interface.
func (e *Error) Error() string {
	where := "the document root"
	if e.Pointer != "" {
		where = strconv.Quote(e.Pointer)
	}
	return fmt.Sprintf("strictjson: %s (%s, byte offset %d, %s)", e.Message, where, e.Offset, e.Rule)
}

// Unwrap returns [ErrInvalid].
func (e *Error) Unwrap() error { return ErrInvalid }

// Decode parses data as one strict JSON text and returns its generic tree.
// Objects are map[string]any, arrays []any and strings string. Numbers are
// json.Number (the exact source text), true and false bool, and null nil. Any
// violation of the rules listed in the package documentation returns a nil
// tree and an [*Error].
func Decode(data []byte) (any, error) {
	sc := scratchPool.Get().(*scratch)
	d := decoder{s: string(data), build: true, vals: sc.vals, members: sc.members, buf: sc.buf}
	v, err := d.run()
	sc.put(&d)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// scratch holds a decoder's scratch stacks between calls of [Decode], so
// that a document's members and elements do not grow new stacks each time.
type scratch struct {
	vals    []any
	members []member
	buf     []byte
}

// maxPooledScratch bounds the stacks (in entries or bytes) kept for the
// next call; a larger one, grown by an unusual document, is dropped.
const maxPooledScratch = 1 << 12

var scratchPool = sync.Pool{New: func() any {
	return &scratch{vals: make([]any, 0, 16), members: make([]member, 0, 32)}
}}

// put returns d's stacks to the pool, cleared so that the pool holds no
// part of the tree (an error leaves entries on them).
func (sc *scratch) put(d *decoder) {
	if cap(d.vals) > maxPooledScratch || cap(d.members) > maxPooledScratch || cap(d.buf) > maxPooledScratch {
		return
	}
	clear(d.vals)
	clear(d.members)
	sc.vals, sc.members, sc.buf = d.vals[:0], d.members[:0], d.buf[:0]
	scratchPool.Put(sc)
}

// Valid applies every check of [Decode] without building the tree. It
// returns nil or an [*Error].
func Valid(data []byte) error {
	d := decoder{s: string(data)}
	_, err := d.run()
	return err
}

// member is one parsed object member held on the decoder's scratch stack
// until its object is complete.
type member struct {
	name  string
	value any
}

// linearDupLimit is the member count up to which duplicate names are found
// by scanning the scratch stack; larger objects switch to a map.
const linearDupLimit = 16

type decoder struct {
	s       string // the whole input; strings without escapes are slices of it
	i       int    // read position
	build   bool   // build the generic tree (Decode)
	ordered bool   // build the ordered tree (DecodeOrdered); neither: only check (Valid)
	depth   int
	vals    []any    // scratch stack for array elements
	members []member // scratch stack for object members
	buf     []byte   // scratch for unescaping
	err     *Error
	path    []string // reference tokens collected, innermost first, while unwinding an error

	node   Value    // ordered mode: the value last read
	nodes  []Value  // ordered mode: scratch stack for array elements
	omembs []Member // ordered mode: scratch stack for object members
}

func (d *decoder) run() (any, error) {
	if strings.HasPrefix(d.s, "\uFEFF") {
		d.fail(0, RuleBOM, "byte order mark at the start of the text")
		return nil, d.finish()
	}
	v, ok := d.value()
	if !ok {
		return nil, d.finish()
	}
	d.skipWS()
	if d.i < len(d.s) {
		if !d.badUTF8(d.i) {
			d.fail(d.i, RuleTrailing, fmt.Sprintf("unexpected %s after the JSON value", describe(d.s, d.i)))
		}
		return nil, d.finish()
	}
	return v, nil
}

// finish turns the collected path into the error's JSON Pointer.
func (d *decoder) finish() error {
	var b strings.Builder
	for i := len(d.path) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(EscapeToken(d.path[i]))
	}
	d.err.Pointer = b.String()
	return d.err
}

// EscapeToken escapes one JSON Pointer reference token as RFC 6901 Section 3
// requires: "~" becomes "~0" and "/" becomes "~1".
func EscapeToken(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return tokenEscaper.Replace(tok)
}

// tokenEscaper is immutable after initialization and safe for concurrent use.
var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func (d *decoder) fail(off int, rule, msg string) {
	line, col := position(d.s, off)
	d.err = &Error{Rule: rule, Message: fmt.Sprintf("%s at line %d, column %d", msg, line, col), Offset: int64(off), Line: line, Column: col}
}

// position returns the line and column (from 1) of byte offset off in s.
func position(s string, off int) (line, col int) {
	off = min(max(off, 0), len(s))
	start := strings.LastIndexByte(s[:off], '\n') + 1
	line = 1 + strings.Count(s[:start], "\n")
	col = 1
	for i := start; i < off; {
		_, n := utf8.DecodeRuneInString(s[i:off])
		i += n
		col++
	}
	return line, col
}

// badUTF8 reports (and records) a json-utf8 error when the input at off is
// not well-formed UTF-8.
func (d *decoder) badUTF8(off int) bool {
	if d.s[off] < utf8.RuneSelf {
		return false
	}
	r, size := utf8.DecodeRuneInString(d.s[off:])
	if r == utf8.RuneError && size == 1 {
		d.fail(off, RuleUTF8, "invalid UTF-8 byte sequence")
		return true
	}
	return false
}

// unexpected records an error for the input at off, which is not what the
// grammar allows there.
func (d *decoder) unexpected(off int, expected string) {
	if off >= len(d.s) {
		d.fail(off, RuleSyntax, "unexpected end of input, expected "+expected)
		return
	}
	if d.badUTF8(off) {
		return
	}
	d.fail(off, RuleSyntax, fmt.Sprintf("unexpected %s, expected %s", describe(d.s, off), expected))
}

func describe(s string, off int) string {
	r, _ := utf8.DecodeRuneInString(s[off:])
	if r < 0x20 || r == 0x7f || r >= 0x80 {
		return fmt.Sprintf("character %U", r)
	}
	return fmt.Sprintf("character %q", r)
}

func (d *decoder) skipWS() {
	s, i := d.s, d.i
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	d.i = i
}

func (d *decoder) value() (any, bool) {
	d.skipWS()
	if d.i >= len(d.s) {
		d.unexpected(d.i, "a value")
		return nil, false
	}
	switch c := d.s[d.i]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		start := d.i
		s, ok := d.str()
		if ok && d.ordered {
			d.node = Value{Kind: KindString, Text: s, Start: start, End: d.i}
		}
		if !ok || !d.build {
			return nil, ok
		}
		return s, true
	case 't':
		return true, d.literal("true", KindBool)
	case 'f':
		return false, d.literal("false", KindBool)
	case 'n':
		return nil, d.literal("null", KindNull)
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return d.number()
		}
		d.unexpected(d.i, "a value")
		return nil, false
	}
}

// literal reads the literal lit, a value of kind k.
func (d *decoder) literal(lit string, k Kind) bool {
	start := d.i
	end := start + len(lit)
	if end > len(d.s) || d.s[start:end] != lit {
		// Find the first byte that differs, for a precise offset.
		i := start
		for i < len(d.s) && i < end && d.s[i] == lit[i-start] {
			i++
		}
		d.unexpected(i, "the literal "+lit)
		return false
	}
	if end < len(d.s) && isIdentByte(d.s[end]) {
		d.unexpected(end, "a delimiter after "+lit)
		return false
	}
	d.i = end
	if d.ordered {
		d.node = Value{Kind: k, Start: start, End: end}
		if k == KindBool {
			d.node.Text = lit
		}
	}
	return true
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '+' || c == '-'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads an RFC 8259 Section 6 number and refuses one that overflows
// an IEEE 754 binary64 (RFC 7493 Section 2.2).
func (d *decoder) number() (any, bool) {
	s := d.s
	start := d.i
	i := start
	if s[i] == '-' {
		i++
	}
	if i >= len(s) || !isDigit(s[i]) {
		d.unexpected(i, "a digit")
		return nil, false
	}
	intStart := i
	if s[i] == '0' {
		i++
	} else {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	intDigits := i - intStart
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			d.unexpected(i, "a digit after the decimal point")
			return nil, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	exp := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exp = true
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			d.unexpected(i, "a digit in the exponent")
			return nil, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && isIdentByte(s[i]) {
		d.unexpected(i, "a delimiter after the number")
		return nil, false
	}
	num := s[start:i]
	// Without an exponent, a number of fewer than 309 integer digits cannot
	// overflow and one of fewer than 300 characters cannot underflow.
	if exp || intDigits > 308 || len(num) >= 300 {
		f, _ := strconv.ParseFloat(num, 64)
		if math.IsInf(f, 0) {
			d.fail(start, RuleNumberRange, "number "+abbreviate(num)+" is outside the range of an IEEE 754 double")
			return nil, false
		}
		if f == 0 && nonZeroMantissa(num) {
			d.fail(start, RuleNumberRange, "number "+abbreviate(num)+" is too small for an IEEE 754 double and would round to zero")
			return nil, false
		}
	}
	d.i = i
	if d.ordered {
		d.node = Value{Kind: KindNumber, Text: num, Start: start, End: i}
	}
	if !d.build {
		return nil, true
	}
	return json.Number(num), true
}

// nonZeroMantissa reports whether the number literal has a non-zero digit
// before its exponent.
func nonZeroMantissa(num string) bool {
	for i := 0; i < len(num); i++ {
		switch c := num[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

func abbreviate(s string) string {
	if len(s) > 40 {
		return s[:20] + "..." + s[len(s)-10:]
	}
	return s
}

// plain marks the string bytes that need no attention: everything but the
// quote, the backslash, control characters and non-ASCII bytes.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string starting at the opening quote.
func (d *decoder) str() (string, bool) {
	s := d.s
	start := d.i + 1
	i := start
	for {
		for i < len(s) && plain[s[i]] {
			i++
		}
		if i >= len(s) {
			d.fail(d.i, RuleSyntax, "unterminated string")
			return "", false
		}
		switch c := s[i]; {
		case c == '"':
			d.i = i + 1
			return s[start:i], true
		case c == '\\':
			return d.strEscaped(start, i)
		case c < 0x20:
			d.fail(i, RuleSyntax, fmt.Sprintf("unescaped control character %U in string", rune(c)))
			return "", false
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				d.fail(i, RuleUTF8, "invalid UTF-8 byte sequence in string")
				return "", false
			}
			i += size
		}
	}
}

// strEscaped finishes a string whose first escape is at i.
func (d *decoder) strEscaped(start, i int) (string, bool) {
	s := d.s
	buf := append(d.buf[:0], s[start:i]...)
	for {
		j := i
		for j < len(s) && plain[s[j]] {
			j++
		}
		buf = append(buf, s[i:j]...)
		i = j
		if i >= len(s) {
			d.fail(start-1, RuleSyntax, "unterminated string")
			return "", false
		}
		c := s[i]
		switch {
		case c == '"':
			d.i = i + 1
			d.buf = buf
			return string(buf), true
		case c < 0x20:
			d.fail(i, RuleSyntax, fmt.Sprintf("unescaped control character %U in string", rune(c)))
			return "", false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				d.fail(i, RuleUTF8, "invalid UTF-8 byte sequence in string")
				return "", false
			}
			buf = append(buf, s[i:i+size]...)
			i += size
			continue
		}
		// A backslash.
		if i+1 >= len(s) {
			d.fail(start-1, RuleSyntax, "unterminated string")
			return "", false
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := d.hex4(i + 2)
			if !ok {
				return "", false
			}
			switch {
			case r >= 0xDC00 && r < 0xE000:
				d.fail(i, RuleSurrogate, fmt.Sprintf("lone low surrogate \\u%04x", r))
				return "", false
			case r >= 0xD800 && r < 0xDC00:
				if i+12 > len(s) || s[i+6] != '\\' || s[i+7] != 'u' {
					d.fail(i, RuleSurrogate, fmt.Sprintf("high surrogate \\u%04x not followed by a low surrogate", r))
					return "", false
				}
				lo, ok := d.hex4(i + 8)
				if !ok {
					return "", false
				}
				if lo < 0xDC00 || lo >= 0xE000 {
					d.fail(i, RuleSurrogate, fmt.Sprintf("high surrogate \\u%04x not followed by a low surrogate", r))
					return "", false
				}
				buf = utf8.AppendRune(buf, 0x10000+(r-0xD800)<<10+(lo-0xDC00))
				i += 12
				continue
			}
			buf = utf8.AppendRune(buf, r)
			i += 6
			continue
		default:
			if d.badUTF8(i + 1) {
				return "", false
			}
			d.fail(i, RuleSyntax, fmt.Sprintf("invalid escape \\%s in string", describeRaw(s, i+1)))
			return "", false
		}
		i += 2
	}
}

func describeRaw(s string, off int) string {
	r, _ := utf8.DecodeRuneInString(s[off:])
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf("%U", r)
	}
	return string(r)
}

func (d *decoder) hex4(i int) (rune, bool) {
	if i+4 > len(d.s) {
		d.fail(i-2, RuleSyntax, "truncated \\u escape in string")
		return 0, false
	}
	var r rune
	for j := i; j < i+4; j++ {
		c := d.s[j]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			if !d.badUTF8(j) {
				d.fail(j, RuleSyntax, "invalid hexadecimal digit in \\u escape")
			}
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

func (d *decoder) enter(off int) bool {
	d.depth++
	if d.depth > MaxDepth {
		d.fail(off, RuleDepth, fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
		return false
	}
	return true
}

func (d *decoder) object() (any, bool) {
	start := d.i
	if !d.enter(d.i) {
		return nil, false
	}
	d.i++ // '{'
	d.skipWS()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		d.depth--
		if d.ordered {
			d.node = Value{Kind: KindObject, Start: start, End: d.i}
		}
		if !d.build {
			return nil, true
		}
		return map[string]any{}, true
	}
	base, obase := len(d.members), len(d.omembs)
	var m map[string]any // used once the object outgrows linearDupLimit
	for {
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			d.unexpected(d.i, "a member name string")
			return nil, false
		}
		keyOff := d.i
		name, ok := d.str()
		if !ok {
			return nil, false
		}
		if m == nil {
			for j := base; j < len(d.members); j++ {
				if d.members[j].name == name {
					d.dup(keyOff, name)
					return nil, false
				}
			}
		} else if _, dup := m[name]; dup {
			d.dup(keyOff, name)
			return nil, false
		}
		d.skipWS()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			d.unexpected(d.i, "':' after the member name")
			return nil, false
		}
		d.i++
		v, ok := d.value()
		if !ok {
			d.path = append(d.path, name)
			return nil, false
		}
		if d.ordered {
			d.omembs = append(d.omembs, Member{Name: name, Value: d.node})
		}
		if m != nil {
			m[name] = v
		} else {
			d.members = append(d.members, member{name, v})
			if len(d.members)-base > linearDupLimit {
				m = make(map[string]any, 2*linearDupLimit)
				for _, mb := range d.members[base:] {
					m[mb.name] = mb.value
				}
				d.popMembers(base)
			}
		}
		d.skipWS()
		if d.i >= len(d.s) {
			d.unexpected(d.i, "',' or '}'")
			return nil, false
		}
		switch d.s[d.i] {
		case ',':
			d.i++
			d.skipWS()
			continue
		case '}':
			d.i++
		default:
			d.unexpected(d.i, "',' or '}'")
			return nil, false
		}
		break
	}
	d.depth--
	if d.ordered {
		d.node = Value{Kind: KindObject, Members: slices.Clone(d.omembs[obase:]), Start: start, End: d.i}
		clear(d.omembs[obase:])
		d.omembs = d.omembs[:obase]
	}
	if m == nil {
		if d.build {
			m = make(map[string]any, len(d.members)-base)
			for _, mb := range d.members[base:] {
				m[mb.name] = mb.value
			}
		}
		d.popMembers(base)
	}
	if !d.build {
		return nil, true
	}
	return m, true
}

func (d *decoder) popMembers(base int) {
	clear(d.members[base:])
	d.members = d.members[:base]
}

func (d *decoder) dup(off int, name string) {
	d.fail(off, RuleDuplicate, fmt.Sprintf("duplicate member name %q", name))
	d.path = append(d.path, name)
}

func (d *decoder) array() (any, bool) {
	start := d.i
	if !d.enter(d.i) {
		return nil, false
	}
	d.i++ // '['
	d.skipWS()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		d.depth--
		if d.ordered {
			d.node = Value{Kind: KindArray, Start: start, End: d.i}
		}
		if !d.build {
			return nil, true
		}
		return []any{}, true
	}
	base, obase := len(d.vals), len(d.nodes)
	for n := 0; ; n++ {
		v, ok := d.value()
		if !ok {
			d.path = append(d.path, strconv.Itoa(n))
			return nil, false
		}
		if d.build {
			d.vals = append(d.vals, v)
		} else if d.ordered {
			d.nodes = append(d.nodes, d.node)
		}
		d.skipWS()
		if d.i >= len(d.s) {
			d.unexpected(d.i, "',' or ']'")
			return nil, false
		}
		switch d.s[d.i] {
		case ',':
			d.i++
			continue
		case ']':
			d.i++
		default:
			d.unexpected(d.i, "',' or ']'")
			return nil, false
		}
		break
	}
	d.depth--
	if d.ordered {
		d.node = Value{Kind: KindArray, Elems: slices.Clone(d.nodes[obase:]), Start: start, End: d.i}
		clear(d.nodes[obase:])
		d.nodes = d.nodes[:obase]
	}
	if !d.build {
		return nil, true
	}
	a := make([]any, len(d.vals)-base)
	copy(a, d.vals[base:])
	clear(d.vals[base:])
	d.vals = d.vals[:base]
	return a, true
}
