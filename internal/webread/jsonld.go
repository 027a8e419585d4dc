package webread

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// Bounds of the JSON-LD reader.
const (
	MaxJSONLDNodes = 1000
	maxLDDepth     = 32
)

// JSONLDNode is a JSON-LD node object with a @type: its schema.org type
// names (the prefixes "https://schema.org/", "http://schema.org/" and
// "schema:" removed) and its members as decoded JSON.
type JSONLDNode struct {
	Types   []string
	Members map[string]any
}

// Is reports whether the node has one of the types in set.
func (n JSONLDNode) Is(set map[string]bool) bool {
	for _, t := range n.Types {
		if set[t] {
			return true
		}
	}
	return false
}

// Has reports a non-empty value for key: a non-blank string, or a non-empty
// object or array.
func (n JSONLDNode) Has(key string) bool {
	switch v := n.Members[key].(type) {
	case string:
		return strings.TrimSpace(v) != ""
	case []any:
		return len(v) > 0
	case map[string]any:
		return len(v) > 0
	}
	return false
}

// JSONLD is what the JSON-LD blocks of a page hold.
type JSONLD struct {
	// Blocks counts the blocks read.
	Blocks int
	// ParseErrs holds why each block that does not parse failed.
	ParseErrs []string
	// Nodes are the typed nodes, at most MaxJSONLDNodes.
	Nodes []JSONLDNode
}

// ReadJSONLD parses each block (the text of a script element of type
// application/ld+json) as one JSON value. It collects every typed node: the
// top-level objects, the members of @graph and typed objects nested in
// property values. Node count and depth are bounded. A block wrapped in an
// HTML comment or CDATA section, which browsers and search engines tolerate,
// is unwrapped; a block with data after its value does not parse.
func ReadJSONLD(blocks []string) JSONLD {
	var r JSONLD
	for _, b := range blocks {
		r.Blocks++
		v, err := decodeJSONLD(b)
		if err != nil {
			r.ParseErrs = append(r.ParseErrs, err.Error())
			continue
		}
		r.collect(v, 0)
	}
	return r
}

func decodeJSONLD(b string) (any, error) {
	b = strings.TrimSpace(b)
	b = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(b, "<!--"), "-->"))
	b = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(b, "//<![CDATA["), "//]]>"))
	if b == "" {
		return nil, errors.New("empty JSON-LD block")
	}
	d := json.NewDecoder(bytes.NewReader([]byte(b)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

func (r *JSONLD) collect(v any, depth int) {
	if depth > maxLDDepth || len(r.Nodes) >= MaxJSONLDNodes {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			r.collect(e, depth+1)
		}
	case map[string]any:
		if types := ldTypes(x["@type"]); len(types) > 0 {
			r.Nodes = append(r.Nodes, JSONLDNode{Types: types, Members: x})
		}
		for k, e := range x {
			if k == "@context" {
				continue
			}
			switch e.(type) {
			case []any, map[string]any:
				r.collect(e, depth+1)
			}
		}
	}
}

func ldTypes(v any) []string {
	var raw []string
	switch t := v.(type) {
	case string:
		raw = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				raw = append(raw, s)
			}
		}
	}
	var out []string
	for _, s := range raw {
		s = strings.TrimSpace(s)
		for _, p := range []string{"https://schema.org/", "http://schema.org/", "schema:"} {
			s = strings.TrimPrefix(s, p)
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
