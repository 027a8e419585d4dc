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

// The protocol versions the probe implements, newest first. 2026-07-28 is
// the stateless version, with server/discover.
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

// Defaults of [Options], and the probe's one size cap.
const (
	// DefaultTimeout bounds a whole probe, sign-in discovery included.
	DefaultTimeout = 15 * time.Second
	// DefaultMaxToolPages is how many pages of tools/list a probe reads.
	DefaultMaxToolPages = 5
	// MaxBodyBytes caps every response body (and SSE event) of the probe.
	MaxBodyBytes = 256 << 10
)

// ErrInvalidEndpoint is returned by [Probe] for an endpoint that is not an
// absolute http or https URL. Every other failure is in the receipt.
var ErrInvalidEndpoint = errors.New("mcpprobe: invalid endpoint")

// Options configures [Probe]. The zero value is safe: the shared
// [safefetch.Default] client, [LatestVersion] offered first,
// [DefaultTimeout] and [DefaultMaxToolPages].
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
	// Client. It serves a caller that shares one fetch per URL among its
	// own readers, such as a scanner that reads the same metadata elsewhere.
	// It must honour ctx and apply the same address policy as Client.
	Get func(ctx context.Context, url string) (*safefetch.Response, error)
	// DiscoverSignIn runs sign-in discovery even when no request is
	// answered 401. It serves a caller that knows from elsewhere, such as a
	// capability card, that the endpoint needs a token.
	DiscoverSignIn bool
}

// client is the Client of a probe: o.Client, or safefetch.Default() when it
// is nil.
func (o *Options) client() *safefetch.Client { return safefetch.OrDefault(o.Client) }

// Probe speaks MCP Streamable HTTP to endpoint with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk). Every request goes through the
// safefetch client, behind a round-tripper that records it and caps its
// size. Probe offers the latest version it implements and negotiates down
// ([MCP lifecycle 2025-11-25], "Version Negotiation"). It sends 2026-07-28's
// stateless server/discover first, then initialize offering 2025-11-25. It
// accepts the version the server returns when it implements that version.
// Then come notifications/initialized and tools/list without a token, at
// most MaxToolPages pages. Probe declares no client capability, because it
// serves no roots, sampling or elicitation. It never calls a tool and never
// signs in.
//
// The endpoint is normalized first: lower-case scheme and host, IDNA
// A-labels, no trailing dot, no default port, no fragment. The receipt
// states that URL, and every identifier is compared with it.
//
// Sign-in discovery runs when a request answers 401, or when
// Options.DiscoverSignIn is set. It follows the negotiated version's rules
// ([MCP authorization 2025-11-25]), which the package doc lists. When the
// 401 came before any version was negotiated, the receipt says so, and the
// 2025-11-25 rules, which find the most, are applied.
//
// Auth.Rules names the version whose rules were applied. Each Document
// names the earliest version whose authorization rules include the step
// that asked for it. So after a 401 before any version, the challenge's
// resource_metadata is labelled 2025-06-18, where that step first appears
// ([MCP authorization 2025-06-18]). That holds although the 2025-11-25 rules
// were applied. The well-known URIs of protected resource metadata appear
// in 2025-11-25 and are labelled so.
//
// A session that fails on a transport error because a pooled connection
// was closed is run once more. Probe returns an error only for an invalid
// endpoint, or for one the client's policy refuses before any connection.
// That error wraps [safefetch.ErrForbiddenURL] or
// [safefetch.ErrForbiddenAddress], as [safefetch.Client.CheckURL] gives it,
// with userinfo redacted. Every network failure is in the receipt, as
// OutcomeUnanswered or in a Document, with its URL and reason.
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
	c := o.client()
	if err := c.CheckURL(ctx, endpoint); errors.Is(err, safefetch.ErrForbiddenURL) || errors.Is(err, safefetch.ErrForbiddenAddress) {
		// A URL the client's policy refuses is an error here, as at every
		// other entry point of the module, never a receipt. A name that
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
