package readiness

import (
	"sync"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// manifestFind is another recognised manifest found when no card is
// (the check catalogue, capability_manifest partial).
type manifestFind struct {
	kind string
	f    *fetched
}

// otherManifestPaths are the other manifests capability_manifest accepts as
// partial, with how each is recognised by shape. Full validation belongs to
// the optional-convention checks.
var otherManifestPaths = []struct {
	path, kind string
	is         func(map[string]any) bool
}{
	{"/agentic.json", "agentic.json site profile", func(m map[string]any) bool { return str(m["agentic"]) != "" && str(m["origin"]) != "" }},
	{"/.well-known/api-catalog", "RFC 9727 api-catalog", func(m map[string]any) bool { _, ok := m["linkset"].([]any); return ok }},
	{"/.well-known/knowledge-linkset", "knowledge-linkset", func(m map[string]any) bool { _, ok := m["linkset"].([]any); return ok }},
	{"/.well-known/agent-card.json", "A2A agent card", func(m map[string]any) bool { _, ok := m["skills"].([]any); return ok && str(m["name"]) != "" }},
	{"/.well-known/mcp/server-card", "MCP server card", func(m map[string]any) bool { return str(m["name"]) != "" || m["serverInfo"] != nil }},
	{"/.well-known/mcp.json", "MCP server card", func(m map[string]any) bool { return str(m["name"]) != "" || m["serverInfo"] != nil }},
	{"/.well-known/mcp/server-card.json", "MCP server card", func(m map[string]any) bool { return str(m["name"]) != "" || m["serverInfo"] != nil }},
}

// otherManifests reads the other manifest locations, once per scan.
func (s *scan) otherManifests() []manifestFind {
	return readOnce(s, "other-manifests", s.readOtherManifests)
}

// readOtherManifests fetches the other recognised manifests concurrently and
// returns those found, in table order, and every request made.
func (s *scan) readOtherManifests() []manifestFind {
	out := make([]manifestFind, len(otherManifestPaths))
	var wg sync.WaitGroup
	for i, p := range otherManifestPaths {
		wg.Go(func() { out[i] = manifestFind{kind: p.kind, f: s.get(s.resolve(p.path), "")} })
	}
	wg.Wait()
	return out
}

// recognised reports whether a manifest find is a JSON object of its kind.
func (m manifestFind) recognised() bool {
	if !m.f.ok() {
		return false
	}
	v, err := strictjson.Decode(m.f.body())
	if err != nil {
		return false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, p := range otherManifestPaths {
		if p.kind == m.kind && p.is(obj) {
			return true
		}
	}
	return false
}
