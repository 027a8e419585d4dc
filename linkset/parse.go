package linkset

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// Parse reads data as a JSON link set (RFC 9264, Section 4.2) and returns
// the document with context, relation, link and attribute order kept.
//
// The JSON is read strictly (a duplicate member name, invalid UTF-8, a lone
// surrogate, a byte-order mark or trailing data is an error), and the
// document must have the link-set shape: an object with a linkset array of
// link context objects, each relation an array of link target objects with a
// string href; type, title and media strings; hreflang and every other target
// attribute an array of strings (Section 4.3; RFC 9264, Section 4.2.4); and
// internationalized attributes ("title*") arrays of value/language objects.
//
// On failure the error is a *ValidationError listing every problem. Parse
// does not apply the profile's rules: a client still reads a document it
// would not publish; [Document.Check] applies them.
func Parse(data []byte) (*Document, error) {
	if p := strictCheck(data); p != nil {
		return nil, &ValidationError{Problems: []Problem{*p}}
	}
	root, err := parseTree(data)
	if err != nil {
		return nil, &ValidationError{Problems: []Problem{{Rule: "json-syntax", Section: "4.1", Message: "the document is not valid JSON"}}}
	}
	var ps problems
	d := buildDocument(&root, data, &ps)
	if len(ps.errs) > 0 {
		return nil, &ValidationError{Problems: ps.errs}
	}
	return d, nil
}

func buildDocument(root *jnode, data []byte, ps *problems) *Document {
	if root.kind != jObject {
		ps.add("", "top-level-object", "4.1", "the document is a JSON %s, not an object", root.kind)
		return nil
	}
	d := &Document{}
	var linkset *jnode
	for i := range root.obj {
		m := &root.obj[i]
		if m.name == "linkset" {
			linkset = &m.val
			continue
		}
		d.Extra = append(d.Extra, Member{Name: m.name, Value: json.RawMessage(data[m.val.start:m.val.end])})
	}
	if linkset == nil {
		ps.add("", "linkset-missing", "4.1", "the document has no linkset member")
		return d
	}
	if linkset.kind != jArray {
		ps.add("/linkset", "linkset-array", "4.1", "linkset is a JSON %s, not an array", linkset.kind)
		return d
	}
	d.Contexts = make([]Context, 0, len(linkset.arr))
	for ci := range linkset.arr {
		d.Contexts = append(d.Contexts, buildContext(&linkset.arr[ci], "/linkset/"+strconv.Itoa(ci), ps))
	}
	return d
}

func buildContext(n *jnode, ptr string, ps *problems) Context {
	var c Context
	if n.kind != jObject {
		ps.add(ptr, "context-object", "4.1", "a link context is a JSON %s, not an object", n.kind)
		return c
	}
	c.NoAnchor = true
	c.Relations = make([]Relation, 0, len(n.obj))
	for i := range n.obj {
		m := &n.obj[i]
		if m.name == "anchor" {
			c.NoAnchor = false
			if m.val.kind != jString {
				ps.add(ptr+"/anchor", "anchor-string", "4.1", "anchor is a JSON %s, not a string", m.val.kind)
				continue
			}
			c.Anchor = m.val.s
			continue
		}
		mptr := ptr + "/" + strictjson.EscapeToken(m.name)
		if m.val.kind != jArray {
			ps.add(mptr, "relation-array", "4.1", "relation %q holds a JSON %s, not an array of link objects", m.name, m.val.kind)
			continue
		}
		r := Relation{Name: m.name, Links: make([]Link, 0, len(m.val.arr))}
		for j := range m.val.arr {
			r.Links = append(r.Links, buildLink(&m.val.arr[j], mptr+"/"+strconv.Itoa(j), ps))
		}
		c.Relations = append(c.Relations, r)
	}
	return c
}

func buildLink(n *jnode, ptr string, ps *problems) Link {
	var l Link
	if n.kind != jObject {
		ps.add(ptr, "link-object", "4.1", "a link is a JSON %s, not an object", n.kind)
		return l
	}
	hasHref := false
	for i := range n.obj {
		m := &n.obj[i]
		mptr := func() string { return ptr + "/" + strictjson.EscapeToken(m.name) }
		switch m.name {
		case "href":
			hasHref = true
			if m.val.kind != jString {
				ps.add(mptr(), "href-string", "4.1", "href is a JSON %s, not a string", m.val.kind)
				continue
			}
			l.Href = m.val.s
		case "type", "title", "media":
			if m.val.kind != jString {
				ps.add(mptr(), m.name+"-string", "4.3", "%s is a JSON %s, not a string (RFC 9264, Section 4.2.4.1)", m.name, m.val.kind)
				continue
			}
			switch m.name {
			case "type":
				l.Type, l.present = m.val.s, l.present|hasType
			case "title":
				l.Title, l.present = m.val.s, l.present|hasTitle
			default:
				l.Media, l.present = m.val.s, l.present|hasMedia
			}
		case "hreflang":
			vals, ok := stringArray(&m.val)
			if !ok {
				ps.add(mptr(), "hreflang-array", "4.3", "hreflang is not an array of strings (RFC 9264, Section 4.2.4.1)")
				continue
			}
			l.Hreflang, l.present = vals, l.present|hasHreflang
		default:
			if strings.HasSuffix(m.name, "*") {
				a, ok := i18nArray(m.name, &m.val)
				if !ok {
					ps.add(mptr(), "i18n-attribute", "4.3", "%s is not an array of objects with a string value and an optional string language (RFC 9264, Section 4.2.4.2)", m.name)
					continue
				}
				l.Internationalized = append(l.Internationalized, a)
				continue
			}
			vals, ok := stringArray(&m.val)
			if !ok {
				ps.add(mptr(), "attribute-array", "4.3", "target attribute %q is not an array of strings", m.name)
				continue
			}
			l.Attributes = append(l.Attributes, Attribute{Name: m.name, Values: vals})
		}
	}
	if !hasHref {
		ps.add(ptr, "href-missing", "4.1", "the link has no href")
	}
	return l
}

func stringArray(n *jnode) ([]string, bool) {
	if n.kind != jArray {
		return nil, false
	}
	vals := make([]string, len(n.arr))
	for i := range n.arr {
		if n.arr[i].kind != jString {
			return nil, false
		}
		vals[i] = n.arr[i].s
	}
	return vals, true
}

func i18nArray(name string, n *jnode) (I18nAttribute, bool) {
	a := I18nAttribute{Name: name}
	if n.kind != jArray {
		return a, false
	}
	for i := range n.arr {
		o := &n.arr[i]
		if o.kind != jObject {
			return a, false
		}
		var lv LangValue
		hasValue := false
		for _, m := range o.obj {
			if m.val.kind != jString {
				return a, false
			}
			switch m.name {
			case "value":
				lv.Value, hasValue = m.val.s, true
			case "language":
				lv.Language = m.val.s
			default:
				return a, false
			}
		}
		if !hasValue {
			return a, false
		}
		a.Values = append(a.Values, lv)
	}
	return a, true
}
