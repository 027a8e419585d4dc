package readiness

import (
	"cmp"
	"context"
	"net/http"
	"time"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/readiness/internal/refusal"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch"
)

// Bounds of the MCP probe as the scan runs it.
const (
	// mcpMaxPages bounds tools/list: at most five pages, each asked for
	// with the previous page's cursor.
	mcpMaxPages = mcpprobe.DefaultMaxToolPages
	// mcpProbeTimeout bounds the whole probe, initialize to sign-in
	// discovery.
	mcpProbeTimeout = 15 * time.Second
	// mcpMaxBody caps every response body (and SSE event) of the probe.
	mcpMaxBody = mcpprobe.MaxBodyBytes
)

// MCPReceipt is the evidence of the MCP probe on mcp_discovery: the receipt of
// [mcpprobe.Probe]. Its Status is set to the check's verdict. Its
// Auth.RequirementsDocumentedAt is set to where the service states which
// capabilities need a token.
type MCPReceipt = mcpprobe.Receipt

// mcpProbe is what the probe of one endpoint found, in the form the
// Connect checks read.
type mcpProbe struct {
	r     *mcpprobe.Receipt
	err   error // an endpoint Probe refused
	tools int
}

// mcpFailure is an exchange that got no answer, as the checks name it.
type mcpFailure struct {
	Method, URL, Error string
}

// probeMCP runs mcpprobe.Probe through the scan's client, with sign-in
// discovery also when the card says a token is needed.
func probeMCP(ctx context.Context, c *safefetch.Client, endpoint string, signIn bool, get func(context.Context, string) (*safefetch.Response, error)) *mcpProbe {
	r, err := mcpprobe.Probe(ctx, endpoint, &mcpprobe.Options{Client: c, ClientName: "agentweb-readiness", ClientVersion: MethodVersion,
		Timeout: mcpProbeTimeout, MaxToolPages: mcpMaxPages, DiscoverSignIn: signIn, Get: get})
	if err != nil {
		return &mcpProbe{err: err, r: &mcpprobe.Receipt{Endpoint: endpoint, Outcome: mcpprobe.OutcomeNotMCP, Reason: err.Error(),
			Auth: mcpprobe.Auth{Mode: "none", PKCE: []string{}, Documents: []mcpprobe.Document{}}, Handshake: []mcpprobe.Exchange{}}}
	}
	return &mcpProbe{r: r, tools: r.Tools.ListedWithoutToken}
}

// unanswered returns the failure that left the probe without an answer,
// or nil.
func (p *mcpProbe) unanswered() *mcpFailure {
	if p.r.Outcome != mcpprobe.OutcomeUnanswered {
		return nil
	}
	for i := len(p.r.Handshake) - 1; i >= 0; i-- {
		if e := p.r.Handshake[i]; e.Status == 0 || e.Capped || e.Error != "" || refusal.Refused(e.Status) {
			return &mcpFailure{Method: e.Method, URL: e.URL, Error: cmp.Or(e.Error, p.r.Reason)}
		}
	}
	return &mcpFailure{Method: http.MethodPost, URL: p.r.Endpoint, Error: p.r.Reason}
}

// unauthorized reports whether a request of the session answered 401.
func (p *mcpProbe) unauthorized() *mcpprobe.Exchange {
	for i := range p.r.Handshake {
		if p.r.Handshake[i].Status == http.StatusUnauthorized {
			return &p.r.Handshake[i]
		}
	}
	return nil
}

// records are the request records of the exchanges: only the request
// headers that change the answer (MCP-Protocol-Version, and whether a
// session id was sent), never a credential.
func (p *mcpProbe) records() []RequestRecord {
	var out []RequestRecord
	for _, e := range p.r.Handshake {
		r := RequestRecord{Method: e.Method, URL: e.URL}
		if e.Method == http.MethodPost {
			r.Headers = map[string]string{"Accept": "application/json, text/event-stream"}
		}
		if e.ProtocolHeader != "" || e.SessionIDSent {
			if r.Headers == nil {
				r.Headers = map[string]string{}
			}
			if e.ProtocolHeader != "" {
				r.Headers["MCP-Protocol-Version"] = e.ProtocolHeader
			}
			if e.SessionIDSent {
				r.Headers["Mcp-Session-Id"] = "(present)"
			}
		}
		if e.Status == 0 {
			r.Error = cmp.Or(e.Error, "no answer")
		} else {
			rr := &ResponseRecord{Status: e.Status, MediaType: e.ContentType, Bytes: int(e.Bytes), Body: bodySummary([]byte(e.Body))}
			if e.WWWAuthenticate != "" {
				rr.Headers = map[string]string{"WWW-Authenticate": shorten.Runes(e.WWWAuthenticate, maxHeaderValue)}
			}
			r.Response = rr
			r.Error = e.Error
		}
		out = append(out, r)
	}
	return out
}
