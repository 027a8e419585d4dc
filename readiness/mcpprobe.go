package readiness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of the MCP probe (readiness-checks.md, Connect).
const (
	// MCPOfferedVersion is the protocol version the probe offers in
	// initialize, pinned so that a report says what it offered and a later
	// version's features never judge an earlier session (method §07,
	// "version-aware probes").
	MCPOfferedVersion = "2025-06-18"
	// mcpMaxPages bounds tools/list: at most five pages, each asked for
	// with the previous page's cursor.
	mcpMaxPages = 5
	// mcpProbeTimeout bounds the whole probe, initialize to close.
	mcpProbeTimeout = 15 * time.Second
	// mcpMaxBody caps every response body (and SSE event) of the probe.
	mcpMaxBody = 256 << 10
	// mcpKeepBody is how much of a response body the receipt keeps for
	// reading the handshake.
	mcpKeepBody = 16 << 10
	// mcpMaxExchanges bounds the exchanges recorded (and allowed).
	mcpMaxExchanges = 16
)

// MCPReceipt is the evidence of the MCP probe (readiness-method.md §05, the
// mcp_transport receipt, and readiness-checks.md, Connect): where the
// endpoint is, which transport was recognised, the protocol versions
// offered, returned and negotiated, whether initialize and tools/list
// succeeded, how sign-in is advertised, and how many tools answer without a
// token. The scanner never signs in and never calls a tool, so
// Tools.Authenticated is always null and Tools.ExecutionTested always false.
type MCPReceipt struct {
	Endpoint string `json:"endpoint"`
	// Transport is "streamable-http" when the endpoint answered as MCP
	// Streamable HTTP, "" when no transport was recognised.
	Transport  string      `json:"transport"`
	Protocol   MCPProtocol `json:"protocol"`
	Initialize bool        `json:"initialize"`
	ToolsList  bool        `json:"toolsList"`
	Auth       MCPAuth     `json:"auth"`
	Tools      MCPTools    `json:"tools"`
	// Status is the verdict of mcp_discovery.
	Status Verdict `json:"status"`
	// Handshake is the raw exchange, one entry per HTTP request of the probe.
	Handshake []MCPExchange `json:"handshake"`
}

// MCPProtocol records the protocol versions: what the probe offered, what
// the server returned in its initialize result, and what the session
// negotiated ("" when no session was established).
type MCPProtocol struct {
	Offered    string `json:"offered"`
	Returned   string `json:"returned"`
	Negotiated string `json:"negotiated"`
}

// MCPAuth records how sign-in is advertised. Mode is "none" (nothing asks
// for a token), "oauth" (OAuth is advertised: a 401 with a Bearer challenge,
// OAuth metadata, or the card) or "token" (a 401 without OAuth metadata).
// DynamicRegistration is reported and scored in neither direction.
type MCPAuth struct {
	Mode                string   `json:"mode"`
	OAuthMetadata       bool     `json:"oauthMetadata"`
	MetadataURL         string   `json:"metadataUrl,omitempty"`
	ResourceMetadataURL string   `json:"resourceMetadataUrl,omitempty"`
	PKCE                []string `json:"pkce"`
	DynamicRegistration bool     `json:"dynamicRegistration"`
	// RequirementsDocumentedAt names where the service states which
	// capabilities need a token ("the capability manifest", "protected
	// resource metadata"), "" when nowhere.
	RequirementsDocumentedAt string `json:"requirementsDocumentedAt,omitempty"`
}

// MCPTools counts the tools. ListedWithoutToken tools are listed, not
// usable; Authenticated is always nil (unknown, never 0: the scanner never
// signs in); WithReadOnlyHint is reported, not scored (method §07, "a hint is
// not behaviour"); ExecutionTested is always false.
type MCPTools struct {
	ListedWithoutToken int  `json:"listedWithoutToken"`
	Authenticated      *int `json:"authenticated"`
	WithReadOnlyHint   int  `json:"withReadOnlyHint"`
	ExecutionTested    bool `json:"executionTested"`
}

// MCPExchange is one HTTP request of the probe and its answer: the JSON-RPC
// method it carried, the status and media type, and whether a session id
// was sent and received (never its value).
type MCPExchange struct {
	RPC             string `json:"rpc,omitempty"`
	Method          string `json:"method"`
	URL             string `json:"url"`
	ProtocolHeader  string `json:"protocolHeader,omitempty"`
	SessionIDSent   bool   `json:"sessionIdSent"`
	Status          int    `json:"status,omitempty"`
	ContentType     string `json:"contentType,omitempty"`
	SessionID       bool   `json:"sessionId"`
	WWWAuthenticate string `json:"wwwAuthenticate,omitempty"`
	Bytes           int64  `json:"bytes"`
	Capped          bool   `json:"capped,omitempty"`
	Error           string `json:"error,omitempty"`
}

// errProbeCap is returned to the MCP client when a response body passes
// mcpMaxBody; it wraps safefetch.ErrTooLarge.
var errProbeCap = fmt.Errorf("readiness: MCP response over %d bytes: %w", mcpMaxBody, safefetch.ErrTooLarge)

// errProbeExchanges is returned when the probe would make more than
// mcpMaxExchanges requests.
var errProbeExchanges = errors.New("readiness: MCP probe request limit reached")

// exchange is one recorded request with the body kept for reading.
type exchange struct {
	MCPExchange
	body []byte
	err  error
}

// recorder is the round-tripper the MCP client's requests go through: it
// records every exchange for the receipt and caps each response body. It
// wraps the scan's safefetch transport, so address policy, the per-request
// timeout and the scan budget apply to every request.
type recorder struct {
	next    http.RoundTripper
	timeout time.Duration // the client's per-request timeout
	mu      sync.Mutex
	ex      []*exchange
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	e := &exchange{MCPExchange: MCPExchange{Method: req.Method, URL: req.URL.String(),
		ProtocolHeader: req.Header.Get("Mcp-Protocol-Version"), SessionIDSent: req.Header.Get("Mcp-Session-Id") != ""}}
	// The scanner never sends a credential; make sure of it.
	req.Header.Del("Authorization")
	req.Header.Del("Cookie")
	if req.Body != nil && req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			var m struct {
				Method string `json:"method"`
			}
			raw, _ := io.ReadAll(io.LimitReader(b, 64<<10))
			_ = b.Close()
			if json.Unmarshal(raw, &m) == nil {
				e.RPC = m.Method
			}
		}
	}
	r.mu.Lock()
	if len(r.ex) >= mcpMaxExchanges {
		r.mu.Unlock()
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, errProbeExchanges
	}
	r.ex = append(r.ex, e)
	r.mu.Unlock()

	started := time.Now()
	resp, err := r.next.RoundTrip(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		e.err = err
		e.Error = errorKind(err)
		if errors.Is(req.Context().Err(), context.DeadlineExceeded) || (r.timeout > 0 && time.Since(started) >= r.timeout*9/10) {
			// The client's timeout or the probe's deadline: whichever
			// error the transport saw first ("context deadline exceeded",
			// or net/http's "request canceled" when the client's timer
			// fires), it is a timeout.
			e.Error = "timeout"
		}
		return nil, err
	}
	e.Status = resp.StatusCode
	e.ContentType = truncate(clean(resp.Header.Get("Content-Type")), maxHeaderValue)
	e.SessionID = resp.Header.Get("Mcp-Session-Id") != ""
	e.WWWAuthenticate = truncate(clean(strings.Join(resp.Header.Values("Www-Authenticate"), ", ")), 1000)
	resp.Body = &cappedBody{rc: resp.Body, r: r, e: e}
	return resp, nil
}

// cappedBody counts, keeps the start of, and caps a response body.
type cappedBody struct {
	rc io.ReadCloser
	r  *recorder
	e  *exchange
}

func (b *cappedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.r.mu.Lock()
	defer b.r.mu.Unlock()
	if keep := mcpKeepBody - len(b.e.body); keep > 0 && n > 0 {
		b.e.body = append(b.e.body, p[:min(n, keep)]...)
	}
	b.e.Bytes += int64(n)
	if b.e.Bytes > mcpMaxBody {
		b.e.Capped = true
		b.e.Error = "response too large: capped"
		return 0, errProbeCap
	}
	if err != nil && !errors.Is(err, io.EOF) && b.e.Error == "" {
		b.e.err = err
		b.e.Error = errorKind(err)
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// mcpProbe is what the probe of one endpoint found.
type mcpProbe struct {
	endpoint    string
	negotiated  string
	returned    string
	initialized bool
	listed      bool
	tools       int
	readOnly    int
	pages       int
	pageCapped  bool
	connectErr  error
	listErr     error
	exchanges   []exchange
	elapsed     time.Duration
}

// probeMCP speaks MCP Streamable HTTP to endpoint with the official Go SDK,
// through the scan's safefetch client behind a recording, size-capping
// round-tripper: initialize offering MCPOfferedVersion, then
// notifications/initialized, then tools/list without a token, at most
// mcpMaxPages pages. Retries and the standalone SSE stream are off, and the
// whole probe has a deadline. It never calls a tool. afterConnect, when not
// nil, is called with the negotiated version as soon as the session is
// established, before the tools are listed.
func probeMCP(ctx context.Context, c *safefetch.Client, endpoint string, afterConnect func(negotiated string)) *mcpProbe {
	p := &mcpProbe{endpoint: endpoint}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, mcpProbeTimeout)
	defer cancel()
	hc := c.HTTPClient()
	rec := &recorder{next: hc.Transport, timeout: hc.Timeout}
	hc.Transport = rec
	client := mcp.NewClient(&mcp.Implementation{Name: "agentweb-readiness", Version: MethodVersion}, nil)
	tr := &mcp.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           hc,
		MaxRetries:           -1,
		DisableStandaloneSSE: true,
		MaxEventSize:         mcpMaxBody,
	}
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: MCPOfferedVersion})
	if err != nil {
		p.connectErr = err
	} else {
		if ir := cs.InitializeResult(); ir != nil {
			p.initialized = true
			p.negotiated = ir.ProtocolVersion
		}
		if afterConnect != nil {
			afterConnect(p.negotiated)
		}
		cursor := ""
		for page := 0; page < mcpMaxPages; page++ {
			res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			if err != nil {
				p.listErr = err
				break
			}
			p.listed = true
			p.pages++
			for _, t := range res.Tools {
				if t == nil {
					continue
				}
				p.tools++
				if t.Annotations != nil && t.Annotations.ReadOnlyHint {
					p.readOnly++
				}
			}
			if res.NextCursor == "" {
				break
			}
			if page == mcpMaxPages-1 {
				p.pageCapped = true
			}
			cursor = res.NextCursor
		}
		_ = cs.Close()
	}
	rec.mu.Lock()
	for _, e := range rec.ex {
		p.exchanges = append(p.exchanges, *e)
	}
	rec.mu.Unlock()
	p.returned = p.returnedVersion()
	p.elapsed = time.Since(start)
	return p
}

// initExchange returns the exchange that carried initialize, or nil.
func (p *mcpProbe) initExchange() *exchange {
	for i := range p.exchanges {
		if p.exchanges[i].RPC == "initialize" {
			return &p.exchanges[i]
		}
	}
	return nil
}

// listExchange returns the last exchange that carried tools/list, or nil.
func (p *mcpProbe) listExchange() *exchange {
	var out *exchange
	for i := range p.exchanges {
		if p.exchanges[i].RPC == "tools/list" {
			out = &p.exchanges[i]
		}
	}
	return out
}

// returnedVersion reads the protocol version of the initialize result from
// the raw answer (JSON or the first SSE data event carrying a result), so
// that a version the client refused is still on record.
func (p *mcpProbe) returnedVersion() string {
	e := p.initExchange()
	if e == nil || e.Status != http.StatusOK {
		return ""
	}
	for _, msg := range jsonRPCMessages(e.ContentType, e.body) {
		var m struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &m) == nil && m.Result.ProtocolVersion != "" {
			return truncate(clean(m.Result.ProtocolVersion), 40)
		}
	}
	return ""
}

// jsonRPCMessages splits a response body into JSON texts: the body itself
// for JSON, the data of each event for an SSE stream.
func jsonRPCMessages(contentType string, body []byte) [][]byte {
	if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/event-stream") {
		return [][]byte{body}
	}
	var out [][]byte
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), mcpKeepBody)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(data) > 0 {
				out = append(out, data)
				data = nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, d...)
		}
	}
	if len(data) > 0 {
		out = append(out, data)
	}
	return out
}

// isJSONRPC reports whether an exchange answered with a JSON-RPC message.
func (e *exchange) isJSONRPC() bool {
	for _, msg := range jsonRPCMessages(e.ContentType, e.body) {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if json.Unmarshal(msg, &m) == nil && m.JSONRPC == "2.0" && (m.Result != nil || m.Error != nil) {
			return true
		}
	}
	return false
}

// unauthorized returns the first exchange answered 401, or nil.
func (p *mcpProbe) unauthorized() *exchange {
	for i := range p.exchanges {
		if p.exchanges[i].Status == http.StatusUnauthorized {
			return &p.exchanges[i]
		}
	}
	return nil
}

// handshake is the receipt form of the exchanges.
func (p *mcpProbe) handshake() []MCPExchange {
	out := make([]MCPExchange, 0, len(p.exchanges))
	for _, e := range p.exchanges {
		out = append(out, e.MCPExchange)
	}
	return out
}

// records are the request records of the exchanges: only the request
// headers that change the answer (MCP-Protocol-Version, and whether a
// session id was sent), never a credential.
func (p *mcpProbe) records() []RequestRecord {
	var out []RequestRecord
	for _, e := range p.exchanges {
		r := RequestRecord{Method: e.Method, URL: e.URL}
		if e.Method == http.MethodPost {
			r.Headers = map[string]string{"Accept": "application/json, text/event-stream"}
		}
		if e.ProtocolHeader != "" || e.SessionIDSent {
			if r.Headers == nil {
				r.Headers = map[string]string{}
			}
			if e.ProtocolHeader != "" {
				r.Headers["MCP-Protocol-Version"] = truncate(clean(e.ProtocolHeader), 40)
			}
			if e.SessionIDSent {
				r.Headers["Mcp-Session-Id"] = "(present)"
			}
		}
		if e.Status == 0 {
			r.Error = e.Error
			if r.Error == "" {
				r.Error = "no answer"
			}
		} else {
			rr := &ResponseRecord{Status: e.Status, MediaType: e.ContentType, Bytes: int(e.Bytes), Body: bodySummary(e.body)}
			if e.WWWAuthenticate != "" {
				rr.Headers = map[string]string{"WWW-Authenticate": truncate(e.WWWAuthenticate, maxHeaderValue)}
			}
			r.Response = rr
			if e.Error != "" {
				r.Error = e.Error
			}
		}
		out = append(out, r)
	}
	return out
}

// unanswered returns the first exchange that got no answer (a transport
// error, a timeout, a cap), or nil.
func (p *mcpProbe) unanswered() *exchange {
	for i := range p.exchanges {
		e := &p.exchanges[i]
		if e.Status == 0 || e.Capped || e.err != nil {
			return e
		}
	}
	return nil
}

// writeMCPReceipt writes the MCP receipt in the layout of
// readiness-method.md §05, one line at a time, for the Markdown and HTML
// forms; nothing when m is nil.
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
	line("transport: %s", orNone(m.Transport))
	line("protocol:")
	line("  offered: %s", m.Protocol.Offered)
	line("  returned: %s", orNone(m.Protocol.Returned))
	line("  negotiated: %s", orNone(m.Protocol.Negotiated))
	line("initialize: %t", m.Initialize)
	line("toolsList: %t", m.ToolsList)
	line("auth:")
	line("  mode: %s", m.Auth.Mode)
	line("  oauthMetadata: %t", m.Auth.OAuthMetadata)
	if m.Auth.ResourceMetadataURL != "" {
		line("  resourceMetadataUrl: %s", m.Auth.ResourceMetadataURL)
	}
	if m.Auth.MetadataURL != "" {
		line("  metadataUrl: %s", m.Auth.MetadataURL)
	}
	line("  pkce: [%s]", strings.Join(m.Auth.PKCE, ", "))
	line("  dynamicRegistration: %t   # optional either way", m.Auth.DynamicRegistration)
	line("  requirementsDocumentedAt: %s", orNone(m.Auth.RequirementsDocumentedAt))
	line("tools:")
	line("  listedWithoutToken: %d   # listed, not usable", m.Tools.ListedWithoutToken)
	line("  authenticated: null   # we never sign in to your server")
	line("  withReadOnlyHint: %d", m.Tools.WithReadOnlyHint)
	line("  executionTested: false   # so the execution check stays UNVERIFIED")
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
