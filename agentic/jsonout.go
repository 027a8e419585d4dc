package agentic

import (
	"encoding/json"
	"strings"
)

// jsWriter writes JSON as JavaScript's JSON.stringify(value, null, indent)
// does, for the fixed shapes of this package.
type jsWriter struct {
	b      []byte
	indent string // "" for compact output
	depth  int
	first  []bool
}

func (w *jsWriter) newline() {
	if w.indent == "" {
		return
	}
	w.b = append(w.b, '\n')
	for i := 0; i < w.depth; i++ {
		w.b = append(w.b, w.indent...)
	}
}

func (w *jsWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.first = append(w.first, true)
}

func (w *jsWriter) close(c byte) {
	empty := w.first[len(w.first)-1]
	w.first = w.first[:len(w.first)-1]
	w.depth--
	if !empty {
		w.newline()
	}
	w.b = append(w.b, c)
}

func (w *jsWriter) elem() {
	top := len(w.first) - 1
	if !w.first[top] {
		w.b = append(w.b, ',')
	}
	w.first[top] = false
	w.newline()
}

func (w *jsWriter) key(k string) {
	w.elem()
	w.b = appendJSString(w.b, k, false)
	w.b = append(w.b, ':')
	if w.indent != "" {
		w.b = append(w.b, ' ')
	}
}

func (w *jsWriter) str(k, v string) {
	w.key(k)
	w.b = appendJSString(w.b, v, false)
}

func (w *jsWriter) optStr(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

// writeSite writes s with members in schema order.
func (w *jsWriter) writeSite(s *Site) {
	w.open('{')
	w.optStr("$schema", s.Schema)
	w.str("agentic", s.Agentic)
	w.str("type", s.Type)
	w.str("origin", s.Origin)
	w.str("name", s.Name)
	w.str("description", s.Description)
	w.objects("resources", len(s.Resources), func(i int) {
		r := &s.Resources[i]
		w.str("kind", string(r.Kind))
		w.str("url", r.URL)
		w.str("source", r.Source)
		w.str("availability", string(r.Availability))
		w.optStr("title", r.Title)
	})
	w.objects("apis", len(s.APIs), func(i int) {
		a := &s.APIs[i]
		w.str("document", a.Document)
		w.str("openapi", a.OpenAPI)
		w.objects("operations", len(a.Operations), func(j int) {
			o := &a.Operations[j]
			w.str("method", o.Method)
			w.str("path", o.Path)
			w.optStr("operationId", o.OperationID)
			w.optStr("summary", o.Summary)
		})
	})
	w.close('}')
}

// objects writes member k as an array of n objects; member(i) writes the
// members of the i-th.
func (w *jsWriter) objects(k string, n int, members func(i int)) {
	w.key(k)
	w.open('[')
	for i := range n {
		w.elem()
		w.open('{')
		members(i)
		w.close('}')
	}
	w.close(']')
}

// writeTree writes a generic JSON tree (as produced by strictjson.Decode) in
// compact form; object members in map order, which does not change the size.
func (w *jsWriter) writeTree(v any) {
	switch v := v.(type) {
	case nil:
		w.b = append(w.b, "null"...)
	case bool:
		if v {
			w.b = append(w.b, "true"...)
		} else {
			w.b = append(w.b, "false"...)
		}
	case json.Number:
		w.b = append(w.b, v...)
	case float64:
		w.b = append(w.b, json.Number(strings.TrimSpace(formatFloat(v)))...)
	case string:
		w.b = appendJSString(w.b, v, false)
	case []any:
		w.open('[')
		for _, e := range v {
			w.elem()
			w.writeTree(e)
		}
		w.close(']')
	case map[string]any:
		w.open('{')
		for k, e := range v {
			w.key(k)
			w.writeTree(e)
		}
		w.close('}')
	}
}

func formatFloat(f float64) string {
	b, err := json.Marshal(f)
	if err != nil {
		return "null"
	}
	return string(b)
}

// compactSizeOf returns compactSize(tree) for the tree strict JSON data
// decodes to. When that size is certainly within maxProfileBytes, it
// returns an upper bound that is within too, without writing the tree. The
// bound is data without the whitespace between tokens. The writer keeps
// numbers as written. It writes every string in at most the bytes its
// source escape form took: a "\u00e9" becomes "é", a "\/" becomes "/",
// nothing grows. When data holds no backslash at all the bound is exact.
func compactSizeOf(data []byte, tree any) int {
	n, escapes, in := 0, false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case in:
			n++
			if c == '\\' {
				escapes = true
				if i+1 < len(data) {
					i++
					n++
				}
			} else if c == '"' {
				in = false
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '"':
			in = true
			n++
		default:
			n++
		}
	}
	if n <= maxProfileBytes || !escapes {
		return n
	}
	return compactSize(tree)
}

// compactSize returns the UTF-8 length of JSON.stringify(tree).
func compactSize(tree any) int {
	w := jsWriter{b: make([]byte, 0, 4096)}
	w.writeTree(tree)
	return len(w.b)
}

// JSON returns the profile as the reference tools write agentic.json:
// JSON.stringify(profile, null, 2) followed by one LF, with members in schema
// order. The Site is validated first; an invalid Site yields a
// *ValidationError.
func (s *Site) JSON() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s.marshalIndent(), nil
}

func (s *Site) marshalIndent() []byte {
	w := jsWriter{b: make([]byte, 0, 8192), indent: "  "}
	w.writeSite(s)
	return append(w.b, '\n')
}

// compact returns JSON.stringify(s) without validating.
func (s *Site) compact() []byte {
	w := jsWriter{b: make([]byte, 0, 8192)}
	w.writeSite(s)
	return w.b
}
