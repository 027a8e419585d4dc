package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness/agentsjson"
	"github.com/agentweb/agentweb/safefetch"
)

// The document kinds of validate_document.
const (
	KindAgenticSite      = "agentic_site"
	KindOpenAgent        = "openagent"
	KindKnowledgeLinkset = "knowledge_linkset"
	KindAgentSignup      = "agent_signup"
	KindAgentsJSON       = "agents_json"
)

var kinds = []string{KindAgenticSite, KindOpenAgent, KindKnowledgeLinkset, KindAgentSignup, KindAgentsJSON}

// accept is the Accept header a kind is fetched with.
var accept = map[string]string{
	KindAgenticSite:      "application/json",
	KindOpenAgent:        openagent.MediaType,
	KindKnowledgeLinkset: linkset.MediaType + ", application/json;q=0.5",
	KindAgentSignup:      agentsignup.MediaType,
	KindAgentsJSON:       "application/json",
}

// validation is validate_document's result.
type validation struct {
	Kind        string                `json:"kind"`
	Valid       bool                  `json:"valid"`
	Problems    []problem.Problem     `json:"problems"`
	Provenance  *safefetch.Provenance `json:"provenance,omitempty"`
	Development bool                  `json:"development,omitempty"`
}

// check validates data as a document of kind with its package's own
// parser, and returns every problem as the package reports it: errors,
// and the warnings and notices the package keeps on a usable value. It
// also returns the parsed document when the parser accepted it, so that
// discover_site reads what a document declares without parsing it again.
func check(kind string, data []byte) ([]problem.Problem, any) {
	ps := []problem.Problem{}
	var parsed any
	fromErr := func(err error) {
		if err == nil {
			return
		}
		if ve := problem.As(err); ve != nil {
			ps = append(ps, ve.Problems...)
			ps = append(ps, ve.Warnings...)
			return
		}
		ps = append(ps, problem.Problem{Rule: "invalid", Message: err.Error()})
	}
	switch kind {
	case KindAgenticSite:
		st, err := agentic.ParseSite(data)
		fromErr(err)
		if err == nil {
			parsed = st
		}
	case KindOpenAgent:
		_, err := openagent.Parse(data)
		fromErr(err)
	case KindKnowledgeLinkset:
		d, err := linkset.Parse(data)
		fromErr(err)
		if err == nil {
			// As a publisher must publish it.
			r := d.Evaluate(linkset.ModePublisher)
			ps = append(ps, r.Problems...)
			ps = append(ps, r.Notices...)
		}
	case KindAgentSignup:
		d, err := agentsignup.Parse(data)
		fromErr(err)
		if err == nil {
			ps = append(ps, d.Warnings...)
		}
	case KindAgentsJSON:
		c, err := agentsjson.Parse(data)
		fromErr(err)
		if err == nil {
			ps = append(ps, c.Check()...)
			ps = append(ps, c.Skipped...)
			parsed = c
		}
	}
	return ps, parsed
}

// valid reports whether no problem is an error.
func valid(ps []problem.Problem) bool {
	for _, p := range ps {
		if p.Severity == problem.SeverityError {
			return false
		}
	}
	return true
}

func (s *Server) validateDocument(ctx context.Context, c *call, args json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		Kind    string  `json:"kind"`
		Content *string `json:"content"`
		URL     *string `json:"url"`
	}
	if err := decodeArgs(args, &a, "kind"); err != nil {
		return nil, err
	}
	if _, ok := accept[a.Kind]; !ok {
		return nil, &argError{fmt.Sprintf("kind %q is none of %s", echo(a.Kind), strings.Join(kinds, ", "))}
	}
	if (a.Content == nil) == (a.URL == nil) {
		return nil, &argError{"give exactly one of content (the document's text) and url"}
	}
	out := validation{Kind: a.Kind, Development: s.client.AllowsLoopback()}
	var data []byte
	if a.Content != nil {
		data = []byte(*a.Content)
	} else {
		if err := c.target(ctx, *a.URL); err != nil {
			return nil, err
		}
		resp, err := s.client.Get(ctx, *a.URL, http.Header{"Accept": {accept[a.Kind]}})
		if err != nil {
			return nil, fmt.Errorf("fetch failed: %w", err)
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil, fmt.Errorf("fetch failed: %w", &safefetch.StatusError{URL: *a.URL, StatusCode: resp.StatusCode})
		}
		p := resp.Provenance()
		out.Provenance = &p
		data = resp.Body
	}
	out.Problems, _ = check(a.Kind, data)
	out.Valid = valid(out.Problems)
	return c.result(validationText(out), out)
}

func validationText(v validation) string {
	var b strings.Builder
	src := ""
	if v.Provenance != nil {
		src = " at " + v.Provenance.URL
	}
	if v.Valid {
		fmt.Fprintf(&b, "The %s document%s is valid.", v.Kind, src)
	} else {
		fmt.Fprintf(&b, "The %s document%s is not valid.", v.Kind, src)
	}
	if n := len(v.Problems); n > 0 {
		fmt.Fprintf(&b, " %s:\n", plural.N(n, "problem", "problems"))
		for _, p := range v.Problems {
			fmt.Fprintf(&b, "- %s: %s\n", p.Severity, p)
		}
	}
	return b.String()
}

var errNoBrowser = errors.New("this server has no browser: scan without \"browser\": true")
