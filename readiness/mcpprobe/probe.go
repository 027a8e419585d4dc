package mcpprobe

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
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
