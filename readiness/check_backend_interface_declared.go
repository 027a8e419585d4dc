package readiness

import (
	"cmp"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/strictjson"
)

func init() {
	register(checkDef{id: "backend_interface_declared", needs: []resource{resCards, resPage}, run: checkBackendInterfaceDeclared})
}

// maxInterfaceFetches bounds the interface documents fetched by
// backend_interface_declared, besides the MCP probe.
const maxInterfaceFetches = 6

var openAPIYAML = regexp.MustCompile(`(?m)^openapi:\s*["']?3\.\d`)

// isOpenAPI3 reports whether a body is an OpenAPI 3 document: a JSON object
// whose openapi member is a 3.x version with info or paths, or YAML with an
// openapi: 3.x line.
func isOpenAPI3(body []byte) bool {
	if v, err := strictjson.Decode(body); err == nil {
		m, ok := v.(map[string]any)
		return ok && strings.HasPrefix(str(m["openapi"]), "3.") && (m["info"] != nil || m["paths"] != nil)
	}
	return openAPIYAML.Match(body)
}

// checkBackendInterfaceDeclared: R9, the service declares a backend tool or API
// (the check catalogue, Connect; method Section 03: any honest answer counts).
// It may be an MCP endpoint that answers, an OpenAPI 3 document that parses, or
// a GraphQL endpoint that answers a query. It may be another interface named in
// the card that answers. They are found in the card, agentic.json, the page's
// Link headers (service-desc, service-doc), the MCP server card, /openapi.json
// and /mcp. Named but none reachable is partial. It is not applicable only when
// the card states the site offers no tool or API.
func checkBackendInterfaceDeclared(s *scan) outcome {
	return s.backendRead()
}

// backendRead is the outcome of backend_interface_declared, computed once per
// scan: mcp_tested_execution reads its verdict too.
func (s *scan) backendRead() outcome {
	return readOnce(s, "backend-interface", s.readBackend)
}

func (s *scan) readBackend() outcome {
	o := s.mcpRead()
	out := outcome{requests: o.requests}
	var live, named []string
	unanswered := false

	if o.isMCP() {
		live = append(live, "MCP endpoint "+o.endpoint)
	} else {
		if o.declared {
			named = append(named, "MCP endpoint "+o.endpoint)
		}
		if u := o.probe.unanswered(); u != nil {
			// Even the default /mcp: an unanswered probe is not an absence.
			unanswered = true
			out.notes = append(out.notes, fmt.Sprintf("MCP probe of %s: %s", o.endpoint, cmp.Or(u.Error, "no answer")))
		}
	}
	if c := s.cardsRead(); !c.wellKnown.f.answered() || !c.root.f.answered() {
		unanswered = true
	}

	type candidate struct{ kind, url, source string }
	var cands []candidate
	seen := map[string]bool{o.endpoint: true}
	base, _ := url.Parse(s.page.String())
	addFrom := func(base *url.URL, kind, raw, source string) {
		u, err := base.Parse(strings.TrimSpace(raw))
		if err != nil || raw == "" {
			return
		}
		u.Fragment, u.RawFragment = "", ""
		k := u.String()
		if seen[k] {
			return
		}
		seen[k] = true
		if !s.sameRegistrable(u) {
			named = append(named, fmt.Sprintf("%s %s (another site: named, not fetched)", kind, k))
			return
		}
		cands = append(cands, candidate{kind, k, source})
	}
	add := func(kind, raw, source string) { addFrom(base, kind, raw, source) }
	statesNone := false
	// The card's interfaces, relative URLs resolved against the card's own
	// address (RFC 3986 Section 5.1.3), not the page's.
	for _, cp := range []*cardCopy{s.cardsRead().wellKnown, s.cardsRead().root} {
		if cp.card == nil {
			continue
		}
		cardBase := base
		if u, err := url.Parse(cp.f.finalURL()); err == nil && u.IsAbs() {
			cardBase = u
		}
		for _, it := range cp.card.Interfaces {
			if it.Type == "mcp" {
				continue
			}
			addFrom(cardBase, cmp.Or(it.Type, "interface"), it.URL, "the card")
		}
		break
	}
	for _, cp := range []*cardCopy{s.cardsRead().wellKnown, s.cardsRead().root} {
		if m, ok := cp.value.(map[string]any); ok {
			for _, k := range []string{"interfaces", "capabilities"} {
				if l, ok := m[k].([]any); ok && len(l) == 0 {
					statesNone = true
				}
			}
		}
	}
	if a := s.agenticRead(); a.value != nil {
		out.requests = append(out.requests, a.f)
		for _, r := range agenticResources(a.value) {
			if r.kind == "openapi" {
				add("openapi", r.url, "agentic.json")
			}
		}
	}
	if p := s.pageRead(); p.readable() {
		for _, l := range p.headerLinks {
			if l.HasRel("service-desc") {
				add("openapi", l.Target, "the page's Link header")
			} else if l.HasRel("service-doc") {
				named = append(named, "API documentation "+l.Target+" (service-doc)")
			}
		}
		for _, l := range p.head.Links {
			if hasRel(l, "service-desc") {
				add("openapi", l.Href, "the page's <head>")
			}
		}
	}
	add("openapi", s.resolve("/openapi.json"), "the default path /openapi.json")

	if len(cands) > maxInterfaceFetches {
		out.notes = append(out.notes, fmt.Sprintf("fetched the first %d of %d interface candidates", maxInterfaceFetches, len(cands)))
		cands = cands[:maxInterfaceFetches]
	}
	results := make([]*fetched, len(cands))
	var wg sync.WaitGroup
	for i, c := range cands {
		wg.Go(func() {
			if c.kind == "graphql" {
				results[i] = s.get(c.url+"?query=%7B__typename%7D", "application/json")
			} else {
				results[i] = s.get(c.url, "")
			}
		})
	}
	wg.Wait()
	for i, c := range cands {
		f := results[i]
		out.requests = append(out.requests, f)
		guessed := strings.HasPrefix(c.source, "the default path")
		if !guessed {
			named = append(named, fmt.Sprintf("%s %s (from %s)", c.kind, c.url, c.source))
		}
		if !f.answered() {
			unanswered = true
			continue
		}
		if !f.ok() || looksLikeHTML(f.body()) && c.kind == "openapi" {
			continue
		}
		switch c.kind {
		case "openapi", "rest", "http":
			if isOpenAPI3(f.body()) {
				live = append(live, "OpenAPI 3 document "+c.url)
			} else if c.kind == "openapi" && !guessed {
				out.notes = append(out.notes, c.url+" is not an OpenAPI 3 document")
			} else if !guessed {
				live = append(live, c.kind+" interface "+c.url+" answers")
			}
		case "graphql":
			if v, err := strictjson.Decode(f.body()); err == nil {
				if m, ok := v.(map[string]any); ok && m["data"] != nil {
					live = append(live, "GraphQL endpoint "+c.url)
				}
			}
		default:
			live = append(live, c.kind+" interface "+c.url+" answers")
		}
	}
	switch {
	case len(live) > 0:
		out.verdict, out.received = VerdictPass, "a live interface: "+strings.Join(live, "; ")
	case unanswered:
		out.verdict, out.received = VerdictUnverified, "no live interface in what answered, and some requests went unanswered"
		if len(named) > 0 {
			out.received += "; named: " + strings.Join(named, "; ")
		}
	case len(named) > 0:
		out.verdict, out.received = VerdictPartial, "named but not reachable: "+strings.Join(named, "; ")
	case statesNone:
		out.verdict, out.received = VerdictNotApplicable, "the card states the site offers no tool or API"
	default:
		out.verdict, out.received = VerdictFail, "no MCP endpoint, OpenAPI document, GraphQL schema or card interface"
	}
	return out
}
