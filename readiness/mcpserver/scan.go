package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
)

// progress is one progress notification to send.
type progress struct {
	n   float64
	msg string
}

// scan runs readiness.Scan with its defaults and this server's client. It
// reports progress to the caller when the request carries a token. It
// sends one notification per check that has its verdict (so at least one
// per section), then one when the report is done.
func (s *Server) scan(ctx context.Context, req *mcp.CallToolRequest, siteURL string, browser bool) (*readiness.Report, error) {
	opts := &readiness.Options{Client: s.client}
	if browser {
		if s.opts.Renderer == nil {
			return nil, errNoBrowser
		}
		opts.Renderer = s.opts.Renderer
	}
	var tok any
	if req != nil && req.Params != nil {
		tok = req.Params.GetProgressToken()
	}
	if tok == nil || req.Session == nil {
		rep, err := readiness.Scan(ctx, siteURL, opts)
		if err != nil {
			return nil, fmt.Errorf("scan failed: %w", err)
		}
		return rep, nil
	}
	total := float64(len(readiness.Catalogue()) + 1)
	ch := make(chan progress, len(readiness.Catalogue())+2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for p := range ch {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: p.n, Total: total, Message: p.msg})
		}
	}()
	n := 0.0
	opts.Progress = func(e readiness.Event) {
		if e.Kind != readiness.EventKindCheckFinished {
			return
		}
		n++
		select {
		case ch <- progress{n, fmt.Sprintf("%s: %s", e.Check, e.Verdict)}:
		default:
		}
	}
	rep, err := readiness.Scan(ctx, siteURL, opts)
	if err == nil {
		ch <- progress{total, "report done"}
	}
	close(ch)
	<-done
	if err != nil {
		return nil, fmt.Errorf("scan failed: %w", err)
	}
	return rep, nil
}

func (s *Server) scanSite(ctx context.Context, c *call, args json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		URL     string `json:"url"`
		Browser bool   `json:"browser"`
	}
	if err := decodeArgs(args, &a, "url"); err != nil {
		return nil, err
	}
	// A call the server cannot serve is refused before it counts against
	// the target's limit.
	if a.Browser && s.opts.Renderer == nil {
		return nil, errNoBrowser
	}
	if err := c.target(ctx, a.URL); err != nil {
		return nil, err
	}
	rep, err := s.scan(ctx, c.req, a.URL, a.Browser)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("scan stopped: %w", context.Cause(ctx))
	}
	b, err := rep.JSON()
	if err != nil {
		return nil, fmt.Errorf("mcpserver: encoding the report: %w", err)
	}
	return c.result(scanText(rep), json.RawMessage(b))
}

// scanText is the text of scan_site: the score, the requirements and the
// fix-first list.
func scanText(r *readiness.Report) string {
	var b strings.Builder
	ready := "not ready"
	if r.Ready {
		ready = "ready"
	}
	fmt.Fprintf(&b, "%s scores %.1f of %.0f and is %s for agents.\n\nRequirements:\n", r.Site, r.Score, r.Possible, ready)
	for _, q := range r.Requirements {
		mark := "not met"
		if q.Met {
			mark = "met"
		}
		fmt.Fprintf(&b, "- %s %s (%s): %s\n", q.ID, mark, q.Status, q.Text)
	}
	if len(r.Fixes) == 0 {
		b.WriteString("\nNothing to fix: no check leaves points.\n")
	} else {
		fmt.Fprintf(&b, "\nFix first (%s):\n", plural.N(len(r.Fixes), "fix", "fixes"))
		for i, f := range r.Fixes {
			req := ""
			if f.Requirement != "" {
				req = ", " + f.Requirement
			}
			fmt.Fprintf(&b, "%d. %s (+%.1f points%s): %s\n", i+1, f.Check, f.Points, req, f.Fix)
		}
	}
	if len(r.Unverified) > 0 {
		fmt.Fprintf(&b, "\nUnverified: %s.\n", strings.Join(r.Unverified, ", "))
	}
	return b.String()
}

func (s *Server) probeMCP(ctx context.Context, c *call, args json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		URL string `json:"url"`
	}
	if err := c.urlArgs(ctx, args, &a, &a.URL); err != nil {
		return nil, err
	}
	r, err := mcpprobe.Probe(ctx, a.URL, &mcpprobe.Options{Client: s.client})
	if err != nil {
		return nil, fmt.Errorf("probe failed: %w", err)
	}
	text := fmt.Sprintf("%s: %s. %s", r.Endpoint, r.Outcome, r.Reason)
	if r.ToolsList {
		text += fmt.Sprintf(" It lists %s without a token.", plural.N(r.Tools.ListedWithoutToken, "tool", "tools"))
	}
	return c.result(text, r)
}

// fixSite answers the fix_site prompt: it scans under the same limits as a
// tool call and returns one user message with every fix of the fix-first
// list and the URLs the scan observed for it.
func (s *Server) fixSite(ctx context.Context, req *mcp.GetPromptRequest, public bool) (*mcp.GetPromptResult, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.CallTimeout)
	defer cancel()
	siteURL := ""
	if req.Params != nil {
		siteURL = req.Params.Arguments["url"]
	}
	release, err := s.slots.acquire(ctx, s.opts.CallTimeout/4)
	if err != nil {
		return nil, err
	}
	defer release()
	c := &call{s: s, public: public}
	if err := c.target(ctx, siteURL); err != nil {
		return nil, err
	}
	rep, err := s.scan(ctx, nil, siteURL, false)
	if err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Make %s agent-ready: %s", rep.Site, plural.N(len(rep.Fixes), "fix", "fixes")),
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: fixMessage(rep, s.client.AllowsLoopback())}}},
	}, nil
}

// fixMessage is the fix_site message: what to change, in the order that
// gains the most, with the evidence of each check.
func fixMessage(r *readiness.Report, dev bool) string {
	var b strings.Builder
	if dev {
		b.WriteString(devNote + "\n\n")
	}
	fmt.Fprintf(&b, "An agent-readiness scan of %s scored %.1f of %.0f", r.Site, r.Score, r.Possible)
	if r.Ready {
		b.WriteString(" and the site meets all ten requirements.")
	} else {
		b.WriteString(" and the site does not yet meet all ten requirements.")
	}
	if len(r.Fixes) == 0 {
		b.WriteString(" No check leaves points: there is nothing to fix.\n")
		return b.String()
	}
	fmt.Fprintf(&b, " Make these %s to the site, in this order (the first gains the most), then scan again to confirm.\n", plural.N(len(r.Fixes), "change", "changes"))
	checks := map[string]readiness.CheckResult{}
	for _, c := range r.Checks {
		checks[c.ID] = c
	}
	for i, f := range r.Fixes {
		c := checks[f.Check]
		fmt.Fprintf(&b, "\n%d. %s (%s, verdict %s, +%.1f points", i+1, c.Title, f.Check, c.Verdict, f.Points)
		if f.Requirement != "" {
			fmt.Fprintf(&b, ", requirement %s", f.Requirement)
		}
		fmt.Fprintf(&b, ")\n   Fix: %s\n", f.Fix)
		if c.Receipt.Received != "" {
			fmt.Fprintf(&b, "   Observed: %s\n", c.Receipt.Received)
		}
		var urls []string
		seen := map[string]bool{}
		for _, q := range c.Receipt.Requests {
			u := q.Method + " " + q.URL
			if q.Response != nil {
				u += fmt.Sprintf(" (%d)", q.Response.Status)
			} else if q.Error != "" {
				u += " (" + q.Error + ")"
			}
			if !seen[u] {
				seen[u] = true
				urls = append(urls, u)
			}
		}
		if len(urls) > 0 {
			fmt.Fprintf(&b, "   URLs: %s\n", strings.Join(urls, "; "))
		}
	}
	return b.String()
}
