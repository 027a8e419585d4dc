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
// The JSON is read strictly: a duplicate member name, invalid UTF-8, a lone
// surrogate, a byte-order mark or trailing data is an error. The document must
// have the link-set shape: an object with a linkset array of link context
// objects. Each relation is an array of link target objects with a string href.
// The attributes type, title and media are strings. The attribute hreflang and
// every other target attribute are arrays of strings ([knowledge-linkset
// draft], Section 4.3; RFC 9264, Section 4.2.4). Internationalized attributes
// ("title*") are arrays of value/language objects.
//
// Parse keeps a reference to data (the document's unknown top-level
// members, and the bytes [ModeStrict] requires to be canonical): do not
// modify data while the document is in use.
//
// On failure the error is a *ValidationError listing every problem. Parse
// does not apply the profile's rules: a client still reads a document it
// would not publish; [Document.Check] applies them.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func Parse(data []byte) (*Document, error) {
	root, err := strictjson.DecodeOrdered(data)
	if err != nil {
		return nil, invalid([]Problem{strictProblem(err)})
	}
	var ps problems
	d := buildDocument(&root, data, &ps)
	if len(ps.errs) > 0 {
		return nil, invalid(ps.errs)
	}
	d.src = data
	return d, nil
}

func buildDocument(root *strictjson.Value, data []byte, ps *problems) *Document {
	if root.Kind != strictjson.KindObject {
		ps.add("", RuleTopLevelObject, "4.1", "the document is a JSON %s, not an object", root.Kind)
		return nil
	}
	d := &Document{}
	var linkset *strictjson.Value
	for i := range root.Members {
		m := &root.Members[i]
		if m.Name == "linkset" {
			linkset = &m.Value
			continue
		}
		d.extra = append(d.extra, member{name: m.Name, value: json.RawMessage(data[m.Value.Start:m.Value.End])})
	}
	if linkset == nil {
		ps.add("", RuleLinksetMissing, "4.1", "the document has no linkset member")
		return d
	}
	if linkset.Kind != strictjson.KindArray {
		ps.add("/linkset", RuleLinksetArray, "4.1", "linkset is a JSON %s, not an array", linkset.Kind)
		return d
	}
	d.Contexts = make([]Context, 0, len(linkset.Elems))
	for ci := range linkset.Elems {
		d.Contexts = append(d.Contexts, buildContext(&linkset.Elems[ci], "/linkset/"+strconv.Itoa(ci), ps))
	}
	return d
}

func buildContext(n *strictjson.Value, ptr string, ps *problems) Context {
	var c Context
	if n.Kind != strictjson.KindObject {
		ps.add(ptr, RuleContextObject, "4.1", "a link context is a JSON %s, not an object", n.Kind)
		return c
	}
	c.NoAnchor = true
	c.Relations = make([]Relation, 0, len(n.Members))
	for i := range n.Members {
		m := &n.Members[i]
		if m.Name == "anchor" {
			c.NoAnchor = false
			if m.Value.Kind != strictjson.KindString {
				ps.add(ptr+"/anchor", RuleAnchorString, "4.1", "anchor is a JSON %s, not a string", m.Value.Kind)
				continue
			}
			c.Anchor = m.Value.Text
			continue
		}
		mptr := ptr + "/" + strictjson.EscapeToken(m.Name)
		if m.Value.Kind != strictjson.KindArray {
			ps.add(mptr, RuleRelationArray, "4.1", "relation %q holds a JSON %s, not an array of link objects", m.Name, m.Value.Kind)
			continue
		}
		r := Relation{Name: m.Name, Links: make([]Link, 0, len(m.Value.Elems))}
		for j := range m.Value.Elems {
			r.Links = append(r.Links, buildLink(&m.Value.Elems[j], mptr+"/"+strconv.Itoa(j), ps))
		}
		c.Relations = append(c.Relations, r)
	}
	return c
}

func buildLink(n *strictjson.Value, ptr string, ps *problems) Link {
	var l Link
	if n.Kind != strictjson.KindObject {
		ps.add(ptr, RuleLinkObject, "4.1", "a link is a JSON %s, not an object", n.Kind)
		return l
	}
	hasHref := false
	for i := range n.Members {
		m := &n.Members[i]
		mptr := func() string { return ptr + "/" + strictjson.EscapeToken(m.Name) }
		switch m.Name {
		case "href":
			hasHref = true
			if m.Value.Kind != strictjson.KindString {
				ps.add(mptr(), RuleHrefString, "4.1", "href is a JSON %s, not a string", m.Value.Kind)
				continue
			}
			l.Href = m.Value.Text
		case "type", "title", "media":
			if m.Value.Kind != strictjson.KindString {
				ps.add(mptr(), stringRule[m.Name], "4.3", "%s is a JSON %s, not a string (RFC 9264, Section 4.2.4.1)", m.Name, m.Value.Kind)
				continue
			}
			switch m.Name {
			case "type":
				l.Type, l.present = m.Value.Text, l.present|hasType
			case "title":
				l.Title, l.present = m.Value.Text, l.present|hasTitle
			default:
				l.Media, l.present = m.Value.Text, l.present|hasMedia
			}
		case "hreflang":
			vals, ok := stringArray(&m.Value)
			if !ok {
				ps.add(mptr(), RuleHreflangArray, "4.3", "hreflang is not an array of strings (RFC 9264, Section 4.2.4.1)")
				continue
			}
			l.Hreflang, l.present = vals, l.present|hasHreflang
		default:
			if strings.HasSuffix(m.Name, "*") {
				a, ok := i18nArray(m.Name, &m.Value)
				if !ok {
					ps.add(mptr(), RuleI18nAttribute, "4.3", "%s is not an array of objects with a string value and an optional string language (RFC 9264, Section 4.2.4.2)", m.Name)
					continue
				}
				l.i18n = append(l.i18n, a)
				continue
			}
			vals, ok := stringArray(&m.Value)
			if !ok {
				ps.add(mptr(), RuleAttributeArray, "4.3", "target attribute %q is not an array of strings", m.Name)
				continue
			}
			l.Attributes = append(l.Attributes, Attribute{Name: m.Name, Values: vals})
		}
	}
	if !hasHref {
		ps.add(ptr, RuleHrefMissing, "4.1", "the link has no href")
	}
	return l
}

// stringRule names the rule of a type, title or media member that is not
// a string.
var stringRule = map[string]string{"type": RuleTypeString, "title": RuleTitleString, "media": RuleMediaString}

func stringArray(n *strictjson.Value) ([]string, bool) {
	if n.Kind != strictjson.KindArray {
		return nil, false
	}
	vals := make([]string, len(n.Elems))
	for i := range n.Elems {
		if n.Elems[i].Kind != strictjson.KindString {
			return nil, false
		}
		vals[i] = n.Elems[i].Text
	}
	return vals, true
}

func i18nArray(name string, n *strictjson.Value) (i18nAttribute, bool) {
	a := i18nAttribute{name: name}
	if n.Kind != strictjson.KindArray {
		return a, false
	}
	for i := range n.Elems {
		o := &n.Elems[i]
		if o.Kind != strictjson.KindObject {
			return a, false
		}
		var lv langValue
		hasValue := false
		for _, m := range o.Members {
			if m.Value.Kind != strictjson.KindString {
				return a, false
			}
			switch m.Name {
			case "value":
				lv.value, hasValue = m.Value.Text, true
			case "language":
				lv.language = m.Value.Text
			default:
				return a, false
			}
		}
		if !hasValue {
			return a, false
		}
		a.values = append(a.values, lv)
	}
	return a, true
}
