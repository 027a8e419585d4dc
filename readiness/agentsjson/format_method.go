package agentsjson

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// readMethod reads the method's own card.
func (r *reader) readMethod(m map[string]any) {
	c := r.c
	c.Name = str(m["name"])
	c.URL = str(m["url"])
	c.Description = str(m["description"])
	if v, present := m["publishes"]; present {
		pub, ok := v.(map[string]any)
		if !ok {
			r.skip("/publishes", RuleShape, "not an object of names and URLs")
		}
		for _, k := range slices.Sorted(maps.Keys(pub)) {
			u := str(pub[k])
			if u == "" {
				r.skip("/publishes/"+strictjson.EscapeToken(k), RuleShape, "not a URL string")
				continue
			}
			if len(c.Publishes) >= MaxItems {
				r.skip("/publishes", RuleLimit, "more than %d publications; the rest skipped", MaxItems)
				break
			}
			if c.Publishes == nil {
				c.Publishes = map[string]string{}
			}
			c.Publishes[k] = u
			r.formats[FormatMethod] = true
		}
	}
	if l, ok := m["interfaces"].([]any); ok && len(l) == 0 {
		// The card states that the site offers no tool or API.
		c.Interfaces = []Interface{}
		r.formats[FormatMethod] = true
	}
	switch v := m["interfaces"].(type) {
	case nil:
	case map[string]any:
		// Some cards key their interfaces by name.
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i >= MaxItems {
				r.skip("/interfaces", RuleLimit, "more than %d interfaces; the rest skipped", MaxItems)
				break
			}
			r.methodInterface(v[k], "/interfaces/"+strictjson.EscapeToken(k), k)
		}
	default:
		for i, it := range r.list(v, "/interfaces") {
			r.methodInterface(it, fmt.Sprintf("/interfaces/%d", i), "")
		}
	}
	if v, present := m["auth"]; present {
		if a, ok := v.(map[string]any); ok {
			r.formats[FormatMethod] = true
			c.Auth = &Auth{Type: str(a["type"]), Metadata: str(a["metadata"]), Public: r.strs(a["public"], "/auth/public"), TokenRequired: r.strs(a["token_required"], "/auth/token_required")}
			if b, ok := a["required"].(bool); ok {
				c.Auth.Required = &b
			}
		} else if s := str(v); s != "" {
			r.formats[FormatMethod] = true
			c.Auth = &Auth{Type: s}
		} else {
			r.skip("/auth", RuleShape, "not an object")
		}
	}
	switch ct := m["contact"].(type) {
	case nil:
	case map[string]any:
		if str(ct["email"]) != "" || str(ct["url"]) != "" {
			r.formats[FormatMethod] = true
			c.Contact = &Contact{Email: strings.TrimPrefix(str(ct["email"]), "mailto:"), URL: str(ct["url"])}
		} else {
			r.skip("/contact", RuleShape, "neither an email nor a URL")
		}
	default:
		if s := str(ct); s != "" {
			c.Contact = contactFrom(s)
		} else {
			r.skip("/contact", RuleShape, "not an object or a string")
		}
	}
}

func (r *reader) methodInterface(v any, pointer, key string) {
	switch o := v.(type) {
	case map[string]any:
		it := Interface{ID: cmp.Or(str(o["id"]), key), Type: strings.ToLower(cmp.Or(str(o["type"]), str(o["protocol"]))), URL: cmp.Or(str(o["url"]), str(o["endpoint"])), Auth: authString(o["auth"]), Source: FormatMethod}
		if it.URL == "" && it.Type == "" {
			r.skip(pointer, RuleShape, "an interface with neither a url nor a type")
			return
		}
		r.addInterface(it)
	case string:
		if s := strings.TrimSpace(o); s != "" && key != "" {
			r.addInterface(Interface{ID: key, Type: strings.ToLower(key), URL: s, Source: FormatMethod})
			return
		}
		r.skip(pointer, RuleShape, "not an interface object")
	default:
		r.skip(pointer, RuleShape, "not an interface object")
	}
}
