package linkset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// Document is a JSON link set (RFC 9264, Section 4.2) as read or as built. It
// holds the link context objects of its linkset member, in document order. It
// also holds any other top-level member, which the profile forbids (Section
// 4.1). A reader keeps those so that a round trip loses nothing.
//
// A Document returned by [Parse] has the shape of a link set; whether it
// conforms to the knowledge-linkset profile is the job of [Document.Check].
type Document struct {
	// Contexts are the link context objects of the linkset array, in order.
	Contexts []Context

	// extra holds every top-level member other than linkset, in order, as
	// read; the profile allows none (Section 4.1), but a round trip keeps
	// them.
	extra []member
	// src is the bytes Parse read the document from, for ModeStrict's
	// canonical-bytes test; nil for a document built in code.
	src []byte
}

// member is a JSON object member kept as raw JSON.
type member struct {
	name  string
	value json.RawMessage
}

// Context is one link context object (RFC 9264, Section 4.2.2): an anchor
// and the relations of its links, in document order.
type Context struct {
	// Anchor is the link context; for the context this profile reads it is
	// the Bundle IRI, the origin's base URL with a trailing solidus (Section 4.1).
	Anchor string
	// NoAnchor records that the object had no anchor member (Anchor is then "").
	NoAnchor bool
	// Relations holds each relation type and its link target objects, in order.
	Relations []Relation
}

// Relation is one member of a link context object: a relation type (a
// registered short name or an extension relation URI, Section 4.2) and its
// link target objects in document order.
type Relation struct {
	Name  string
	Links []Link
}

// Link is one link target object (RFC 9264, Section 4.2.3).
type Link struct {
	// Href is the target URI; the profile requires an absolute URI (Section 4.1).
	Href string
	// Type is the advisory media type hint (Section 4.3); "" when absent.
	Type string
	// Title is the target's title; "" when absent.
	Title string
	// Hreflang lists the target's languages; nil when absent.
	Hreflang []string
	// Media is the target's media query (RFC 8288, Section 3.4.1); "" when absent.
	Media string
	// Attributes are every other target attribute whose value is an array of
	// strings (digest, profile, the agsc- attributes, and any extension the
	// reader does not recognise), in document order (Section 4.3).
	Attributes []Attribute

	// i18n are the target attributes whose name ends in "*" (RFC 9264,
	// Sections 4.2.4.2 and 4.2.4.3), such as title*, kept for a round
	// trip; the profile reads none of them.
	i18n []i18nAttribute

	present uint8 // which of type, title and hreflang were present as read
}

const (
	hasType uint8 = 1 << iota
	hasTitle
	hasHreflang
	hasMedia
)

// Attribute is a target attribute whose value is an array of strings.
type Attribute struct {
	Name   string
	Values []string
}

// i18nAttribute is an internationalized target attribute (RFC 9264,
// Section 4.2.4.2): an array of values each with an optional language.
type i18nAttribute struct {
	name   string
	values []langValue
}

// langValue is one value of an internationalized target attribute.
type langValue struct {
	value    string
	language string
}

// Attr returns the values of the named target attribute and whether the link
// carries it. Names are compared exactly (target attribute names are
// lower-case in this profile).
func (l *Link) Attr(name string) ([]string, bool) {
	for _, a := range l.Attributes {
		if a.Name == name {
			return a.Values, true
		}
	}
	return nil, false
}

// FirstAttr returns the first value of the named attribute, or "".
func (l *Link) FirstAttr(name string) string {
	v, _ := l.Attr(name)
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// setAttr sets the named attribute to values, replacing it where present
// and appending it otherwise.
func (l *Link) setAttr(name string, values ...string) {
	for i := range l.Attributes {
		if l.Attributes[i].Name == name {
			l.Attributes[i].Values = values
			return
		}
	}
	l.Attributes = append(l.Attributes, Attribute{Name: name, Values: values})
}

// Relation returns the links of the named relation in the context, or nil.
// Registered short names are compared case-insensitively (RFC 8288, Section 2.1.1).
func (c *Context) Relation(name string) []Link {
	for _, r := range c.Relations {
		if r.Name == name || (!strings.Contains(name, ":") && strings.EqualFold(r.Name, name)) {
			return r.Links
		}
	}
	return nil
}

// MarshalJSON writes the document as compact JSON, keeping context,
// relation, link and attribute order. It is the inverse of UnmarshalJSON:
// parsing its output yields an equal Document. Canonical bytes are
// [Document.Canonical].
func (d *Document) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 4096)
	b = append(b, `{"linkset":[`...)
	for i := range d.Contexts {
		if i > 0 {
			b = append(b, ',')
		}
		b = d.Contexts[i].appendJSON(b)
	}
	b = append(b, ']')
	for _, m := range d.extra {
		b = append(b, ',')
		b = strictjson.AppendString(b, m.name)
		b = append(b, ':')
		var buf bytes.Buffer
		if err := json.Compact(&buf, m.value); err != nil {
			return nil, fmt.Errorf("linkset: top-level member %q: %w", m.name, err)
		}
		b = append(b, buf.Bytes()...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads data as [Parse] does, keeping every problem of the
// link-set shape in the returned *ValidationError.
func (d *Document) UnmarshalJSON(data []byte) error {
	doc, err := Parse(bytes.Clone(data))
	if err != nil {
		return err
	}
	*d = *doc
	return nil
}

func (c *Context) appendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	if !c.NoAnchor || c.Anchor != "" {
		b = append(b, `"anchor":`...)
		b = strictjson.AppendString(b, c.Anchor)
		first = false
	}
	for _, r := range c.Relations {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strictjson.AppendString(b, r.Name)
		b = append(b, ":["...)
		for j := range r.Links {
			if j > 0 {
				b = append(b, ',')
			}
			b = r.Links[j].appendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (l *Link) appendJSON(b []byte) []byte {
	b = append(b, `{"href":`...)
	b = strictjson.AppendString(b, l.Href)
	if l.Type != "" || l.present&hasType != 0 {
		b = append(b, `,"type":`...)
		b = strictjson.AppendString(b, l.Type)
	}
	if l.Title != "" || l.present&hasTitle != 0 {
		b = append(b, `,"title":`...)
		b = strictjson.AppendString(b, l.Title)
	}
	if l.Media != "" || l.present&hasMedia != 0 {
		b = append(b, `,"media":`...)
		b = strictjson.AppendString(b, l.Media)
	}
	if l.Hreflang != nil || l.present&hasHreflang != 0 {
		b = append(b, `,"hreflang":`...)
		b = appendStrings(b, l.Hreflang)
	}
	for _, a := range l.Attributes {
		b = append(b, ',')
		b = strictjson.AppendString(b, a.Name)
		b = append(b, ':')
		b = appendStrings(b, a.Values)
	}
	for _, a := range l.i18n {
		b = append(b, ',')
		b = strictjson.AppendString(b, a.name)
		b = append(b, ":["...)
		for i, v := range a.values {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"value":`...)
			b = strictjson.AppendString(b, v.value)
			if v.language != "" {
				b = append(b, `,"language":`...)
				b = strictjson.AppendString(b, v.language)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = strictjson.AppendString(b, s)
	}
	return append(b, ']')
}
