package linkset

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jkind is the kind of a JSON value in the ordered tree.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

func (k jkind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// jnode is one JSON value of the ordered tree the model is built on. Unlike
// encoding/json's map[string]any, an object keeps its members in the order
// they were read, so relation order and attribute order survive a round trip.
type jnode struct {
	kind       jkind
	s          string // string value, number text, or "true"/"false"
	arr        []jnode
	obj        []jmember
	start, end int // byte offsets of the value in the source
}

type jmember struct {
	name string
	val  jnode
}

var errTree = errors.New("linkset: malformed JSON")

// parseTree reads data into an ordered tree. It is run after
// internal/strictjson has accepted the bytes (duplicate names, UTF-8,
// surrogates, depth and numbers are its job), so it only needs to be correct
// on valid JSON; on anything else it returns errTree rather than panicking.
func parseTree(data []byte) (jnode, error) {
	p := treeParser{data: data}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return jnode{}, err
	}
	p.ws()
	if p.i != len(p.data) {
		return jnode{}, errTree
	}
	return n, nil
}

type treeParser struct {
	data []byte
	i    int
}

const treeMaxDepth = 64

func (p *treeParser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *treeParser) value(depth int) (jnode, error) {
	if p.i >= len(p.data) || depth > treeMaxDepth {
		return jnode{}, errTree
	}
	start := p.i
	switch c := p.data[p.i]; {
	case c == '{':
		p.i++
		n := jnode{kind: jObject, start: start}
		p.ws()
		if p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			n.end = p.i
			return n, nil
		}
		for {
			p.ws()
			if p.i >= len(p.data) || p.data[p.i] != '"' {
				return jnode{}, errTree
			}
			name, err := p.str()
			if err != nil {
				return jnode{}, err
			}
			p.ws()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return jnode{}, errTree
			}
			p.i++
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return jnode{}, err
			}
			n.obj = append(n.obj, jmember{name: name, val: v})
			p.ws()
			if p.i >= len(p.data) {
				return jnode{}, errTree
			}
			if p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.data[p.i] == '}' {
				p.i++
				n.end = p.i
				return n, nil
			}
			return jnode{}, errTree
		}
	case c == '[':
		p.i++
		n := jnode{kind: jArray, start: start}
		p.ws()
		if p.i < len(p.data) && p.data[p.i] == ']' {
			p.i++
			n.end = p.i
			return n, nil
		}
		for {
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return jnode{}, err
			}
			n.arr = append(n.arr, v)
			p.ws()
			if p.i >= len(p.data) {
				return jnode{}, errTree
			}
			if p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.data[p.i] == ']' {
				p.i++
				n.end = p.i
				return n, nil
			}
			return jnode{}, errTree
		}
	case c == '"':
		s, err := p.str()
		if err != nil {
			return jnode{}, err
		}
		return jnode{kind: jString, s: s, start: start, end: p.i}, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range [...]string{"true", "false", "null"} {
			if strings.HasPrefix(string(p.data[p.i:min(p.i+5, len(p.data))]), lit) {
				p.i += len(lit)
				if lit == "null" {
					return jnode{kind: jNull, start: start, end: p.i}, nil
				}
				return jnode{kind: jBool, s: lit, start: start, end: p.i}, nil
			}
		}
		return jnode{}, errTree
	case c == '-' || (c >= '0' && c <= '9'):
		for p.i < len(p.data) && isNumberByte(p.data[p.i]) {
			p.i++
		}
		return jnode{kind: jNumber, s: string(p.data[start:p.i]), start: start, end: p.i}, nil
	}
	return jnode{}, errTree
}

// str reads a JSON string at p.i (which is a quote) and returns its value.
func (p *treeParser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	for p.i < len(p.data) {
		c := p.data[p.i]
		if c == '"' {
			s := string(p.data[start:p.i])
			p.i++
			return s, nil
		}
		if c == '\\' {
			return p.strEscaped(start)
		}
		if c < 0x20 {
			return "", errTree
		}
		p.i++
	}
	return "", errTree
}

func (p *treeParser) strEscaped(start int) (string, error) {
	var b strings.Builder
	b.Write(p.data[start:p.i])
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", errTree
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.data) {
			return "", errTree
		}
		e := p.data[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", errTree
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if p.i+1 < len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					lo, ok := p.hex4()
					if ok {
						r2 = utf16.DecodeRune(r, lo)
					}
					if r2 == utf8.RuneError {
						p.i = save
					}
				}
				r = r2
			}
			b.WriteRune(r)
		default:
			return "", errTree
		}
	}
	return "", errTree
}

func (p *treeParser) hex4() (rune, bool) {
	if p.i+4 > len(p.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}

func isNumberByte(d byte) bool {
	return (d >= '0' && d <= '9') || d == '-' || d == '+' || d == '.' || d == 'e' || d == 'E'
}
