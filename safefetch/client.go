package safefetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/textproto"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/weburl"
)

// Client fetches untrusted URLs under the rules of knowledge-linkset draft
// Section 7.1 and Section 9.2 (see the package documentation). It is safe for concurrent
// use; make one and share it. Clients made by [Client.WithBudget] and
// [Client.WithRedirectPolicy] share its transport and connections.
type Client struct {
	opts      Options // normalized
	transport *http.Transport
	budget    budgets
	redirect  RedirectPolicy
}

// New returns a Client configured by opts; nil opts gives the safe defaults
// described on [Options].
func New(opts *Options) *Client {
	o := opts.normalized()
	return &Client{opts: o, transport: newTransport(&o), budget: budgets{}.with(o.Budget), redirect: o.Redirect}
}

// WithBudget returns a Client that shares c's transport and settings and
// charges every request to b nested inside c's own Budgets. Every attempt,
// byte and concurrency slot is charged to b and to every Budget c charges.
// A call fails when any of them runs out. So the derived Client can only
// tighten c's limits, never loosen or replace them. A nil b, or one c
// already charges, gives a Client with c's Budgets alone.
func (c *Client) WithBudget(b *Budget) *Client {
	cp := *c
	cp.budget = c.budget.with(b)
	return &cp
}

// WithRedirectPolicy returns a Client that shares c's transport and settings
// and consults p for every redirect hop, for example [SameOriginOrWWW]. It
// consults p after c's own policy: a hop is followed only when both allow it.
// So the derived Client can only refuse more than c. A nil p gives a Client
// with c's policy alone.
func (c *Client) WithRedirectPolicy(p RedirectPolicy) *Client {
	cp := *c
	switch prev := c.redirect; {
	case p == nil:
	case prev == nil:
		cp.redirect = p
	default:
		cp.redirect = func(from, to *url.URL) error {
			if err := prev(from, to); err != nil {
				return err
			}
			return p(from, to)
		}
	}
	return &cp
}

// AllowsLoopback reports whether the Client is in development mode
// ([Options.AllowLoopback]).
func (c *Client) AllowsLoopback() bool { return c.opts.AllowLoopback }

// Budget returns the Budget nested last in the Client (the one given to the
// last [Client.WithBudget], or [Options.Budget]), or nil. The Client also
// charges the Budgets it is nested in.
func (c *Client) Budget() *Budget { return c.budget.innermost() }

// Charge counts n bytes that the caller derived from bodies the Client
// read, such as the bytes inflated from a compressed body. It charges them
// to every Budget the Client charges, as body bytes. So they count against
// a scan's total as well as the caller's own caps. The bytes are charged
// whatever the outcome; when they take a Budget past its byte limit, Charge
// returns a *[BudgetError] wrapping [ErrBudgetExhausted] and the Budget is
// exhausted. A Client without a Budget charges nothing and returns nil.
func (c *Client) Charge(n int64) error { return c.budget.charge(n) }

// CloseIdleConnections closes the idle connections of the Client's
// transport (shared with the Clients derived from it).
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// Request is one call of [Client.Do].
type Request struct {
	Method string      // "": GET
	URL    string      // absolute https URL (http to loopback in development mode)
	Header http.Header // sent as given, except Accept-Encoding (always identity)
	Body   []byte      // sent with the request; resent on 307 and 308 redirects
	// MaxBodyBytes bounds this response body below the Client's
	// [Options.MaxBodyBytes]: 0, or a value over the Client's, means the
	// Client's. A request can lower the cap, never raise it.
	MaxBodyBytes int64
	// MaxRedirects bounds the redirects followed for this request below
	// the Client's [Options.MaxRedirects], [DefaultMaxRedirects] included.
	// 0 means the Client's. Otherwise the smaller of the two applies, so a
	// request can lower the limit, never raise it (as MaxBodyBytes). A
	// negative value follows none, and a 3xx is returned as the response.
	// A caller that wants more redirects for one kind of file (RFC 9309
	// asks for five for robots.txt) gets them from a Client whose
	// Options.MaxRedirects allows them.
	MaxRedirects int
}

// Get fetches rawURL with GET. header may be nil.
func (c *Client) Get(ctx context.Context, rawURL string, header http.Header) (*Response, error) {
	return c.Do(ctx, &Request{Method: http.MethodGet, URL: rawURL, Header: header})
}

// Head fetches rawURL with HEAD; the Response has no Body.
func (c *Client) Head(ctx context.Context, rawURL string, header http.Header) (*Response, error) {
	return c.Do(ctx, &Request{Method: http.MethodHead, URL: rawURL, Header: header})
}

// Cause values for the deadlines a call runs under.
var (
	errCallTimeout    = errors.New("safefetch: call timeout")
	errBudgetDeadline = errors.New("safefetch: budget deadline")
)

// Do performs req within one deadline ([Options.Timeout]). It checks the
// URL, resolves and classifies the host once, and dials only a classified
// address. It follows redirects in its own loop, re-checking each hop, and
// reads the body under the byte caps.
//
// A non-2xx status is not an error. Any refusal is an error wrapping one of
// the package's sentinels; on [ErrTooLarge] the *Response (headers and hops,
// no Body) is returned with the error, as evidence.
//
// Over HTTP/2 calls share a connection, and a call that breaks a cap, fails
// or is cancelled mid-body closes that connection. A server may go on
// sending to a stream that was only reset, and those bytes would be read
// and charged to no call. So ending the stream alone would not bound them.
// A GET without a body may have been reading its response body on the
// connection when another call closed it. It is therefore sent once more,
// as a new attempt charged to the Budgets (not a hop), within the same
// deadline. So is a GET whose connection is lost before any response.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	if req == nil {
		return nil, errors.New("safefetch: nil Request")
	}
	started := time.Now()
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	maxBody := c.opts.MaxBodyBytes
	if req.MaxBodyBytes > 0 {
		maxBody = min(maxBody, req.MaxBodyBytes)
	}
	maxRedirects := c.opts.MaxRedirects
	if req.MaxRedirects != 0 {
		maxRedirects = min(maxRedirects, req.MaxRedirects)
	}
	ev := &Response{Method: method, URL: req.URL, RequestHeader: redactHeader(req.Header), Started: started}
	fail := func(err error) error { return &Error{Method: method, URL: req.URL, Hops: ev.Hops, Err: err} }
	u, err := c.parseURL(req.URL)
	if err != nil {
		return nil, fail(err)
	}

	// Waiting for a concurrency slot is bounded by ctx and the budget's
	// deadline, not by Timeout, which starts once the call may proceed.
	if err := c.budget.acquire(ctx); err != nil {
		return nil, fail(err)
	}
	defer c.budget.release()
	chainCtx, cancel := context.WithTimeoutCause(ctx, c.opts.Timeout, errCallTimeout)
	defer cancel()
	httpCtx := chainCtx
	if d, ok := c.budget.deadline(); ok {
		var cancel2 context.CancelFunc
		httpCtx, cancel2 = context.WithDeadlineCause(chainCtx, d, errBudgetDeadline)
		defer cancel2()
	}

	header, body, cur := req.Header, req.Body, u
	replayed := false
	for {
		hr, remote, err := c.attempt(chainCtx, httpCtx, method, cur, header, body)
		if err != nil {
			if len(ev.Redirects) > 0 {
				err = fmt.Errorf("redirect %d to %s: %w", len(ev.Redirects), cur.Redacted(), err)
			}
			return nil, fail(c.mapErr(ctx, httpCtx, err))
		}
		hop := Hop{URL: cur.String(), StatusCode: hr.StatusCode, RemoteAddr: remote}
		next, follow, err := c.nextHop(cur, hr, len(ev.Redirects), maxRedirects)
		if err != nil || follow {
			c.closeUnread(hr)
		}
		if err != nil {
			ev.Hops = append(ev.Hops, hop)
			return nil, fail(err)
		}
		if follow {
			hop.Location = next.String()
			ev.Hops = append(ev.Hops, hop)
			ev.Redirects = append(ev.Redirects, next.String())
			method, header, body = redirectRequest(hr.StatusCode, method, header, body, cur, next)
			cur = next
			continue
		}
		ev.Hops = append(ev.Hops, hop)
		ev.FinalURL = cur.String()
		ev.StatusCode = hr.StatusCode
		ev.Proto = hr.Proto
		ev.Header = hr.Header
		ev.RemoteAddr = remote
		if err := checkContentEncoding(hr.Header); err != nil {
			handleOf(hr).kill()
			hr.Body.Close()
			return nil, fail(err)
		}
		if method == http.MethodHead {
			hr.Body.Close()
			ev.Elapsed = time.Since(started)
			return ev, nil
		}
		b, err := c.readBody(httpCtx, hr, maxBody)
		ev.Elapsed = time.Since(started)
		if _, cut := err.(*cutError); cut && !replayed && method == http.MethodGet && body == nil {
			// Another call killed the shared connection mid-body (see
			// the doc of [Client.Do]): the GET is sent once more, a new
			// attempt charged to the Budgets, not a hop.
			replayed = true
			ev.Hops = ev.Hops[:len(ev.Hops)-1]
			continue
		}
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return ev, fail(err)
			}
			return nil, fail(c.mapErr(ctx, httpCtx, err))
		}
		ev.Body = b
		return ev, nil
	}
}

// parseURL applies [CheckURL] and returns the URL that is requested: the
// normalized form of [NormalizeURL] (host in IDNA ASCII form without a
// trailing dot, default port dropped, fragment dropped).
func (c *Client) parseURL(raw string) (*url.URL, error) {
	norm, err := NormalizeURL(raw, c.opts.AllowLoopback)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(norm)
	if err != nil {
		return nil, &URLError{URL: raw, Rule: RuleSyntax, Reason: err.Error()}
	}
	return u, nil
}

// attempt makes one request: it charges the budget, resolves and classifies
// u's host once, and sends the request over a connection to one of those
// addresses. The lookup is bounded by dnsCtx, which has the call deadline,
// not the budget's: DNS may use the budget's grace. Everything else is
// bounded by ctx.
func (c *Client) attempt(dnsCtx, ctx context.Context, method string, u *url.URL, header http.Header, body []byte) (*http.Response, netip.AddrPort, error) {
	if err := c.budget.attempt(); err != nil {
		return nil, netip.AddrPort{}, err
	}
	addrs, err := c.resolveHost(dnsCtx, u)
	if err != nil {
		return nil, netip.AddrPort{}, err
	}
	rctx := context.WithValue(ctx, pinKey{}, &pin{host: u.Hostname(), addrs: addrs})
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hr, err := http.NewRequestWithContext(rctx, method, u.String(), rd)
	if err != nil {
		return nil, netip.AddrPort{}, fmt.Errorf("safefetch: invalid request: %w", err)
	}
	c.prepareHeader(hr, header)
	resp, err := c.roundTrip(hr, body == nil)
	if err != nil {
		return nil, netip.AddrPort{}, err
	}
	var remote netip.AddrPort
	if tc := handleOf(resp).get(); tc != nil {
		remote, _ = addrPortOf(tc.RemoteAddr())
	}
	return resp, remote, nil
}

// roundTrip sends hr through the transport, keeping a handle on the
// connection it runs on (see [handleOf]). A failed round trip kills that
// connection. A request that is safe to repeat (GET or HEAD, no body) may
// fail on a connection the pool handed out. When that connection was then
// closed before any response, by the server or by another call that broke a
// cap on it, the request is sent once more. It is charged to the budget as
// a new attempt.
func (c *Client) roundTrip(hr *http.Request, noBody bool) (*http.Response, error) {
	replayable := noBody && (hr.Method == http.MethodGet || hr.Method == http.MethodHead)
	for try := 0; ; try++ {
		h := &connHandle{}
		ctx := context.WithValue(hr.Context(), connKey{}, h)
		var info1xx int64
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			GotConn: h.gotConn,
			// Informational responses count against the header cap, all
			// of them together; past it the connection is killed from
			// the transport's read loop itself, before it reads more.
			Got1xxResponse: func(code int, header textproto.MIMEHeader) error {
				info1xx += 64
				for k, vs := range header {
					for _, v := range vs {
						info1xx += int64(len(k) + len(v) + 32)
					}
				}
				if info1xx <= c.opts.MaxHeaderBytes {
					return nil
				}
				err := fmt.Errorf("%w: informational (1xx) responses over the header cap of %d bytes", ErrTooLarge, c.opts.MaxHeaderBytes)
				h.mu.Lock()
				h.capErr = err
				h.mu.Unlock()
				h.kill()
				return err
			},
		})
		resp, err := c.transport.RoundTrip(hr.WithContext(ctx))
		if err == nil {
			if tc := h.get(); tc != nil && resp.Body != nil && resp.Body != http.NoBody {
				tc.live.Add(1)
				resp.Body = &liveBody{ReadCloser: resp.Body, tc: tc}
			}
			return resp, nil
		}
		h.mu.Lock()
		capErr := h.capErr
		h.mu.Unlock()
		if capErr != nil {
			return nil, capErr
		}
		tc := h.get()
		lost := tc != nil && connLost(h, tc, err)
		h.kill()
		if try > 0 || !replayable || !lost || hr.Context().Err() != nil || c.budget.attempt() != nil {
			return nil, c.transportErr(err)
		}
	}
}

// connLost reports whether err is the failure of a reused connection that
// was closed under the request: killed by another call, or closed or reset
// by the server.
func connLost(h *connHandle, tc *trackedConn, err error) bool {
	if tc.killed.Load() {
		return true
	}
	h.mu.Lock()
	reused := h.reused
	h.mu.Unlock()
	if !reused {
		return false
	}
	// Typed errors and sentinels only. net/http repeats a replayable
	// request itself on its "server closed idle connection" error, and
	// keeps its "putIdleConn" errors to httptrace. It reports "client
	// connection lost" only for HTTP/2 health-check pings, which this
	// transport does not send.
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// prepareHeader copies the caller's header onto hr, adds the User-Agent when
// the caller set none, and asks for the identity encoding.
func (c *Client) prepareHeader(hr *http.Request, header http.Header) {
	for k, vs := range header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	if hr.Header.Get("User-Agent") == "" {
		hr.Header.Set("User-Agent", c.opts.UserAgent)
	}
	hr.Header.Set("Accept-Encoding", "identity")
}

// The net/http error texts [Client.transportErr] decides by: the standard
// library reports these caps with no typed error or sentinel (its HTTP/2
// errors are unexported types). A test provokes each one, so that a Go
// release that rewords one fails the test instead of changing what a call
// returns.
const (
	// msgH1HeadersExceeded: HTTP/1 response headers (1xx responses
	// included) over Transport.MaxResponseHeaderBytes.
	msgH1HeadersExceeded = "server response headers exceeded"
	// msgH2HeaderListLarger: an HTTP/2 header block that decodes past the
	// header-list cap (a few fields repeated through the HPACK table).
	msgH2HeaderListLarger = "header list larger than"
	// msgH2Compression: an HTTP/2 header field longer than the cap, or a
	// malformed header block.
	msgH2Compression = "COMPRESSION_ERROR"
	// msgH2BareProtocol: the whole text of the error with which the HTTP/2
	// client ends a connection whose header block runs past the cap in
	// many small fields (it stops decoding, and says no more).
	msgH2BareProtocol = "connection error: PROTOCOL_ERROR"
)

// transportErr gives the response-header cap its sentinel; net/http reports
// it only as text (see the msg constants above). Over HTTP/1 the transport
// stops reading at the cap. Over HTTP/2 the header decoder refuses a field
// longer than the cap with a COMPRESSION_ERROR. It refuses a header list
// over the cap with "header list larger than advertised limit" or, made of
// many small fields, a bare PROTOCOL_ERROR. The COMPRESSION_ERROR and
// PROTOCOL_ERROR cases also cover a malformed header block. Informational
// (1xx) responses are counted by the Client's own httptrace hook, over both
// protocols: with the hook set, net/http applies no 1xx limit of its own.
func (c *Client) transportErr(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, msgH1HeadersExceeded),
		strings.Contains(msg, msgH2HeaderListLarger):
		return fmt.Errorf("%w: response headers over %d bytes: %w", ErrTooLarge, c.opts.MaxHeaderBytes, err)
	case strings.Contains(msg, msgH2Compression), msg == msgH2BareProtocol:
		return fmt.Errorf("%w: HTTP/2 header block refused (over %d bytes, or malformed): %w", ErrTooLarge, c.opts.MaxHeaderBytes, err)
	}
	// The transport's own timers (the TLS handshake's, a dial's share of
	// the deadline) can fire just before the call's deadline does.
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() && !errors.Is(err, ErrTimeout) &&
		!errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return err
}

// mapErr turns a failure under an expired deadline into the package's
// errors: the call's Timeout into ErrTimeout, the budget's deadline into a
// *BudgetError, the caller's cancellation into ctx.Err().
func (c *Client) mapErr(parent, ctx context.Context, err error) error {
	if errors.Is(err, ErrBudgetExhausted) || errors.Is(err, ErrTimeout) || ctx.Err() == nil {
		return err
	}
	if perr := parent.Err(); perr != nil {
		if errors.Is(err, perr) {
			return err
		}
		return fmt.Errorf("%w: %w", perr, err)
	}
	switch context.Cause(ctx) {
	case errCallTimeout:
		if errors.Is(err, ErrDNS) {
			// One sentinel per error: the call's deadline is what ended
			// the lookup.
			return fmt.Errorf("%w: no complete response within %s: %v", ErrTimeout, c.opts.Timeout, err)
		}
		return fmt.Errorf("%w: no complete response within %s: %w", ErrTimeout, c.opts.Timeout, err)
	case errBudgetDeadline:
		return c.budget.deadlineError()
	}
	return err
}

// checkContentEncoding refuses any content coding: identity was asked for,
// and a coded body could expand beyond every cap (a gzip bomb).
func checkContentEncoding(h http.Header) error {
	for _, v := range h.Values("Content-Encoding") {
		for _, tok := range strings.Split(v, ",") {
			tok = strings.TrimSpace(tok)
			if tok != "" && !strings.EqualFold(tok, "identity") {
				return fmt.Errorf("%w: the server applied %q although identity was requested", ErrContentEncoding, tok)
			}
		}
	}
	return nil
}

// Error is the error of a failed call. Every error that [Client.Do],
// [Client.Get], [Client.Head] and the transport of [Client.HTTPClient]
// return is an *Error. So a report can say which call failed and which hops
// it made before, whatever the cause. The cause is Err: test it with
// errors.Is against the package's sentinels, or errors.As for *URLError,
// *AddrError and *BudgetError.
type Error struct {
	Method string // the request method
	URL    string // the declared URL
	Hops   []Hop  // the requests answered before the failure (the redirect hops, and the last response if the failure came after its headers); nil if none
	Err    error  // the cause
}

// Error returns "safefetch: METHOD URL: cause", the URL shortened past 256
// bytes and its password redacted.
func (e *Error) Error() string {
	u := redactURL(e.URL)
	u = shorten.Bytes(u, maxErrorURL)
	return "safefetch: " + e.Method + " " + u + ": " + strings.TrimPrefix(e.Err.Error(), "safefetch: ")
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// redactURL hides a password in a URL that is only printed. A URL that
// does not parse is quoted, its userinfo redacted by weburl.Redact.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return fmt.Sprintf("%q", weburl.Redact(raw))
}
