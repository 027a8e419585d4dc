package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// ErrRemoteLoad is returned (wrapped) by [Compile] when a schema needs any
// document that was not given to it: a remote or file $ref, or an unknown
// $schema. No URL is ever fetched or opened.
var ErrRemoteLoad = errors.New("schema: loading schemas from URLs is disabled")

// ErrInvalidSchema is returned (wrapped) by [Compile] when the schema source
// is not valid strict JSON or not a valid JSON Schema.
var ErrInvalidSchema = errors.New("schema: invalid schema")

// Schema is a compiled JSON Schema. It is safe for concurrent use.
type Schema struct {
	url  string
	s    *jsonschema.Schema
	fast *node // nil when the schema uses a keyword the fast checker lacks
}

// Violation is one way in which an instance departs from a schema.
//
// Pointer is the RFC 6901 JSON Pointer of the instance value concerned ("" is
// the whole document). For "required" and "additionalProperties" it is the
// pointer of the missing or extra member. Keyword is the schema keyword that
// failed, for example "required", "type" or "maxLength" ("false" when a
// subschema is the boolean false). Message explains the problem in words.
type Violation struct {
	Pointer string
	Keyword string
	Message string
}

// String formats the violation as "pointer: message (keyword)".
func (v Violation) String() string {
	p := v.Pointer
	if p == "" {
		p = "(root)"
	}
	return p + ": " + v.Message + " (" + v.Keyword + ")"
}

// Compile compiles the schema src, whose canonical URL is schemaURL. The URL
// must be absolute and without a fragment; it is only a name and is never
// fetched. The schema is read as draft 2020-12 unless its $schema names
// another built-in draft, and "format" is asserted.
//
// A schema that needs any other document fails with an error wrapping
// [ErrRemoteLoad]; a malformed one fails with an error wrapping
// [ErrInvalidSchema].
func Compile(schemaURL string, src []byte) (*Schema, error) {
	u, err := url.Parse(schemaURL)
	if err != nil || !u.IsAbs() || u.Fragment != "" || u.RawFragment != "" || strings.Contains(schemaURL, "#") {
		return nil, fmt.Errorf("%w: schema URL %q must be absolute and without a fragment", ErrInvalidSchema, schemaURL)
	}
	if err := strictjson.Valid(src); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidSchema, schemaURL, err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, &loadError{url: s}
	}
	if err := c.AddResource(schemaURL, bytes.NewReader(src)); err != nil {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalidSchema, schemaURL, flatten(err))
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		var le *loadError
		if errors.As(err, &le) {
			return nil, fmt.Errorf("%w: %s needs %s", ErrRemoteLoad, schemaURL, le.url)
		}
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalidSchema, schemaURL, flatten(err))
	}
	return &Schema{url: schemaURL, s: s, fast: mirror(s)}, nil
}

// MustCompile is like [Compile] but panics on error. It is meant for schemas
// embedded in the binary, compiled once with sync.OnceValue.
func MustCompile(schemaURL string, src []byte) *Schema {
	s, err := Compile(schemaURL, src)
	if err != nil {
		panic(err)
	}
	return s
}

// URL returns the URL the schema was compiled under.
func (s *Schema) URL() string { return s.url }

// loadError is what the compiler's LoadURL returns for every URL.
type loadError struct{ url string }

func (e *loadError) Error() string { return "refused to load " + e.url }

// flatten returns the text of a dependency's error without its type, so
// that no jsonschema type escapes through errors.As.
func flatten(err error) string {
	return strings.TrimPrefix(err.Error(), "jsonschema: ")
}

// Validate checks doc, a generic JSON tree (map[string]any, []any, string,
// json.Number, float64, bool, nil) such as [strictjson.Decode] returns. It
// returns every leaf violation sorted by pointer (array indexes compared as
// numbers), then keyword, then message. It returns nil when doc is valid.
//
// Validate never panics: a panic inside the validator becomes a single
// violation with Keyword "schema". The library raises one, for example,
// for a json.Number it cannot convert to a rational.
func (s *Schema) Validate(doc any) (vs []Violation) {
	defer func() {
		if r := recover(); r != nil {
			vs = []Violation{{Pointer: "", Keyword: "schema", Message: fmt.Sprintf("cannot validate: validator failed: %v", r)}}
		}
	}()
	if s.fast != nil && s.fast.check(doc, 0) == yes {
		return nil
	}
	err := s.s.Validate(doc)
	if err == nil {
		return nil
	}
	var out []Violation
	var ve *jsonschema.ValidationError
	switch {
	case errors.As(err, &ve):
		collect(ve, doc, &out)
	default:
		// An InvalidJSONTypeError (doc is not a generic tree) or an
		// InfiniteLoopError (a $ref cycle that consumes no input).
		out = append(out, Violation{Pointer: "", Keyword: "schema", Message: "cannot validate: " + flatten(err)})
	}
	sortViolations(out)
	return slices.Compact(out)
}

// collect appends a Violation for every leaf under ve.
func collect(ve *jsonschema.ValidationError, doc any, out *[]Violation) {
	kw := keyword(ve.KeywordLocation)
	if len(ve.Causes) > 0 && kw != "minContains" {
		for _, c := range ve.Causes {
			collect(c, doc, out)
		}
		return
	}
	ptr := instancePointer(ve.InstanceLocation)
	if ve.Message == "not allowed" && ve.KeywordLocation != "" && !strings.HasSuffix(ve.KeywordLocation, "/additionalProperties") {
		*out = append(*out, Violation{Pointer: ptr, Keyword: "false", Message: "no value is allowed here"})
		return
	}
	switch kw {
	case "required":
		if names, ok := quotedList(strings.TrimPrefix(ve.Message, "missing properties: ")); ok && members(doc, ptr, names, false) {
			for _, n := range names {
				*out = append(*out, Violation{Pointer: ptr + "/" + strictjson.EscapeToken(n), Keyword: kw,
					Message: fmt.Sprintf("required member %q is missing", n)})
			}
			return
		}
	case "additionalProperties":
		msg := strings.TrimSuffix(strings.TrimPrefix(ve.Message, "additionalProperties "), " not allowed")
		if names, ok := quotedList(msg); ok && members(doc, ptr, names, true) {
			for _, n := range names {
				*out = append(*out, Violation{Pointer: ptr + "/" + strictjson.EscapeToken(n), Keyword: kw,
					Message: fmt.Sprintf("member %q is not allowed here", n)})
			}
			return
		}
	case "dependentRequired", "dependencies":
		// "property 'x' is required, if 'y' property exists"
		msg := strings.TrimPrefix(ve.Message, "property ")
		if i := strings.Index(msg, " is required, if "); i > 0 {
			need, ok1 := quotedList(msg[:i])
			have, ok2 := quotedList(strings.TrimSuffix(msg[i+len(" is required, if "):], " property exists"))
			if ok1 && ok2 && len(need) == 1 && len(have) == 1 && members(doc, ptr, need, false) && members(doc, ptr, have, true) {
				*out = append(*out, Violation{Pointer: ptr + "/" + strictjson.EscapeToken(need[0]), Keyword: kw,
					Message: fmt.Sprintf("member %q is required when %q is present", need[0], have[0])})
				return
			}
		}
	case "minContains":
		*out = append(*out, Violation{Pointer: ptr, Keyword: "contains", Message: ve.Message})
		return
	case "const":
		if ve.Message == "const failed" {
			*out = append(*out, Violation{Pointer: ptr, Keyword: kw, Message: "value does not equal the required constant"})
			return
		}
	case "not":
		*out = append(*out, Violation{Pointer: ptr, Keyword: kw, Message: "value matches a schema it must not match"})
		return
	}
	if kw == "" {
		kw = "schema"
	}
	*out = append(*out, Violation{Pointer: ptr, Keyword: kw, Message: ve.Message})
}

// members reports whether the object at ptr in doc has (present) or lacks
// (!present) every one of names. It double-checks names recovered from the
// library's messages, whose quoting is ambiguous for a name that ends in a
// backslash; on a mismatch the caller keeps the library's message.
func members(doc any, ptr string, names []string, present bool) bool {
	obj, ok := resolve(doc, ptr).(map[string]any)
	if !ok {
		return false
	}
	for _, n := range names {
		if _, has := obj[n]; has != present {
			return false
		}
	}
	return true
}

// resolve returns the value at the RFC 6901 pointer ptr in doc, or nil.
func resolve(doc any, ptr string) any {
	for ptr != "" {
		var tok string
		tok, ptr = nextToken(ptr)
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := doc.(type) {
		case map[string]any:
			doc = v[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			doc = v[i]
		default:
			return nil
		}
	}
	return doc
}

// nameTaking lists the keywords whose next keyword-location token is a
// member name or an index rather than a keyword.
var nameTaking = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"dependentSchemas": true, "dependentRequired": true, "dependencies": true,
	"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true,
}

// keyword returns the failing keyword named by a keyword location such as
// "/properties/links/items/required" or "/dependentRequired/a/0".
func keyword(loc string) string {
	toks := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t == "" {
			continue
		}
		if _, err := strconv.Atoi(t); err == nil && i > 0 && (nameTaking[toks[i-1]] || toks[i-1] == "items" || i >= 2 && nameTaking[toks[i-2]]) {
			continue
		}
		if i > 0 && nameTaking[toks[i-1]] {
			continue
		}
		return t
	}
	return ""
}

// instancePointer turns the library's instance location, whose tokens are
// RFC 6901 escaped and then percent-encoded, into a plain RFC 6901 pointer.
func instancePointer(loc string) string {
	if loc == "" || !strings.Contains(loc, "%") {
		return loc
	}
	toks := strings.Split(loc, "/")
	for i, t := range toks {
		if u, err := url.PathUnescape(t); err == nil {
			toks[i] = u
		}
	}
	return strings.Join(toks, "/")
}

// quotedList parses the library's list of quoted names, "'a', 'b'", where
// each name is Go-quoted with '"' left bare and '\” escaped.
func quotedList(s string) ([]string, bool) {
	var names []string
	for {
		if len(s) < 2 || s[0] != '\'' {
			return nil, false
		}
		var b strings.Builder
		b.WriteByte('"')
		i := 1
		closed := false
		for i < len(s) {
			c := s[i]
			if c == '\\' && i+1 < len(s) {
				if s[i+1] == '\'' {
					b.WriteByte('\'')
				} else {
					b.WriteString(s[i : i+2])
				}
				i += 2
				continue
			}
			if c == '\'' {
				closed = true
				i++
				break
			}
			if c == '"' {
				b.WriteString(`\"`)
			} else {
				b.WriteByte(c)
			}
			i++
		}
		if !closed {
			return nil, false
		}
		b.WriteByte('"')
		name, err := strconv.Unquote(b.String())
		if err != nil {
			return nil, false
		}
		names = append(names, name)
		s = s[i:]
		if s == "" {
			return names, true
		}
		if !strings.HasPrefix(s, ", ") {
			return nil, false
		}
		s = s[2:]
	}
}

func sortViolations(vs []Violation) {
	slices.SortFunc(vs, func(a, b Violation) int {
		if c := comparePointers(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		if c := strings.Compare(a.Keyword, b.Keyword); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// comparePointers orders JSON Pointers token by token, comparing tokens
// that are both array indexes as numbers, so that "/2" sorts before "/10".
func comparePointers(a, b string) int {
	for a != "" && b != "" {
		var ta, tb string
		ta, a = nextToken(a)
		tb, b = nextToken(b)
		if ta == tb {
			continue
		}
		na, ea := strconv.ParseUint(ta, 10, 64)
		nb, eb := strconv.ParseUint(tb, 10, 64)
		if ea == nil && eb == nil {
			if na < nb {
				return -1
			}
			return 1
		}
		return strings.Compare(ta, tb)
	}
	return strings.Compare(a, b)
}

func nextToken(p string) (tok, rest string) {
	p = p[1:]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}
