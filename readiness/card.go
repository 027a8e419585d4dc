package readiness

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/gowebpki/jcs"
)

// maxCardItems bounds how many entries of any one list of a card are read.
const maxCardItems = 256

// card is what the tolerant agents.json reader understood of a capability
// card (readiness-checks.md, "The capability card"). No single format has
// won, so the reader recognises the fields of the public proposals and of
// this project's own card, reads each member only when it has the expected
// shape, and ignores the rest.
type card struct {
	// Formats lists the formats whose fields were seen: "agentweb",
	// "draft-car-agents-txt", "wild-card-ai", "jmilinovich".
	Formats     []string
	Name        string
	URL         string
	Description string
	// Publishes names the documents the card points at (llms_txt, sitemap...).
	Publishes  []string
	Interfaces []cardInterface
	Auth       *cardAuth
	Contact    *cardContact
	// Policies is true when the card states policies (jmilinovich policies,
	// draft-car access rules).
	Policies bool
}

type cardInterface struct {
	ID, Type, URL, Auth string
}

type cardAuth struct {
	Type          string
	Metadata      string
	Required      *bool
	Methods       []string
	Public        []string
	TokenRequired []string
}

type cardContact struct {
	Email, URL string
}

// names lists what the card names, of the four things a card is for.
func (c *card) names() []string {
	var out []string
	if len(c.Publishes) > 0 {
		out = append(out, "publication")
	}
	if len(c.Interfaces) > 0 {
		out = append(out, "interface")
	}
	if c.Auth != nil {
		out = append(out, "sign-in")
	}
	if c.Contact != nil {
		out = append(out, "contact")
	}
	return out
}

// readCard reads a decoded JSON value as a card. It returns nil when the
// value is not a JSON object.
func readCard(v any) *card {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	c := &card{}
	formats := map[string]bool{}

	// This project's card.
	c.Name = str(m["name"])
	c.URL = str(m["url"])
	c.Description = str(m["description"])
	if pub, ok := m["publishes"].(map[string]any); ok {
		formats["agentweb"] = true
		for k, v := range pub {
			if str(v) != "" && len(c.Publishes) < maxCardItems {
				c.Publishes = append(c.Publishes, k)
			}
		}
		sort.Strings(c.Publishes)
	}
	for _, it := range list(m["interfaces"]) {
		if o, ok := it.(map[string]any); ok && (str(o["url"]) != "" || str(o["type"]) != "") {
			formats["agentweb"] = true
			c.Interfaces = append(c.Interfaces, cardInterface{ID: str(o["id"]), Type: strings.ToLower(str(o["type"])), URL: str(o["url"]), Auth: authString(o["auth"])})
		}
	}
	if a, ok := m["auth"].(map[string]any); ok {
		formats["agentweb"] = true
		c.Auth = &cardAuth{Type: str(a["type"]), Metadata: str(a["metadata"]), Public: strs(a["public"]), TokenRequired: strs(a["token_required"])}
	}
	if ct, ok := m["contact"].(map[string]any); ok && (str(ct["email"]) != "" || str(ct["url"]) != "") {
		formats["agentweb"] = true
		c.Contact = &cardContact{Email: str(ct["email"]), URL: str(ct["url"])}
	} else if s := str(m["contact"]); s != "" {
		c.Contact = contactFrom(s)
	}

	// IETF draft-car-agents-txt-wellknown: site{name,url}, capabilities[].
	if site, ok := m["site"].(map[string]any); ok {
		formats["draft-car-agents-txt"] = true
		c.Name = first(c.Name, str(site["name"]))
		c.URL = first(c.URL, str(site["url"]))
		if s := first(str(site["contact"]), str(site["Site-Contact"])); s != "" && c.Contact == nil {
			c.Contact = contactFrom(s)
		}
	}
	for _, it := range list(m["capabilities"]) {
		if o, ok := it.(map[string]any); ok && str(o["endpoint"]) != "" {
			formats["draft-car-agents-txt"] = true
			c.Interfaces = append(c.Interfaces, cardInterface{ID: str(o["id"]), Type: strings.ToLower(str(o["protocol"])), URL: str(o["endpoint"]), Auth: authString(o["auth"])})
		}
	}
	if _, ok := m["access"].(map[string]any); ok {
		formats["draft-car-agents-txt"] = true
		c.Policies = true
	}

	// wild-card-ai agents.json: info{title,description}, sources[{id,path}], flows.
	if info, ok := m["info"].(map[string]any); ok {
		formats["wild-card-ai"] = true
		c.Name = first(c.Name, str(info["title"]))
		c.Description = first(c.Description, str(info["description"]))
	}
	for _, it := range list(m["sources"]) {
		if o, ok := it.(map[string]any); ok && str(o["path"]) != "" {
			formats["wild-card-ai"] = true
			c.Interfaces = append(c.Interfaces, cardInterface{ID: str(o["id"]), Type: "openapi", URL: str(o["path"])})
		}
	}

	// jmilinovich agents.json: site_info, authentication{required,methods}, intents, policies.
	if si, ok := m["site_info"].(map[string]any); ok {
		formats["jmilinovich"] = true
		c.Name = first(c.Name, str(si["name"]))
		c.URL = first(c.URL, str(si["url"]))
		if s := str(si["contact"]); s != "" && c.Contact == nil {
			c.Contact = contactFrom(s)
		}
	}
	if a, ok := m["authentication"].(map[string]any); ok {
		formats["jmilinovich"] = true
		ca := &cardAuth{Methods: strs(a["methods"])}
		if b, ok := a["required"].(bool); ok {
			ca.Required = &b
		}
		if c.Auth == nil {
			c.Auth = ca
		}
	}
	for _, it := range list(m["intents"]) {
		if o, ok := it.(map[string]any); ok && (str(o["endpoint"]) != "" || str(o["name"]) != "") {
			formats["jmilinovich"] = true
			c.Interfaces = append(c.Interfaces, cardInterface{ID: str(o["name"]), Type: "intent", URL: str(o["endpoint"])})
		}
	}
	if _, ok := m["policies"]; ok {
		formats["jmilinovich"] = true
		c.Policies = true
	}
	if len(c.Interfaces) > maxCardItems {
		c.Interfaces = c.Interfaces[:maxCardItems]
	}
	for f := range formats {
		c.Formats = append(c.Formats, f)
	}
	sort.Strings(c.Formats)
	return c
}

func contactFrom(s string) *cardContact {
	if e, ok := strings.CutPrefix(s, "mailto:"); ok {
		return &cardContact{Email: e}
	}
	if strings.Contains(s, "@") && !strings.Contains(s, "/") {
		return &cardContact{Email: s}
	}
	return &cardContact{URL: s}
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

func strs(v any) []string {
	var out []string
	for _, x := range list(v) {
		if s := str(x); s != "" {
			out = append(out, s)
		}
	}
	return out
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
			c.card = readCard(c.value)
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
// (readiness-checks.md, capability_manifest partial).
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
