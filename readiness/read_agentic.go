package readiness

import (
	"errors"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// agenticDoc is /agentic.json as read. It keeps the raw object, for the
// tolerant readers of the Connect and Trust checks. It keeps the result of
// validating it with package agentic (Agentic Site Profile 1.1).
type agenticDoc struct {
	f     *fetched
	value map[string]any
	site  *agentic.Site
	err   error // agentic.ParseSite's error, or the JSON error
}

// agenticRead reads /agentic.json once per scan.
func (s *scan) agenticRead() *agenticDoc {
	return readOnce(s, "agentic", func() *agenticDoc {
		d := &agenticDoc{f: s.get(s.resolve("/agentic.json"), "")}
		if !d.f.ok() || looksLikeHTML(d.f.body()) {
			return d
		}
		v, err := strictjson.Decode(d.f.body())
		if err != nil {
			d.err = err
			return d
		}
		m, ok := v.(map[string]any)
		if !ok {
			d.err = errors.New("not a JSON object")
			return d
		}
		d.value = m
		if _, ok := m["agentic"]; !ok {
			// A document of another format at the same path: one finding,
			// not the schema's every complaint.
			d.err = errForeignAgentic
			return d
		}
		d.site, d.err = agentic.ParseSite(d.f.body())
		return d
	})
}

type agenticResource struct{ kind, url string }

// agenticResources reads the resource records of an agentic.json object
// tolerantly (the document need not validate to name an interface).
func agenticResources(m map[string]any) []agenticResource {
	var out []agenticResource
	for _, it := range list(m["resources"]) {
		if o, ok := it.(map[string]any); ok && str(o["url"]) != "" {
			out = append(out, agenticResource{kind: str(o["kind"]), url: str(o["url"])})
		}
	}
	return out
}
