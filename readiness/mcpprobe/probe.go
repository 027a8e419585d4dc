package mcpprobe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentweb/agentweb/internal/plural"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/readiness/internal/refusal"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol versions the probe implements, newest first: 2026-07-28
// (stateless, server/discover), 2025-11-25, 2025-06-18 and 2025-03-26.
const (
	Version20260728 = "2026-07-28"
	Version20251125 = "2025-11-25"
	Version20250618 = "2025-06-18"
	Version20250326 = "2025-03-26"
	// LatestVersion is the version offered first.
	LatestVersion = Version20260728
)

// Versions returns the protocol versions the probe implements, newest first.
func Versions() []string {
	return []string{Version20260728, Version20251125, Version20250618, Version20250326}
}

// Defaults of [Options].
const (
	DefaultTimeout      = 15 * time.Second
	DefaultMaxToolPages = 5
	// MaxBodyBytes caps every response body (and SSE event) of the probe.
	MaxBodyBytes = 256 << 10
	// maxExchanges bounds the requests of one session attempt.
	maxExchanges = 16
	// keepBody is how much of a response body is kept for reading.
	keepBody = 16 << 10
	// receiptBody is how much of it the receipt shows.
	receiptBody = 2 << 10
)

// ErrInvalidEndpoint is returned by [Probe] for an endpoint that is not an
// absolute http or https URL. Every other failure is in the receipt.
var ErrInvalidEndpoint = errors.New("mcpprobe: invalid endpoint")

// Options configures [Probe]. The zero value is safe: the shared
// [safefetch.Default] client, the latest version offered first, a 15-second
// deadline, five pages of tools.
type Options struct {
	// Client makes every request; nil means safefetch.Default().
	Client *safefetch.Client
	// ClientName and ClientVersion are the clientInfo of initialize; zero:
	// "agentweb-mcpprobe" and "1".
	ClientName, ClientVersion string
	// ProtocolVersion is the version offered first; "" means
	// LatestVersion. It must be one of Versions().
	ProtocolVersion string
	// Timeout bounds the whole probe, sign-in discovery included; zero
	// means DefaultTimeout.
	Timeout time.Duration
	// MaxToolPages bounds tools/list; zero means DefaultMaxToolPages.
	MaxToolPages int
	// Get, when set, makes sign-in discovery's GET requests instead of
	// Client, for a caller that shares one fetch per URL among its own
	// readers (a scanner that reads the same metadata elsewhere). It must
	// honour ctx and apply the same address policy as Client.
	Get func(ctx context.Context, url string) (*safefetch.Response, error)
	// DiscoverSignIn runs sign-in discovery even when no request is
	// answered 401, for a caller that knows from elsewhere (a capability
	// card) that the endpoint needs a token.
	DiscoverSignIn bool
}

// Probe speaks MCP Streamable HTTP to endpoint with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk), every request through the
// safefetch client behind a recording, size-capping round-tripper. It
// offers the latest version it implements and negotiates down
// ([MCP lifecycle 2025-11-25], "Version Negotiation"): 2026-07-28's stateless
// server/discover first, then initialize offering 2025-11-25, accepting the
// version the server returns when the probe implements it; then
// notifications/initialized and tools/list without a token, at most
// MaxToolPages pages. It declares no client capability (it serves no roots,
// sampling or elicitation), never calls a tool and never signs in. The
// endpoint is normalized first (lower-case scheme and host, IDNA A-labels,
// no trailing dot, no default port, no fragment): the receipt states that
// URL, and every identifier is compared with it.
//
// When a request answers 401 (or Options.DiscoverSignIn is set), sign-in
// discovery follows the negotiated version's rules ([MCP authorization
// 2025-11-25]); when the 401 came before any version was negotiated, the
// receipt says so and the 2025-11-25 rules, which find the most, are
// applied: the challenge's resource_metadata, the path-inserted and then
// the root RFC 9728 well-known URI, then the authorization server's RFC 8414
// metadata and OpenID Connect discovery, path insertion before appending.
// Auth.Rules names the version whose rules were applied; each Document
// names the earliest version whose authorization rules include the step
// that asked for it, so that after a 401 before any version the
// challenge's resource_metadata is labelled 2025-06-18 (where that step
// first appears, [MCP authorization 2025-06-18]) although the 2025-11-25
// rules were applied, and the well-known URIs of protected resource
// metadata, which appear in 2025-11-25, are labelled 2025-11-25.
//
// A session that fails on a transport error because a pooled connection
// was closed is run once more. Probe returns an error only for an invalid
// endpoint, or one the client's policy refuses before any connection (an
// error wrapping [safefetch.ErrForbiddenURL] or
// [safefetch.ErrForbiddenAddress], as [safefetch.Client.CheckURL] gives
// it, userinfo redacted); every network failure is in the
// receipt, as OutcomeUnanswered or in a Document, with its URL and reason.
//
// [MCP lifecycle 2025-11-25]: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
// [MCP authorization 2025-11-25]: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
// [MCP authorization 2025-06-18]: https://modelcontextprotocol.io/specification/2025-06-18/basic/authorization
func Probe(ctx context.Context, endpoint string, opts *Options) (*Receipt, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%w: %q is not an absolute http(s) URL", ErrInvalidEndpoint, weburl.Redact(endpoint))
	}
	// The endpoint is normalized (scheme and host case, default port,
	// trailing dot) before its origin is compared with any document's.
	if u, err = weburl.NormalizeURL(u); err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrInvalidEndpoint, weburl.Redact(endpoint), err)
	}
	endpoint = u.String()
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = LatestVersion
	} else if !slices.Contains(Versions(), o.ProtocolVersion) {
		return nil, fmt.Errorf("%w: protocol version %q is not one of %v", ErrInvalidEndpoint, o.ProtocolVersion, Versions())
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxToolPages <= 0 {
		o.MaxToolPages = DefaultMaxToolPages
	}
	if o.ClientName == "" {
		o.ClientName = "agentweb-mcpprobe"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "1"
	}
	c := safefetch.OrDefault(o.Client)
	if err := c.CheckURL(ctx, endpoint); errors.Is(err, safefetch.ErrForbiddenURL) || errors.Is(err, safefetch.ErrForbiddenAddress) {
		// A URL the client's policy refuses is an error here as at every
		// other entry point of the module, never a receipt; a name that
		// does not resolve is a network failure, for the receipt.
		return nil, fmt.Errorf("mcpprobe: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()

	s := runSession(ctx, c, endpoint, &o)
	retried := false
	if s.closedConn() && ctx.Err() == nil {
		// A pooled connection closed under an idempotent step: the probe
		// only reads, so the whole session is run once more.
		retried = true
		first := s.exchanges
		s = runSession(ctx, c, endpoint, &o)
		s.exchanges = append(first, s.exchanges...)
		s.firstAttempt = len(first)
	}
	r := s.receipt(&o)
	r.Retried = retried
	r.Development = c.AllowsLoopback()
	if r.Outcome == OutcomeSignInRequired || r.Outcome == OutcomeUnauthorized || (o.DiscoverSignIn && r.Outcome.IsMCP()) {
		discoverSignIn(ctx, c, o.Get, u, r, s)
	}
	if r.Auth.Mode == "none" && r.Auth.OAuthMetadata {
		r.Auth.Mode = "oauth"
	}
	return r, nil
}

// session is one run of the MCP client.
type session struct {
	endpoint     string
	negotiated   string
	serverInfo   *Implementation
	initialized  bool
	listed       bool
	tools        int
	readOnly     int
	pages        int
	pageCapped   bool
	connectErr   error
	listErr      error
	exchanges    []*exchange
	firstAttempt int // exchanges of a first attempt that was retried
}

func runSession(ctx context.Context, c *safefetch.Client, endpoint string, o *Options) *session {
	s := &session{endpoint: endpoint}
	hc := c.HTTPClient()
	rec := &recorder{next: hc.Transport}
	rec.deadline, rec.hasDeadline = ctx.Deadline()
	hc.Transport = rec
	client := mcp.NewClient(&mcp.Implementation{Name: o.ClientName, Version: o.ClientVersion},
		// No capability is declared that the probe does not serve: an
		// empty set, not the SDK's default roots.
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	tr := &mcp.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           hc,
		MaxRetries:           -1,
		DisableStandaloneSSE: true,
		MaxEventSize:         MaxBodyBytes,
	}
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: o.ProtocolVersion})
	if err != nil {
		s.connectErr = err
	} else {
		if ir := cs.InitializeResult(); ir != nil {
			s.initialized = true
			s.negotiated = ir.ProtocolVersion
			if ir.ServerInfo != nil {
				s.serverInfo = &Implementation{Name: clip(ir.ServerInfo.Name, 120), Version: clip(ir.ServerInfo.Version, 40)}
			}
		}
		cursor := ""
		for page := 0; page < o.MaxToolPages; page++ {
			res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			if err != nil {
				s.listErr = err
				break
			}
			s.listed = true
			s.pages++
			for _, t := range res.Tools {
				if t == nil {
					continue
				}
				s.tools++
				if t.Annotations != nil && t.Annotations.ReadOnlyHint {
					s.readOnly++
				}
			}
			if res.NextCursor == "" {
				break
			}
			if page == o.MaxToolPages-1 {
				s.pageCapped = true
			}
			cursor = res.NextCursor
		}
		_ = cs.Close()
	}
	// The MCP client may still be draining a stream in a goroutine of its
	// own, whose reads still count against the cap: the session keeps
	// copies taken under the recorder's lock, so the receipt reads what
	// the session saw, never an exchange being written.
	rec.mu.Lock()
	for _, e := range rec.ex {
		cp := *e
		cp.body = slices.Clone(e.body)
		s.exchanges = append(s.exchanges, &cp)
	}
	rec.mu.Unlock()
	return s
}

// closedConn reports whether the session failed because a connection
// closed under a request that can be repeated: a reset, an EOF before the
// answer, or a pooled connection net/http had already closed.
func (s *session) closedConn() bool {
	if s.connectErr == nil && s.listErr == nil {
		return false
	}
	for _, e := range s.exchanges {
		if e.Status == 0 && e.err != nil && isClosedConn(e.err) {
			return true
		}
	}
	return false
}

func isClosedConn(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, safefetch.ErrTimeout) || errors.Is(err, safefetch.ErrTooLarge) ||
		errors.Is(err, safefetch.ErrForbiddenAddress) || errors.Is(err, safefetch.ErrForbiddenURL) ||
		errors.Is(err, safefetch.ErrBudgetExhausted) || errors.Is(err, errExchanges) {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, http.ErrServerClosed) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"putIdleConn", "server closed idle connection", "use of closed network connection", "connection reset", "broken pipe", "http2: client connection lost", "GOAWAY"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// errCap is returned to the MCP client when a response body passes
// MaxBodyBytes; it wraps safefetch.ErrTooLarge.
var errCap = fmt.Errorf("mcpprobe: MCP response over %d bytes: %w", MaxBodyBytes, safefetch.ErrTooLarge)

// errExchanges is returned when a session would make more than maxExchanges
// requests.
var errExchanges = errors.New("mcpprobe: request limit reached")

// exchange is one recorded request with the body kept for reading.
type exchange struct {
	Exchange
	body []byte
	err  error
}

// recorder is the round-tripper the MCP client's requests go through: it
// records every exchange and caps each response body. It wraps the
// safefetch transport, so address policy, time-outs and a budget apply to
// every request.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	ex   []*exchange
	// deadline is the probe's: it bounds every request, those the MCP
	// client sends with a context of its own included (the cancellation
	// notice it posts when a call is cancelled, which would otherwise hold
	// the session open for seconds past the probe's deadline).
	deadline    time.Time
	hasDeadline bool
	// open counts the response bodies not yet at their end or closed;
	// settled, when not nil, is closed when open falls to zero.
	open    int
	settled chan struct{}
	h2      bool // a response came over HTTP/2, which needs no wait
}

// settleWait bounds how long a request waits for the response bodies still
// open (see [recorder.awaitSettled]).
const settleWait = 50 * time.Millisecond

// awaitSettled waits, at most settleWait, until every response body of the
// session has ended. The MCP client reads each POST's event stream to its
// end in a goroutine of its own while it sends the next request; over
// HTTP/1 a request sent before the previous stream's end has been read
// finds its connection busy and dials another. A server's stream ends
// just after its response, so the wait is short; one that does not end
// within the bound costs a connection, as before. Over HTTP/2, where
// requests share the connection, nothing is waited for.
func (r *recorder) awaitSettled(ctx context.Context) {
	r.mu.Lock()
	if r.open == 0 || r.h2 {
		r.mu.Unlock()
		return
	}
	if r.settled == nil {
		r.settled = make(chan struct{})
	}
	ch := r.settled
	r.mu.Unlock()
	t := time.NewTimer(settleWait)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

// bodyDone records that a body ended or was closed. The caller holds r.mu.
func (r *recorder) bodyDoneLocked() {
	r.open--
	if r.open == 0 && r.settled != nil {
		close(r.settled)
		r.settled = nil
	}
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	e := &exchange{Exchange: Exchange{Method: req.Method, URL: req.URL.String(),
		ProtocolHeader: clip(req.Header.Get("Mcp-Protocol-Version"), 40), SessionIDSent: req.Header.Get("Mcp-Session-Id") != ""}}
	if r.hasDeadline {
		ctx, cancel := context.WithDeadline(req.Context(), r.deadline)
		// Released when the request's context ends: its deadline, or
		// the MCP client's own cancellation.
		context.AfterFunc(ctx, cancel)
		req = req.WithContext(ctx)
	}
	// The probe never sends a credential; make sure of it.
	req.Header.Del("Authorization")
	req.Header.Del("Cookie")
	if req.Body != nil && req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			raw, _ := io.ReadAll(io.LimitReader(b, 64<<10))
			_ = b.Close()
			e.RPC, e.Offered = requestOffer(raw)
		}
	}
	if req.Method == http.MethodPost && e.RPC != "" && req.Header.Get("Mcp-Method") == "" {
		// MCP 2026-07-28 (Streamable HTTP, "Standard request headers")
		// requires the JSON-RPC method as a header on every POST; older
		// servers ignore it.
		req.Header.Set("Mcp-Method", e.RPC)
	}
	r.mu.Lock()
	if len(r.ex) >= maxExchanges {
		r.mu.Unlock()
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, errExchanges
	}
	r.ex = append(r.ex, e)
	r.mu.Unlock()

	r.awaitSettled(req.Context())
	resp, err := r.next.RoundTrip(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		e.err = err
		e.Error = errorKind(err)
		if ce := req.Context().Err(); errors.Is(ce, context.DeadlineExceeded) {
			// The transport's error may not wrap the deadline that ended it.
			e.Error = refusal.Kind(ce)
		}
		return nil, err
	}
	e.Status = resp.StatusCode
	e.ContentType = clip(resp.Header.Get("Content-Type"), 200)
	e.SessionID = resp.Header.Get("Mcp-Session-Id") != ""
	e.WWWAuthenticate = clip(strings.Join(resp.Header.Values("Www-Authenticate"), ", "), 1000)
	r.open++
	r.h2 = r.h2 || resp.ProtoMajor == 2
	resp.Body = &cappedBody{rc: resp.Body, r: r, e: e}
	return resp, nil
}

// requestOffer reads the JSON-RPC method of a request body and the protocol
// version it offers (initialize's params.protocolVersion, or the _meta
// protocol version of 2026-07-28's requests).
func requestOffer(raw []byte) (rpc, offered string) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string         `json:"protocolVersion"`
			Meta            map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return "", ""
	}
	offered = m.Params.ProtocolVersion
	if v, ok := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string); ok && offered == "" && (m.Method == "server/discover" || m.Method == "initialize") {
		offered = v
	}
	return clip(m.Method, 80), clip(offered, 40)
}

// cappedBody counts, keeps the start of, and caps a response body.
type cappedBody struct {
	rc   io.ReadCloser
	r    *recorder
	e    *exchange
	done bool // counted out of recorder.open
}

func (b *cappedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.r.mu.Lock()
	defer b.r.mu.Unlock()
	if err != nil && !b.done {
		b.done = true
		b.r.bodyDoneLocked()
	}
	if keep := keepBody - len(b.e.body); keep > 0 && n > 0 {
		b.e.body = append(b.e.body, p[:min(n, keep)]...)
	}
	b.e.Bytes += int64(n)
	if b.e.Bytes > MaxBodyBytes {
		b.e.Capped = true
		b.e.Error = "response too large: capped"
		return 0, errCap
	}
	if err != nil && !errors.Is(err, io.EOF) && b.e.Error == "" {
		b.e.err = err
		b.e.Error = errorKind(err)
	}
	return n, err
}

func (b *cappedBody) Close() error {
	err := b.rc.Close()
	b.r.mu.Lock()
	if !b.done {
		b.done = true
		b.r.bodyDoneLocked()
	}
	b.r.mu.Unlock()
	return err
}

// errorKind names a failure in a few words, in the words the scanner's
// receipts use.
func errorKind(err error) string {
	if errors.Is(err, errExchanges) {
		return "request limit reached"
	}
	if k := refusal.Kind(err); k != "" {
		return k
	}
	if isClosedConn(err) {
		return "connection closed: " + clip(err.Error(), 160)
	}
	return "request failed: " + clip(err.Error(), 160)
}

// refusalHint names the likely cause of a refusal the probe recognises,
// as a clause to append to the receipt's reason, or "". The MCP Go SDK's
// Streamable HTTP handler refuses, by default, a request that reached it
// on a loopback address with a Host header that is not a loopback name
// (its DNS-rebinding protection, after [MCP security best practices]),
// answering 403 "Forbidden: invalid Host header": a server behind a
// reverse proxy on its own machine, or probed by a name mapped to
// loopback, refuses every request.
//
// [MCP security best practices]: https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#local-mcp-server-compromise
func refusalHint(e *exchange) string {
	if e.Status == http.StatusForbidden && bytes.Contains(e.body, []byte("invalid Host header")) {
		return "; likely cause: the server's DNS-rebinding protection (the MCP Go SDK's default) refused the Host header because the request reached it on a loopback address, as it does behind a reverse proxy on the same machine: have the proxy pass a Host the server accepts, or list the public host among those it accepts (StreamableHTTPOptions.DisableLocalhostProtection turns the check off)"
	}
	return ""
}

// receipt classifies the session.
func (s *session) receipt(o *Options) *Receipt {
	r := &Receipt{
		Endpoint:   s.endpoint,
		Protocol:   Protocol{Offered: o.ProtocolVersion, Offers: []Offer{}, Negotiated: s.negotiated},
		Initialize: s.initialized,
		ToolsList:  s.listed,
		ServerInfo: s.serverInfo,
		Auth:       Auth{Mode: "none", PKCE: []string{}, Documents: []Document{}},
		Tools:      Tools{ListedWithoutToken: s.tools, WithReadOnlyHint: s.readOnly, Pages: s.pages, PagesCapped: s.pageCapped},
		Handshake:  make([]Exchange, 0, len(s.exchanges)),
	}
	for i, e := range s.exchanges {
		x := e.Exchange
		x.Body = bodyText(e.body)
		r.Handshake = append(r.Handshake, x)
		if e.Offered != "" && i >= s.firstAttempt {
			r.Protocol.Offers = append(r.Protocol.Offers, Offer{RPC: e.RPC, Version: e.Offered})
		}
	}
	if len(r.Protocol.Offers) > 0 {
		r.Protocol.Offered = r.Protocol.Offers[0].Version
	}
	r.Omissions = s.cacheableOmissions()
	r.Protocol.Returned = s.returnedVersion()
	if r.Protocol.Returned == "" {
		r.Protocol.Returned = s.negotiated
	}

	unauth := s.unauthorized()
	if unauth != nil {
		r.Auth.Mode = "token"
		if ps, ok := parseChallenge(unauth.WWWAuthenticate); ok {
			r.Auth.Mode = "oauth"
			r.Auth.Challenge = &Challenge{URL: unauth.URL, ResourceMetadata: clip(ps["resource_metadata"], 2000), Scope: clip(ps["scope"], 500), Error: clip(ps["error"], 100)}
		}
		r.Auth.BeforeVersion = !s.initialized
	}
	init := s.initExchange()
	failed := s.failedExchange()
	switch {
	case s.initialized && s.listed:
		r.Outcome = OutcomeListed
		r.Reason = fmt.Sprintf("%s negotiated; %s listed without a token in %s", s.negotiated, plural.N(s.tools, "tool", "tools"), plural.N(s.pages, "page", "pages"))
		if s.pageCapped {
			r.Reason += fmt.Sprintf("; stopped after %s: more tools may exist", plural.N(s.pages, "page", "pages"))
		}
	case r.Auth.Challenge != nil:
		r.Outcome = OutcomeSignInRequired
		if s.initialized {
			r.Reason = fmt.Sprintf("%s negotiated; %s %s (%s) answered 401 with a Bearer challenge: listing needs a token", s.negotiated, unauth.Method, unauth.URL, unauth.RPC)
		} else {
			r.Reason = fmt.Sprintf("%s %s (%s) answered 401 with a Bearer challenge before any version was negotiated", unauth.Method, unauth.URL, unauth.RPC)
		}
	case failed != nil:
		// A transport failure, a time-out, a cap: not an answer, whatever
		// came before it.
		r.Outcome = OutcomeUnanswered
		r.Reason = fmt.Sprintf("%s %s (%s): %s", failed.Method, failed.URL, failed.RPC, first(failed.Error, "no answer"))
	case s.initialized:
		r.Outcome = OutcomeInitialized
		r.Reason = fmt.Sprintf("%s negotiated, but tools/list failed: %s", s.negotiated, errText(s.listErr))
	case r.Protocol.Returned != "" && !slices.Contains(Versions(), r.Protocol.Returned) && init != nil:
		r.Outcome = OutcomeUnsupportedVersion
		r.Reason = fmt.Sprintf("initialize at %s answered with protocol version %q, which this client does not implement (it implements %s)", init.URL, r.Protocol.Returned, strings.Join(Versions(), ", "))
	case init != nil && refusal.Refused(init.Status):
		r.Outcome = OutcomeUnanswered
		r.Reason = fmt.Sprintf("initialize at %s: the server answered %d: a refusal or failure is not an answer", init.URL, init.Status) + refusalHint(init)
	case init == nil:
		if d := s.refusedExchange(); d != nil {
			r.Outcome = OutcomeUnanswered
			r.Reason = fmt.Sprintf("%s %s (%s): the server answered %d: a refusal or failure is not an answer", d.Method, d.URL, d.RPC, d.Status) + refusalHint(d)
		} else if d := s.discoverAnswer(); d != nil {
			r.Outcome = OutcomeNotMCP
			r.Reason = fmt.Sprintf("server/discover at %s answered %d %s, and no initialize followed: %s", d.URL, d.Status, first(d.ContentType, "(no type)"), errText(s.connectErr))
		} else {
			r.Outcome = OutcomeUnanswered
			r.Reason = "no initialize request was made: " + errText(s.connectErr)
		}
	case init.Status == http.StatusUnauthorized:
		r.Outcome = OutcomeUnauthorized
		r.Reason = fmt.Sprintf("initialize at %s answered 401 without a Bearer challenge", init.URL)
	case init.Status == http.StatusOK && init.isJSONRPC():
		// A JSON-RPC answer that the client could not use.
		r.Outcome = OutcomeInitialized
		r.Reason = fmt.Sprintf("initialize at %s answered JSON-RPC, but no session was established: %s", init.URL, errText(s.connectErr))
	default:
		r.Outcome = OutcomeNotMCP
		r.Reason = fmt.Sprintf("initialize at %s answered %d %s, not MCP", init.URL, init.Status, first(init.ContentType, "(no type)"))
	}
	if r.Outcome.IsMCP() {
		r.Transport = "streamable-http"
	}
	return r
}

// initExchange returns the last exchange that carried initialize (of the
// last attempt), or nil.
func (s *session) initExchange() *exchange {
	var out *exchange
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.RPC == "initialize" {
			out = e
		}
	}
	return out
}

// discoverAnswer returns the server/discover exchange that got an answer
// (not a refusal, not a 401), or nil.
func (s *session) discoverAnswer() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.RPC == "server/discover" && e.Status != 0 && e.Status != http.StatusUnauthorized && !refusal.Refused(e.Status) {
			return e
		}
	}
	return nil
}

// refusedExchange returns the first exchange answered with a refusal, or nil.
func (s *session) refusedExchange() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if refusal.Refused(e.Status) {
			return e
		}
	}
	return nil
}

// unauthorized returns the first exchange (of the last attempt) answered
// 401, or nil.
func (s *session) unauthorized() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.Status == http.StatusUnauthorized {
			return e
		}
	}
	return nil
}

// failedExchange returns the first exchange of the last attempt that got no
// answer (a transport error, a time-out, a cap), or nil. The closing DELETE
// of a session that did its work is not counted.
func (s *session) failedExchange() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.Status == 0 || e.Capped || e.err != nil {
			if e.Method == http.MethodDelete && s.initialized && (s.listed || s.listErr == nil) {
				continue
			}
			return e
		}
	}
	return nil
}

// returnedVersion reads the protocol version of the initialize result from
// the raw answer (JSON or an SSE data event carrying a result), so that a
// version the client refused is still on record.
func (s *session) returnedVersion() string {
	e := s.initExchange()
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
			return clip(m.Result.ProtocolVersion, 40)
		}
	}
	return ""
}

// cacheableOmissions names what a 2026-07-28 server left out of the
// results that version makes cacheable (MCP 2026-07-28, schema
// "CacheableResult"): ttlMs, a number of at least 0, and cacheScope,
// "public" or "private", on the server/discover result and, in a session
// negotiated at 2026-07-28, on every */list result read. A result that
// could not be read (past the bytes kept, not JSON) is not judged.
func (s *session) cacheableOmissions() []string {
	var out []string
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.Status != http.StatusOK || !(e.RPC == "server/discover" || s.negotiated == Version20260728 && strings.HasSuffix(e.RPC, "/list")) {
			continue
		}
		for _, msg := range jsonRPCMessages(e.ContentType, e.body) {
			var m struct {
				Result map[string]json.RawMessage `json:"result"`
			}
			if json.Unmarshal(msg, &m) != nil || m.Result == nil {
				continue
			}
			var missing []string
			var ttl float64
			if raw, ok := m.Result["ttlMs"]; !ok || json.Unmarshal(raw, &ttl) != nil || ttl < 0 {
				missing = append(missing, "ttlMs (a number of milliseconds, at least 0)")
			}
			var scope string
			if raw, ok := m.Result["cacheScope"]; !ok || json.Unmarshal(raw, &scope) != nil || scope != "public" && scope != "private" {
				missing = append(missing, `cacheScope ("public" or "private")`)
			}
			if len(missing) > 0 && len(out) < 8 {
				out = append(out, fmt.Sprintf("the %s result at %s has no valid %s, which %s requires on cacheable results", e.RPC, e.URL, strings.Join(missing, " and no valid "), Version20260728))
			}
			break
		}
	}
	return out
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
	sc.Buffer(make([]byte, 0, 4096), keepBody)
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

// bodyText is the receipt form of a kept body: valid UTF-8, at most
// receiptBody bytes.
func bodyText(b []byte) string {
	if len(b) > receiptBody {
		b = b[:receiptBody]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// clip makes remote text safe to show: control characters replaced, at
// most n bytes, valid UTF-8.
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return clip(strings.TrimPrefix(err.Error(), "calling \""), 200)
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
