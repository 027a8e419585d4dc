package mcpserver

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/readiness"
)

//go:embed schemas.json
var schemasJSON []byte

// toolSchemas returns each tool's input and output schema, with the shared
// definitions copied into each so that every schema stands alone.
var toolSchemas = sync.OnceValue(func() map[string][2]json.RawMessage {
	var doc struct {
		Defs  json.RawMessage `json:"$defs"`
		Tools map[string]struct {
			Input  map[string]any `json:"input"`
			Output map[string]any `json:"output"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(schemasJSON, &doc); err != nil {
		panic(fmt.Sprintf("mcpserver: schemas.json: %v", err))
	}
	out := map[string][2]json.RawMessage{}
	for name, t := range doc.Tools {
		t.Output["$defs"] = doc.Defs
		in, err1 := json.Marshal(t.Input)
		o, err2 := json.Marshal(t.Output)
		if err := errors.Join(err1, err2); err != nil {
			panic(fmt.Sprintf("mcpserver: schemas.json: %v", err))
		}
		out[name] = [2]json.RawMessage{in, o}
	}
	return out
})

// The tool names.
const (
	ToolValidateDocument = "validate_document"
	ToolDiscoverSite     = "discover_site"
	ToolScanSite         = "scan_site"
	ToolProbeMCP         = "probe_mcp"
	ToolExplainCheck     = "explain_check"
	// PromptFixSite is the prompt that scans a site and asks for its fixes.
	PromptFixSite = "fix_site"
	// CatalogueURI is the resource that lists every check.
	CatalogueURI = "agentweb://readiness/catalogue"
)

// call is one tool call as a tool sees it.
type call struct {
	s       *Server
	req     *mcp.CallToolRequest
	public  bool // over HTTP: the per-target limit applies
	release func()
}

// tool is one tool's definition and code.
type tool struct {
	name, title, description string
	fetches                  bool
	run                      func(ctx context.Context, c *call, args json.RawMessage) (*mcp.CallToolResult, error)
}

func (s *Server) tools() []tool {
	return []tool{
		{ToolValidateDocument, "Validate an agent-facing document",
			"Validate an agentic.json, OpenAgent profile, knowledge linkset, agent-signup.json or agents.json document, given as text or fetched from a URL. " +
				"Returns valid and every problem with its JSON Pointer, rule, message, severity and the specification section. An invalid document is a successful call with valid false.",
			true, s.validateDocument},
		{ToolDiscoverSite, "Discover what a site publishes for agents",
			"Look for every document this SDK knows at a site's origin (agentic.json, the OpenAgent profile, the knowledge linkset, agent-signup.json, agents.json, llms.txt, the sitemap, robots.txt and the MCP endpoints they declare) " +
				"and say for each where it was looked for, whether it is found, absent, invalid or unverified, its problems and its provenance.",
			true, s.discoverSite},
		{ToolScanSite, "Score a site's agent readiness",
			"Scan a site with the agent-readiness scanner (100 points, requirements R1 to R10, an evidence receipt per check). The structured result is the full report; the text gives the score, the requirements and the fix-first list. " +
				"Sends progress notifications when the call has a progress token.",
			true, s.scanSite},
		{ToolProbeMCP, "Probe an MCP endpoint",
			"Probe one MCP Streamable HTTP endpoint: transport, protocol versions, the tool list, and sign-in discovery (RFC 9728, RFC 8414, OpenID Connect). Returns the probe's receipt.",
			true, s.probeMCP},
		{ToolExplainCheck, "Explain a readiness check",
			"Explain one check of the readiness catalogue: its section, requirement and points, what the scanner requests, what passes and how to fix it.",
			false, s.explainCheck},
	}
}

// newMCP builds the go-sdk server of one transport.
func (s *Server) newMCP(public bool) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "agentweb", Title: "agentweb readiness tools", Version: version()}, &mcp.ServerOptions{
		Instructions: "Tools to validate, discover, scan and probe what a website publishes for AI agents. " +
			"Validate a document you wrote with validate_document, scan a site with scan_site, and read a check's fix with explain_check.",
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{},
			Prompts:   &mcp.PromptCapabilities{},
		},
	})
	schemas := toolSchemas()
	for _, t := range s.tools() {
		yes, no := true, false
		open := &no
		if t.fetches {
			open = &yes
		}
		sc := schemas[t.name]
		srv.AddTool(&mcp.Tool{
			Name: t.name, Title: t.title, Description: t.description,
			InputSchema: sc[0], OutputSchema: sc[1],
			Annotations: &mcp.ToolAnnotations{Title: t.title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: open},
		}, s.handle(t, public))
	}
	srv.AddResource(&mcp.Resource{
		URI: CatalogueURI, Name: "readiness-catalogue", Title: "The readiness check catalogue",
		Description: "Every check the scanner scores by: id, title, section, requirement, points, what it requests, what passes and how to fix it.",
		MIMEType:    "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: CatalogueURI, MIMEType: "application/json", Text: string(catalogueJSON())}}}, nil
	})
	srv.AddPrompt(&mcp.Prompt{
		Name: PromptFixSite, Title: "Fix a site's agent readiness",
		Description: "Scan a site and return one message a coding agent can act on: every fix of the fix-first list, with the URLs the scan observed.",
		Arguments:   []*mcp.PromptArgument{{Name: "url", Description: "The site to scan: an https URL.", Required: true}},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return s.fixSite(ctx, req, public)
	})
	return srv
}

// handle wraps a tool with the limits: the call's deadline, a slot of the
// queue, the arguments' shape, and for the tools that fetch, the client's
// verdict on the URL and the per-target limit.
func (s *Server) handle(t tool, public bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithTimeout(ctx, s.opts.CallTimeout)
		defer cancel()
		release, err := s.slots.acquire(ctx, s.opts.CallTimeout/4)
		if err != nil {
			return toolError(err), nil
		}
		defer release()
		c := &call{s: s, req: req, public: public}
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
			args = json.RawMessage("{}")
		}
		res, err := t.run(ctx, c, args)
		if err != nil {
			return toolError(err), nil
		}
		return res, nil
	}
}

// toolError is a result with isError set: the MCP way to report a tool's
// failure to the model, never a JSON-RPC error.
func toolError(err error) *mcp.CallToolResult {
	r := &mcp.CallToolResult{}
	r.SetError(err)
	return r
}

// maxEcho bounds how much of a client's argument an error repeats, as
// safefetch bounds the URL its errors repeat.
const maxEcho = 256

// echo is a client's argument fit to repeat in an error: cut to maxEcho
// bytes, so that a megabyte argument is not sent back whole.
func echo(s string) string { return shorten.Bytes(s, maxEcho) }

// argError reports arguments the tool cannot use.
type argError struct{ msg string }

func (e *argError) Error() string { return "invalid arguments: " + e.msg }

// decodeArgs reads args into v strictly: unknown members and wrong types
// are errors, and so is a missing required member (named in required).
func decodeArgs(args json.RawMessage, v any, required ...string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil || m == nil {
		return &argError{"the arguments must be a JSON object"}
	}
	for _, r := range required {
		if _, ok := m[r]; !ok {
			return &argError{fmt.Sprintf("%q is required", r)}
		}
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		msg := err.Error()
		msg = strings.TrimPrefix(msg, "json: ")
		return &argError{msg}
	}
	return nil
}

// target checks a URL a tool is about to fetch. The client must accept it:
// the same check a request makes, without sending one. Over HTTP its
// registrable domain must be under the per-target limit.
func (c *call) target(ctx context.Context, rawURL string) error {
	if rawURL == "" {
		return &argError{"the url is empty"}
	}
	if err := c.s.client.CheckURL(ctx, rawURL); err != nil {
		return fmt.Errorf("refused %s: %w", echo(rawURL), err)
	}
	if c.public {
		domain := readiness.RegistrableDomain(rawURL)
		if wait, ok := c.s.targets.allow(domain); !ok {
			return &busyError{fmt.Sprintf("busy: %s has had %s that fetch from it in the last minute, the most this server makes; retry after %d s", domain, plural.N(c.s.opts.TargetPerMinute, "call", "calls"), retrySeconds(wait))}
		}
	}
	return nil
}

// urlArgs decodes args into v, which has a required "url" member read
// into u, and checks that URL as [call.target] does.
func (c *call) urlArgs(ctx context.Context, args json.RawMessage, v any, u *string) error {
	if err := decodeArgs(args, v, "url"); err != nil {
		return err
	}
	return c.target(ctx, *u)
}

// result is a successful tool result: a text for the model and the
// structured value of the tool's output schema.
func (c *call) result(text string, structured any) (*mcp.CallToolResult, error) {
	var raw json.RawMessage
	switch v := structured.(type) {
	case json.RawMessage:
		raw = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: encoding the result: %w", err)
		}
		raw = b
	}
	if c.s.client.AllowsLoopback() {
		text = devNote + "\n" + text
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: raw}, nil
}

// devNote opens every result of a server whose client is in development
// mode.
const devNote = "Development mode: this server reaches loopback addresses and plain http, as no public scanner does."

// version is the module's version as the binary was built, or "devel".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if bi.Main.Path == "github.com/agentweb/agentweb" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/agentweb/agentweb" {
			return d.Version
		}
	}
	return "devel"
}

// explainCheck answers explain_check.
func (s *Server) explainCheck(ctx context.Context, c *call, args json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		ID string `json:"id"`
	}
	if err := decodeArgs(args, &a, "id"); err != nil {
		return nil, err
	}
	for _, e := range catalogue() {
		if e.ID == a.ID {
			var b strings.Builder
			fmt.Fprintf(&b, "%s (%s): %s section", e.ID, e.Title, e.SectionTitle)
			if e.Requirement != "" {
				fmt.Fprintf(&b, ", requirement %s (%s)", e.Requirement, e.RequirementText)
			}
			if e.Optional {
				b.WriteString(", an optional convention worth no points.\n")
			} else {
				fmt.Fprintf(&b, ", worth %g of 100 points.\n", e.Points)
			}
			fmt.Fprintf(&b, "Requests: %s\nPasses: %s\n", e.Request, e.Passes)
			if e.Fix != "" {
				fmt.Fprintf(&b, "Fix: %s\n", e.Fix)
			}
			return c.result(b.String(), e)
		}
	}
	var ids []string
	for _, e := range catalogue() {
		ids = append(ids, e.ID)
	}
	return nil, &argError{fmt.Sprintf("unknown check id %q; the ids are: %s", echo(a.ID), strings.Join(ids, ", "))}
}

// checkEntry is one row of the catalogue resource and explain_check's result.
type checkEntry struct {
	ID              string  `json:"id"`
	Title           string  `json:"title"`
	Section         string  `json:"section"`
	SectionTitle    string  `json:"section_title"`
	Requirement     string  `json:"requirement,omitempty"`
	RequirementText string  `json:"requirement_text,omitempty"`
	Points          float64 `json:"points"`
	Optional        bool    `json:"optional"`
	Request         string  `json:"request"`
	Passes          string  `json:"passes"`
	Fix             string  `json:"fix,omitempty"`
}

var catalogue = sync.OnceValue(func() []checkEntry {
	sections := map[readiness.SectionID]string{}
	for _, s := range readiness.Sections() {
		sections[s.ID] = s.Title
	}
	reqs := map[string]string{}
	for _, r := range readiness.Requirements() {
		reqs[r.ID] = r.Text
	}
	var out []checkEntry
	for _, c := range readiness.Catalogue() {
		out = append(out, checkEntry{
			ID: c.ID, Title: c.Title, Section: string(c.Section), SectionTitle: sections[c.Section],
			Requirement: c.Requirement, RequirementText: reqs[c.Requirement],
			Points: c.Weight, Optional: c.Optional, Request: c.Request, Passes: c.Expected, Fix: c.Fix(),
		})
	}
	return out
})

var catalogueJSON = sync.OnceValue(func() []byte {
	b, err := json.MarshalIndent(map[string]any{"checks": catalogue()}, "", "  ")
	if err != nil {
		panic(err)
	}
	return b
})
