package readiness

import (
	"fmt"
	"strings"
)

// receiptText is the plain-text receipt of one check, in the layout of the
// agent-readiness scoring method, Section 05, shared by the Markdown and HTML forms.
func receiptText(c CheckResult) string {
	var b strings.Builder
	line := func(format string, args ...any) {
		b.WriteString(clean(fmt.Sprintf(format, args...)))
		b.WriteByte('\n')
	}
	line("check: %s", c.ID)
	for _, q := range c.Receipt.Requests {
		line("request: %s %s", q.Method, q.URL)
		for _, k := range sortedKeys(q.Headers) {
			line("  %s: %s", k, q.Headers[k])
		}
		if q.Response != nil {
			s := q.Response
			resp := fmt.Sprintf("  -> %d", s.Status)
			if s.MediaType != "" {
				resp += " " + s.MediaType
			}
			resp += fmt.Sprintf(", %d bytes", s.Bytes)
			line("%s", resp)
			if s.FinalURL != "" && s.FinalURL != q.URL {
				line("     final URL: %s", s.FinalURL)
			}
			for _, k := range sortedKeys(s.Headers) {
				line("     %s: %s", k, s.Headers[k])
			}
			if s.Body != "" {
				line("     body: %s", s.Body)
			}
		}
		if q.Error != "" {
			line("  -> error: %s", q.Error)
		}
		if q.Skipped != "" {
			line("  -> skipped: %s", q.Skipped)
		}
	}
	line("expected: %s", c.Receipt.Expected)
	line("received: %s", c.Receipt.Received)
	for _, n := range c.Receipt.Notes {
		line("note: %s", n)
	}
	writeMCPReceipt(line, c.Receipt.MCP)
	if len(c.Scope) > 0 {
		line("scope: %s", strings.Join(c.Scope, ", "))
	}
	line("status: %s", c.Verdict)
	line("weight: %s", points(c.Weight))
	line("earned: %s", points(c.Earned))
	return b.String()
}

// observationReceipt is the plain-text receipt of an observation, in the
// layout of a check's.
func observationReceipt(o Observation) string {
	lines := strings.Split(strings.TrimSuffix(receiptText(CheckResult{ID: o.ID, Receipt: o.Receipt}), "\n"), "\n")
	// A check's receipt ends with its status, weight and earned lines (no
	// scope line without a scope); an observation has a status of its own
	// and is never scored.
	lines = lines[:len(lines)-3]
	lines[0] = "observation: " + o.ID
	return strings.Join(lines, "\n") + "\n" + "status: " + string(o.Status) + "\nfound: " + fmt.Sprint(o.Found) + "\ntext: " + clean(o.Text.Title) + " (" + clean(o.Text.Status) + ") " + clean(o.Text.URL) + "\n"
}

// writeMCPReceipt writes the MCP receipt one line at a time, for the
// Markdown and HTML forms; nothing when m is nil.
func writeMCPReceipt(line func(string, ...any), m *MCPReceipt) {
	if m == nil {
		return
	}
	orNone := func(s string) string {
		if s == "" {
			return "(none)"
		}
		return s
	}
	line("endpoint: %s", m.Endpoint)
	line("outcome: %s (%s)", m.Outcome, m.Reason)
	line("transport: %s", orNone(m.Transport))
	line("protocol:")
	line("  offered: %s", orNone(m.Protocol.Offered))
	for _, o := range m.Protocol.Offers {
		line("    %s: %s", o.RPC, o.Version)
	}
	line("  returned: %s", orNone(m.Protocol.Returned))
	line("  negotiated: %s", orNone(m.Protocol.Negotiated))
	line("initialize: %t", m.Initialize)
	line("tools_list: %t", m.ToolsList)
	line("auth:")
	line("  mode: %s", m.Auth.Mode)
	if m.Auth.Rules != "" {
		line("  rules: %s (%s)", m.Auth.Rules, m.Auth.RulesReason)
	}
	line("  oauth_metadata: %t", m.Auth.OAuthMetadata)
	if m.Auth.ResourceMetadataURL != "" {
		line("  resource_metadata_url: %s", m.Auth.ResourceMetadataURL)
	}
	if m.Auth.MetadataURL != "" {
		line("  metadata_url: %s", m.Auth.MetadataURL)
	}
	line("  pkce: [%s]", strings.Join(m.Auth.PKCE, ", "))
	line("  dynamic_registration: %t   # optional either way", m.Auth.DynamicRegistration)
	line("  requirements_documented_at: %s", orNone(m.Auth.RequirementsDocumentedAt))
	for _, d := range m.Auth.Documents {
		s := fmt.Sprintf("  GET %s (%s, %s rules)", d.URL, d.Kind, d.Version)
		if d.Status != 0 {
			s += fmt.Sprintf(" -> %d", d.Status)
		}
		if d.Used {
			s += ", used"
		}
		if d.Problem != "" {
			s += ": " + d.Problem
		}
		line("%s", s)
	}
	line("tools:")
	line("  listed_without_token: %d   # listed, not usable", m.Tools.ListedWithoutToken)
	line("  authenticated: null   # we never sign in to your server")
	line("  with_read_only_hint: %d", m.Tools.WithReadOnlyHint)
	line("  execution_tested: false   # so the execution check stays UNVERIFIED")
	line("handshake:")
	for _, e := range m.Handshake {
		s := fmt.Sprintf("  %s %s", e.Method, e.URL)
		if e.RPC != "" {
			s += " (" + e.RPC + ")"
		}
		if e.Status != 0 {
			s += fmt.Sprintf(" -> %d %s, session id %t", e.Status, orNone(e.ContentType), e.SessionID)
		}
		if e.Error != "" {
			s += " -> " + e.Error
		}
		line("%s", s)
	}
	line("mcp status: %s", m.Status)
}
