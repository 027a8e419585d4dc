package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// The defaults of [Options]' zero fields.
const (
	DefaultMaxConcurrent   = 4
	DefaultMaxQueued       = 32
	DefaultCallTimeout     = 2 * time.Minute
	DefaultMaxRequestBytes = 1 << 20
	DefaultCallerRate      = 2
	DefaultCallerBurst     = 20
	DefaultTargetPerMinute = 3
	DefaultSessionTimeout  = 10 * time.Minute
)

// Options configures a [Server]. The zero value is safe for a server that
// strangers reach: every limit takes its default.
type Options struct {
	// Client fetches everything every tool reads. Nil means
	// safefetch.Default(). Its limits apply to every tool, and so does its
	// mode: only a client with AllowLoopback (development mode) lets a tool
	// reach loopback addresses or plain http, and every result then says so.
	Client *safefetch.Client

	// Renderer renders pages in a browser for scan_site calls that ask for
	// it ("browser": true). Nil means no browser: such a call is a tool
	// error, and every scan reads scripts without running them.
	Renderer readiness.Renderer

	// MaxConcurrent bounds the tool calls that run at once, over every
	// transport together. 0 means DefaultMaxConcurrent.
	MaxConcurrent int
	// MaxQueued bounds the calls that wait for a slot. A call past it is a
	// tool error that says the server is busy and when to retry. 0 means
	// DefaultMaxQueued; a negative value queues none.
	MaxQueued int
	// CallTimeout bounds each tool call, its wait for a slot included. 0
	// means DefaultCallTimeout.
	CallTimeout time.Duration

	// MaxRequestBytes bounds an HTTP request body (a larger one is answered
	// 413) and a stdio line (a larger one ends the session with an error).
	// 0 means DefaultMaxRequestBytes.
	MaxRequestBytes int64

	// CallerRate and CallerBurst bound the HTTP requests of one caller: a
	// token bucket of CallerBurst requests refilled at CallerRate a second.
	// A request past it is answered 429 with Retry-After, before any
	// JSON-RPC is read. 0 means DefaultCallerRate (DefaultCallerBurst); a
	// negative CallerRate sets no limit.
	CallerRate  float64
	CallerBurst int

	// TargetPerMinute bounds, over HTTP, the tool calls that fetch from one
	// site: scan_site, discover_site, probe_mcp, validate_document with a
	// url. They are keyed by the registrable domain of the URL, whoever the
	// callers are. At most TargetPerMinute run in any minute. A call past
	// it is a tool error that says busy and when to retry, and sends no
	// request. Without it a public scanner is a reflected amplifier. 0
	// means DefaultTargetPerMinute; a negative value sets no limit. Stdio
	// serves one local user and has no such limit.
	TargetPerMinute int

	// TrustedProxyHeader names a header set by a reverse proxy in front of
	// the server, such as "X-Forwarded-For", whose last address is the
	// caller. Empty means the caller is the request's remote address. Name
	// it only when every request comes through that proxy: a stranger can
	// write any header.
	TrustedProxyHeader string

	// SessionTimeout closes an HTTP session that has had no request for
	// this long. 0 means DefaultSessionTimeout.
	SessionTimeout time.Duration

	// DisableLocalhostProtection turns off the go-sdk's DNS-rebinding
	// guard, which answers 403 to a request that arrives on a loopback
	// address with a Host header that is not a loopback name. Set it when
	// a reverse proxy on the same machine forwards public requests to the
	// server.
	DisableLocalhostProtection bool

	// Now gives the time of the rate limits. Nil means time.Now.
	Now func() time.Time
}

// Server serves the tools, the catalogue resource and the fix_site prompt
// over Streamable HTTP ([Server.Handler]) and stdio ([Server.ServeStdio]).
// It is safe for concurrent use; the limits of its [Options] hold across
// both transports.
type Server struct {
	opts    Options
	client  *safefetch.Client
	http    *mcp.Server
	stdio   *mcp.Server
	handler http.Handler
	slots   *queue
	callers *callerLimits
	targets *targetLimits
}

// New returns a Server configured by opts (nil means the defaults).
func New(opts *Options) (*Server, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxConcurrent < 0 || o.CallTimeout < 0 || o.MaxRequestBytes < 0 || o.CallerBurst < 0 || o.SessionTimeout < 0 {
		return nil, fmt.Errorf("%w: a negative limit", ErrOptions)
	}
	if o.MaxConcurrent == 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	switch {
	case o.MaxQueued == 0:
		o.MaxQueued = DefaultMaxQueued
	case o.MaxQueued < 0:
		o.MaxQueued = 0
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.MaxRequestBytes == 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.CallerRate == 0 {
		o.CallerRate = DefaultCallerRate
		if o.CallerBurst == 0 {
			o.CallerBurst = DefaultCallerBurst
		}
	}
	if o.CallerBurst == 0 {
		o.CallerBurst = max(1, int(o.CallerRate))
	}
	if o.TargetPerMinute == 0 {
		o.TargetPerMinute = DefaultTargetPerMinute
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{
		opts:    o,
		client:  safefetch.OrDefault(o.Client),
		slots:   newQueue(o.MaxConcurrent, o.MaxQueued),
		callers: newCallerLimits(o.CallerRate, o.CallerBurst, o.Now),
		targets: newTargetLimits(o.TargetPerMinute, o.Now),
	}
	s.http = s.newMCP(true)
	s.stdio = s.newMCP(false)
	sh := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.http }, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes:        o.MaxRequestBytes,
		SessionTimeout:             o.SessionTimeout,
		DisableLocalhostProtection: o.DisableLocalhostProtection,
	})
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if wait, ok := s.callers.allow(s.caller(r)); !ok {
			w.Header().Set("Retry-After", fmt.Sprint(retrySeconds(wait)))
			http.Error(w, fmt.Sprintf("busy: too many requests from this caller; retry after %d s", retrySeconds(wait)), http.StatusTooManyRequests)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, o.MaxRequestBytes)
		sh.ServeHTTP(w, r)
	})
	return s, nil
}

// ErrOptions reports [Options] that cannot be served.
var ErrOptions = errors.New("mcpserver: invalid options")

// Handler returns the MCP Streamable HTTP handler ([MCP transports],
// "Streamable HTTP"). It answers on whatever path it is mounted, for
// example at /mcp of a site's mux. Each caller is rate limited
// (Options.CallerRate) before any JSON-RPC is read, and each body capped
// (Options.MaxRequestBytes).
//
// [MCP transports]: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
func (s *Server) Handler() http.Handler { return s.handler }

// ServeStdio serves one client over newline-delimited JSON-RPC ([MCP
// transports], "stdio"): requests are read from in, answers and
// notifications written to out. It returns when in ends (nil; the calls
// still running are cancelled, as the client is gone), when ctx is done, or
// when a line is longer than Options.MaxRequestBytes or not JSON-RPC (an
// error). Stdio has no per-caller or per-target rate limit;
// the concurrency limit and deadlines of the Server apply.
//
// [MCP transports]: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	t := &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}, MaxLineLength: int(s.opts.MaxRequestBytes)}
	err := s.stdio.Run(ctx, t)
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) && ctx.Err() == nil) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mcpserver: stdio: %w", err)
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// retrySeconds rounds a wait up to whole seconds, at least 1.
func retrySeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(1, s)
}
