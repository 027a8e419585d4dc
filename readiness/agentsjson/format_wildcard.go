package agentsjson

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
)

// readWildCard reads wild-card-ai's agents.json. Every source is an OpenAPI
// document, and flows refer to sources by id.
func (r *reader) readWildCard(m map[string]any) {
	c := r.c
	_, openapi := m["openapi"]
	_, swagger := m["swagger"]
	if info, ok := m["info"].(map[string]any); ok && !openapi && !swagger {
		// An OpenAPI document has an info object too; it is not a card.
		r.formats[FormatWildCard] = true
		c.Name = cmp.Or(c.Name, str(info["title"]))
		c.Description = cmp.Or(c.Description, str(info["description"]))
	}
	if str(m["agentsJson"]) != "" {
		r.formats[FormatWildCard] = true
	}
	sources := map[string]bool{}
	anySource := false // a source without an id answers every sourceId
	addSource := func(o map[string]any, pointer string) {
		u := cmp.Or(str(o["path"]), str(o["url"]))
		if u == "" {
			r.skip(pointer, RuleShape, "a source without a path or url")
			return
		}
		// The format's sources are OpenAPI documents.
		typ := cmp.Or(strings.ToLower(str(o["type"])), "openapi")
		id := str(o["id"])
		sources[id] = true
		anySource = anySource || id == ""
		r.addInterface(Interface{ID: id, Type: typ, URL: u, Source: FormatWildCard})
	}
	for i, it := range r.list(m["sources"], "/sources") {
		o, ok := it.(map[string]any)
		if !ok {
			r.skip(fmt.Sprintf("/sources/%d", i), RuleShape, "a source without a path")
			continue
		}
		addSource(o, fmt.Sprintf("/sources/%d", i))
	}
	// A flows card may name its one interface as a singular source. That is
	// an object ({"type": "openapi", "url": ...}) or a URL string. It is read
	// only beside flows or agentsJson, where the member means this.
	if r.singularSource(m) {
		switch v := m["source"].(type) {
		case map[string]any:
			addSource(v, "/source")
		case string:
			if u := strings.TrimSpace(v); u != "" {
				anySource = true
				r.addInterface(Interface{Type: "openapi", URL: u, Source: FormatWildCard})
			} else {
				r.skip("/source", RuleShape, "an empty source URL")
			}
		default:
			r.skip("/source", RuleShape, "not a source object or URL")
		}
	}
	for i, it := range r.list(m["flows"], "/flows") {
		o, ok := it.(map[string]any)
		if !ok {
			r.skip(fmt.Sprintf("/flows/%d", i), RuleShape, "not a flow object")
			continue
		}
		r.formats[FormatWildCard] = true
		for j, a := range r.list(o["actions"], fmt.Sprintf("/flows/%d/actions", i)) {
			ao, _ := a.(map[string]any)
			if id := str(ao["sourceId"]); id != "" && !sources[id] && !anySource {
				r.skip(fmt.Sprintf("/flows/%d/actions/%d/sourceId", i, j), RuleShape, "names source %q, which the card does not list", shorten.Runes(id, 80))
			}
		}
	}
}

// singularSource reports whether m holds a singular source member that the
// flows format reads: beside flows or agentsJson.
func (r *reader) singularSource(m map[string]any) bool {
	if _, ok := m["source"]; !ok {
		return false
	}
	_, flows := m["flows"]
	return flows || str(m["agentsJson"]) != ""
}
