package agentsjson

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// Parse reads an agents.json text tolerantly. The text must be strict JSON;
// otherwise the error wraps [ErrInvalid] and carries strict JSON's rule and
// pointer. The JSON must be an object, else the error wraps [ErrNotObject].
// Every other irregularity is read around and reported in [Card.Skipped].
// A JSON object in no recognised format gives a card with an empty Format.
// Its Foreign is set when it is a known document of another kind.
func Parse(data []byte) (*Card, error) {
	v, err := strictjson.Decode(data)
	if err != nil {
		var se *strictjson.Error
		p := Problem{Rule: RuleSyntax, Message: err.Error()}
		if errors.As(err, &se) {
			p = Problem{Pointer: se.Pointer, Rule: se.Rule, Message: se.Message}
		}
		return nil, problem.New([]Problem{p}, ErrInvalid)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, problem.New([]Problem{{Rule: RuleNotObject, Message: "the card is not a JSON object"}}, ErrNotObject)
	}
	c := read(m)
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) == nil {
		for k, r := range raw {
			if !readMembers[k] && !(k == "source" && (&reader{}).singularSource(m)) {
				if c.Extra == nil {
					c.Extra = map[string]json.RawMessage{}
				}
				c.Extra[k] = r
			}
		}
	}
	return c, nil
}

// readMembers are the top-level members some recognised format reads.
var readMembers = map[string]bool{
	"name": true, "url": true, "description": true, "publishes": true, "interfaces": true, "auth": true, "contact": true,
	"site": true, "capabilities": true, "access": true,
	"info": true, "sources": true, "flows": true,
	"site_info": true, "authentication": true, "intents": true, "policies": true,
}

type reader struct {
	c       *Card
	formats map[Format]bool
}

func (r *reader) skip(pointer, rule, format string, args ...any) {
	if len(r.c.Skipped) < MaxItems {
		r.c.Skipped = append(r.c.Skipped, Problem{Pointer: pointer, Rule: rule, Message: fmt.Sprintf(format, args...), Severity: SeverityNotice})
	}
}

// list returns v as a bounded array, reporting a wrong shape or a cut.
func (r *reader) list(v any, pointer string) []any {
	if v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		r.skip(pointer, RuleShape, "not an array")
		return nil
	}
	if len(l) > MaxItems {
		r.skip(pointer, RuleLimit, "%d entries; only the first %d read", len(l), MaxItems)
		l = l[:MaxItems]
	}
	return l
}

func (r *reader) addInterface(it Interface) bool {
	if len(r.c.Interfaces) >= MaxItems {
		r.skip("", RuleLimit, "more than %d interfaces; the rest skipped", MaxItems)
		return false
	}
	r.formats[it.Source] = true
	r.c.Interfaces = append(r.c.Interfaces, it)
	return true
}

func read(m map[string]any) *Card {
	r := &reader{c: &Card{}, formats: map[Format]bool{}}
	c := r.c
	r.readMethod(m)
	r.readAgentsTxt(m)
	r.readWildCard(m)
	r.readSiteInfo(m)
	for _, f := range formatOrder {
		if r.formats[f] {
			c.Formats = append(c.Formats, f)
		}
	}
	slices.Sort(c.Formats)
	for _, f := range formatOrder {
		if r.formats[f] {
			c.Format = f
			break
		}
	}
	if c.Format == "" {
		c.Foreign = foreignKind(m)
	}
	return c
}

// readSite reads a format's site object into the card's name, URL,
// description and contact, where an earlier format left them empty. The URL
// and the contact are the first of their members that holds text.
func (r *reader) readSite(f Format, o map[string]any, urlKeys, contactKeys []string) {
	c := r.c
	r.formats[f] = true
	c.Name = cmp.Or(c.Name, str(o["name"]))
	c.URL = cmp.Or(c.URL, firstText(o, urlKeys))
	c.Description = cmp.Or(c.Description, str(o["description"]))
	if s := firstText(o, contactKeys); s != "" && c.Contact == nil {
		c.Contact = contactFrom(s)
	}
}

// firstText returns the first of o's members named in keys that holds text.
func firstText(o map[string]any, keys []string) string {
	for _, k := range keys {
		if s := str(o[k]); s != "" {
			return s
		}
	}
	return ""
}

// foreignKind names a known document of another kind.
func foreignKind(m map[string]any) string {
	_, skills := m["skills"].([]any)
	_, linkset := m["linkset"].([]any)
	_, transport := m["transport"].(map[string]any)
	_, remotes := m["remotes"].([]any)
	switch {
	case skills && str(m["name"]) != "":
		return "an A2A agent card"
	case m["serverInfo"] != nil || transport || remotes:
		return "an MCP server card"
	case str(m["openapi"]) != "" || str(m["swagger"]) != "":
		return "an OpenAPI document"
	case str(m["agentic"]) != "":
		return "an Agentic Site Profile"
	case linkset:
		return "a link set"
	}
	return ""
}

func contactFrom(s string) *Contact {
	if e, ok := strings.CutPrefix(s, "mailto:"); ok {
		return &Contact{Email: e}
	}
	if strings.Contains(s, "@") && !strings.Contains(s, "/") {
		return &Contact{Email: s}
	}
	return &Contact{URL: s}
}

func authString(v any) string {
	if s := str(v); s != "" {
		return s
	}
	if o, ok := v.(map[string]any); ok {
		return str(o["type"])
	}
	return ""
}

// str returns v with spaces trimmed, or "" when v is not a string.
func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

func (r *reader) strs(v any, pointer string) []string {
	var out []string
	for i, x := range r.list(v, pointer) {
		if s := str(x); s != "" {
			out = append(out, s)
		} else {
			r.skip(fmt.Sprintf("%s/%d", pointer, i), RuleShape, "not a non-empty string")
		}
	}
	return out
}
