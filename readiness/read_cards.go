package readiness

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/readiness/agentsjson"
	"github.com/gowebpki/jcs"
)

// maxCardItems bounds how many entries of any one list of a card (and of
// the other documents the scanner reads tolerantly) are read.
const maxCardItems = agentsjson.MaxItems

// card is what the tolerant agents.json reader understood of a capability
// card. The scanner reads cards only through package agentsjson, the reader
// a publisher's card is written with.
type card = agentsjson.Card

// readCard reads an agents.json body as a card. It returns nil, and the
// reader's error, when the body is not a JSON object.
func readCard(body []byte) (*card, error) {
	return agentsjson.Parse(body)
}

func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func list(v any) []any {
	l, _ := v.([]any)
	if len(l) > maxCardItems {
		l = l[:maxCardItems]
	}
	return l
}

// cardCopy is one of the two agents.json locations as read.
type cardCopy struct {
	f       *fetched
	present bool // a 2xx answer
	value   any
	jsonErr error
	card    *card
}

type cardsObs struct {
	wellKnown, root *cardCopy
}

func (s *scan) readCards() *cardsObs {
	read := func(path string) *cardCopy {
		c := &cardCopy{f: s.get(s.resolve(path), "")}
		if !c.f.ok() {
			return c
		}
		mt, _ := c.f.mediaType()
		if mt == "text/html" || looksLikeHTML(c.f.body()) {
			// An HTML page served for every path (a single-page app's
			// fallback) is not a card.
			return c
		}
		c.present = true
		c.value, c.jsonErr = strictjson.Decode(c.f.body())
		if c.jsonErr == nil {
			c.card, _ = readCard(c.f.body())
		}
		return c
	}
	o := &cardsObs{}
	done := make(chan struct{})
	go func() { o.root = read("/agents.json"); close(done) }()
	o.wellKnown = read("/.well-known/agents.json")
	<-done
	return o
}

// canonicalJSON returns the RFC 8785 (JCS) bytes of a JSON text, or nil
// when it is not valid JSON.
func canonicalJSON(b []byte) []byte {
	if !json.Valid(b) {
		return nil
	}
	out, err := jcs.Transform(bytes.Clone(b))
	if err != nil {
		return nil
	}
	return out
}

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

// readOtherManifests fetches the other recognised manifests concurrently and
// returns those found, in table order, and every request made.
func (s *scan) readOtherManifests() []manifestFind {
	out := make([]manifestFind, len(otherManifestPaths))
	done := make(chan int, len(otherManifestPaths))
	for i, p := range otherManifestPaths {
		go func() {
			out[i] = manifestFind{kind: p.kind, f: s.get(s.resolve(p.path), "")}
			done <- i
		}()
	}
	for range otherManifestPaths {
		<-done
	}
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
