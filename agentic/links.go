package agentic

import (
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/agentweb/agentweb/safefetch"
)

type plan []candidate

func (p plan) jobs() []job {
	out := make([]job, len(p))
	for i, c := range p {
		accept := "text/html, text/markdown;q=0.9, text/plain;q=0.8"
		if c.kind == KindOpenAPI || c.kind == KindAgentic || c.kind == KindA2A || c.kind == KindAgentAuth {
			accept = "application/json"
		}
		out[i] = job{c.url, accept, "linked " + string(c.kind) + " from " + c.source, nil}
	}
	return out
}

// kindRank orders what to fetch first: API descriptions, then nested
// profiles, then documentation.
func kindRank(k Kind) int {
	switch k {
	case KindOpenAPI:
		return 0
	case KindAgentic:
		return 1
	case KindLLMs:
		return 2
	case KindDocumentation:
		return 3
	}
	return 4
}

// nextJobs picks the same-origin candidates to fetch next, within what the
// budget has left.
func (s *scan) nextJobs(b *safefetch.Budget) plan {
	left := scanMaxAttempts - b.Usage().Attempts
	if left <= 0 {
		return nil
	}
	var p plan
	for _, c := range s.linked {
		if s.queued[c.url] || !s.fetchable(c) {
			continue
		}
		p = append(p, c)
	}
	sort.Slice(p, func(i, j int) bool {
		if kindRank(p[i].kind) != kindRank(p[j].kind) {
			return kindRank(p[i].kind) < kindRank(p[j].kind)
		}
		return p[i].url < p[j].url
	})
	if len(p) > left {
		for _, c := range p[left:] {
			s.report.Notes = append(s.report.Notes, "Not read within the attempt budget: "+c.url+".")
		}
		p = p[:left]
	}
	for _, c := range p {
		s.queued[c.url] = true
	}
	return p
}

// fetchable: same origin (or its www counterpart) and a kind the generator
// reads. MCP endpoints and other protocols are never fetched.
func (s *scan) fetchable(c candidate) bool {
	switch c.kind {
	case KindOpenAPI, KindDocumentation, KindLLMs:
	case KindAgentic:
		// Nested profiles are read only when the caller named none: the
		// root, or the named profile, takes priority. A regeneration reads
		// none.
		if s.opts.ProfileURL != "" || s.opts.Regenerate {
			return false
		}
	default:
		return false
	}
	return s.sameSite(c.url)
}

func (s *scan) sameSite(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" {
		return false
	}
	return safefetch.SameOriginOrWWW(s.origin, u) == nil
}

// classify decides what a link is, or "" when the generator ignores it.
func classify(l pageLink, u *url.URL) Kind {
	p := strings.ToLower(u.Path)
	base := path.Base(p)
	text := strings.ToLower(l.text)
	has := func(r string) bool { return slices.Contains(l.rel, r) }
	switch {
	case base == "agentic.json":
		return KindAgentic
	case base == "agent-card.json" || has("a2a"):
		return KindA2A
	case strings.HasSuffix(p, "/.well-known/agent-configuration") || has("agent-auth"):
		return KindAgentAuth
	case has("mcp") || base == "mcp" || base == "sse" && strings.Contains(p, "mcp") || strings.Contains(text, "mcp server") || strings.HasPrefix(u.Host, "mcp."):
		return KindMCP
	case base == "llms.txt" || base == "llms-full.txt":
		return KindLLMs
	case has("service-desc") || strings.Contains(l.typ, "openapi") || base == "openapi.json" || base == "swagger.json" ||
		(strings.HasSuffix(base, ".json") && strings.Contains(p, "openapi")):
		return KindOpenAPI
	case has("service-doc") || has("help") || strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".markdown"):
		return KindDocumentation
	}
	for _, w := range []string{"docs", "doc", "documentation", "developers", "developer", "guide", "guides", "reference", "api"} {
		for _, seg := range strings.Split(p, "/") {
			if seg == w {
				return KindDocumentation
			}
		}
	}
	for _, w := range []string{"documentation", "docs", "developer", "api reference", "guide"} {
		if strings.Contains(text, w) {
			return KindDocumentation
		}
	}
	return ""
}

// addLinks records the links a retrieved document selects.
func (s *scan) addLinks(links []pageLink, source string) {
	for _, l := range links {
		u, err := url.Parse(l.href)
		if err != nil {
			continue
		}
		kind := classify(l, u)
		if kind == "" {
			continue
		}
		if u.RawQuery != "" || u.ForceQuery {
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "URL has a query, which a profile URL must not; left out"})
			continue
		}
		if !validResourceURL(l.href) {
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "URL breaks the profile's URL rules; left out"})
			continue
		}
		key := string(kind) + " " + l.href
		if _, ok := s.linked[key]; ok {
			continue
		}
		c := candidate{url: l.href, kind: kind, source: source, title: cutRunes(l.text, maxTitleLength)}
		s.linked[key] = c
		switch {
		case !s.sameSite(l.href):
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "another origin: recorded, not fetched"})
		case kind == KindMCP || kind == KindA2A || kind == KindAgentAuth:
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "agent connection: recorded, never invoked"})
		}
	}
}
