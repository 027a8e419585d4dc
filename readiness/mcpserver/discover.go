package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/webread"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/agentsjson"
	"github.com/agentweb/agentweb/safefetch"
)

// The kinds discover_site reports beside the five documents.
const (
	kindLLMsTxt     = "llms_txt"
	kindSitemap     = "sitemap"
	kindRobotsTxt   = "robots_txt"
	kindMCPEndpoint = "mcp_endpoint"
)

// The statuses of a discovered document.
const (
	statusFound      = "found"
	statusAbsent     = "absent"
	statusInvalid    = "invalid"
	statusUnverified = "unverified"
)

// discoverBudget bounds one discover_site call.
var discoverBudget = safefetch.BudgetLimits{Attempts: 40, Bytes: 8 << 20, Concurrency: 4, Timeout: 30 * time.Second}

// discovered is one document of discover_site's result.
type discovered struct {
	Kind       string                `json:"kind"`
	URL        string                `json:"url"`
	Status     string                `json:"status"`
	Reason     string                `json:"reason,omitempty"`
	Problems   []problem.Problem     `json:"problems"`
	Provenance *safefetch.Provenance `json:"provenance,omitempty"`

	body   []byte
	parsed any // the document as check parsed it, when it did
}

type discovery struct {
	Origin      string       `json:"origin"`
	Documents   []discovered `json:"documents"`
	Development bool         `json:"development,omitempty"`
}

// where lists what discover_site looks for at an origin, in the order of
// its result.
var where = []struct{ kind, path, accept string }{
	{KindAgenticSite, "/agentic.json", accept[KindAgenticSite]},
	{KindOpenAgent, openagent.WellKnownPath, accept[KindOpenAgent]},
	{KindKnowledgeLinkset, linkset.WellKnownPath, accept[KindKnowledgeLinkset]},
	{KindAgentSignup, agentsignup.WellKnownPath, accept[KindAgentSignup]},
	{KindAgentsJSON, agentsjson.WellKnownPath, accept[KindAgentsJSON]},
	{kindLLMsTxt, "/llms.txt", "text/plain, text/markdown;q=0.9"},
	{kindRobotsTxt, "/robots.txt", "text/plain"},
}

func (s *Server) discoverSite(ctx context.Context, c *call, args json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		URL string `json:"url"`
	}
	if err := c.urlArgs(ctx, args, &a, &a.URL); err != nil {
		return nil, err
	}
	norm, err := safefetch.NormalizeURL(a.URL, s.client.AllowsLoopback())
	if err != nil {
		return nil, fmt.Errorf("refused %s: %w", echo(a.URL), err)
	}
	u, _ := url.Parse(norm)
	origin := u.Scheme + "://" + u.Host
	client := s.client.WithBudget(safefetch.NewBudget(discoverBudget))

	docs := make([]discovered, len(where))
	var wg sync.WaitGroup
	for i, w := range where {
		wg.Go(func() { docs[i] = fetchDoc(ctx, client, w.kind, origin+w.path, w.accept) })
	}
	wg.Wait()
	byKind := map[string]*discovered{}
	for i := range docs {
		byKind[docs[i].Kind] = &docs[i]
	}

	// The sitemap: the first Sitemap line of robots.txt, else /sitemap.xml.
	smURL := origin + "/sitemap.xml"
	if r := byKind[kindRobotsTxt]; r.Status == statusFound {
		if sms := webread.ParseRobots(r.body).Sitemaps(); len(sms) > 0 {
			smURL = sms[0]
		}
	}
	if readiness.RegistrableDomain(smURL) != readiness.RegistrableDomain(origin) {
		// Another site's sitemap is not fetched: the call is counted
		// against this site's limit only.
		docs = append(docs, discovered{Kind: kindSitemap, URL: smURL, Status: statusUnverified, Reason: "robots.txt names a sitemap on another site, which discover_site does not fetch", Problems: []problem.Problem{}})
	} else if err := s.client.CheckURL(ctx, smURL); err != nil {
		docs = append(docs, discovered{Kind: kindSitemap, URL: smURL, Status: statusUnverified, Reason: "refused: " + err.Error(), Problems: []problem.Problem{}})
	} else {
		docs = append(docs, fetchDoc(ctx, client, kindSitemap, smURL, "application/xml, text/xml;q=0.9"))
	}
	docs = append(docs, mcpEndpoints(byKind[KindAgentsJSON], byKind[KindAgenticSite])...)

	out := discovery{Origin: origin, Documents: docs, Development: s.client.AllowsLoopback()}
	return c.result(discoveryText(out), out)
}

// fetchDoc fetches one document and judges it with its package's parser.
func fetchDoc(ctx context.Context, client *safefetch.Client, kind, rawURL, acc string) discovered {
	d := discovered{Kind: kind, URL: rawURL, Problems: []problem.Problem{}}
	resp, err := client.Get(ctx, rawURL, http.Header{"Accept": {acc}})
	if resp != nil {
		p := resp.Provenance()
		d.Provenance = &p
	}
	switch {
	case err != nil:
		d.Status, d.Reason = statusUnverified, err.Error()
		return d
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		d.Status, d.Reason = statusAbsent, fmt.Sprintf("%s answered %d", rawURL, resp.StatusCode)
		return d
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		d.Status, d.Reason = statusUnverified, fmt.Sprintf("%s answered %d", rawURL, resp.StatusCode)
		return d
	}
	d.body = resp.Body
	switch kind {
	case kindLLMsTxt, kindRobotsTxt:
		if looksHTML(resp.Body) {
			d.Problems = append(d.Problems, problem.Problem{Rule: "media-type", Message: "the body is an HTML document, not the plain text this file must be"})
		}
	case kindSitemap:
		body := resp.Body
		if webread.IsGzip(body) {
			body, err = webread.Gunzip(body, 8<<20)
		}
		if err == nil {
			_, err = webread.ParseSitemap(body)
		}
		if err != nil {
			d.Problems = append(d.Problems, problem.Problem{Rule: "sitemap-syntax", Message: err.Error()})
		}
	default:
		d.Problems, d.parsed = check(kind, resp.Body)
	}
	d.Status = statusFound
	if !valid(d.Problems) {
		d.Status, d.Reason = statusInvalid, "served, with "+plural.N(errorsIn(d.Problems), "error", "errors")
	}
	return d
}

func errorsIn(ps []problem.Problem) int {
	n := 0
	for _, p := range ps {
		if p.Severity == problem.SeverityError {
			n++
		}
	}
	return n
}

// looksHTML reports whether a body is an HTML document (a site that answers
// every path with its home page).
func looksHTML(b []byte) bool {
	t := bytes.ToLower(bytes.TrimSpace(b[:min(len(b), 512)]))
	return bytes.HasPrefix(t, []byte("<!doctype html")) || bytes.HasPrefix(t, []byte("<html"))
}

// mcpEndpoints lists the MCP endpoints the card and the site profile
// declare, as fetchDoc parsed them. They are not probed here (probe_mcp does): each is unverified.
func mcpEndpoints(card, site *discovered) []discovered {
	var out []discovered
	seen := map[string]bool{}
	add := func(raw, base, from string) {
		ref, err := url.Parse(raw)
		b, err2 := url.Parse(base)
		if err != nil || err2 != nil {
			return
		}
		abs := b.ResolveReference(ref).String()
		if seen[abs] {
			return
		}
		seen[abs] = true
		out = append(out, discovered{Kind: kindMCPEndpoint, URL: abs, Status: statusUnverified,
			Reason: "declared by " + from + "; not called here: probe_mcp tests it", Problems: []problem.Problem{}})
	}
	if c, ok := card.parsed.(*agentsjson.Card); ok && card.Status == statusFound {
		for _, it := range c.Interfaces {
			if strings.EqualFold(it.Type, "mcp") && it.URL != "" {
				add(it.URL, card.URL, card.URL)
			}
		}
	}
	if st, ok := site.parsed.(*agentic.Site); ok && site.Status == statusFound {
		for _, r := range st.Resources {
			if r.Kind == agentic.KindMCP {
				add(r.URL, site.URL, site.URL)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, discovered{Kind: kindMCPEndpoint, Status: statusAbsent, Problems: []problem.Problem{},
			Reason: "neither agents.json nor agentic.json declares an MCP endpoint"})
	}
	return out
}

func discoveryText(d discovery) string {
	var b strings.Builder
	fmt.Fprintf(&b, "What %s publishes for agents:\n", d.Origin)
	for _, doc := range d.Documents {
		fmt.Fprintf(&b, "- %s: %s", doc.Kind, doc.Status)
		if doc.URL != "" {
			fmt.Fprintf(&b, " at %s", doc.URL)
		}
		if doc.Reason != "" {
			fmt.Fprintf(&b, " (%s)", doc.Reason)
		}
		b.WriteString("\n")
		for _, p := range doc.Problems {
			fmt.Fprintf(&b, "  - %s: %s\n", p.Severity, p)
		}
	}
	return b.String()
}
