package safefetch

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/shorten"
)

// Sentinel errors. Every error a [Client] returns for a refusal or a bound
// wraps exactly one of them, so callers branch with [errors.Is]. The typed
// errors [URLError], [AddrError] and [BudgetError] carry the details, and
// are reached with [errors.As]. A redirect whose Location fails [CheckURL]
// is [ErrRedirectRefused], not [ErrForbiddenURL]: the redirect is what was
// refused, and the *URLError that says why is still reached with errors.As.
// A hop whose host resolves to a refused address is [ErrForbiddenAddress]. A
// failure of the network itself (a reset, a connection or body cut short, a
// TLS error) wraps none of them: the cause (for example io.ErrUnexpectedEOF)
// is in the chain.
var (
	// ErrForbiddenURL reports a URL refused by CheckURL: a scheme other
	// than https (or http to loopback in development mode), a relative
	// reference, userinfo, a bad host or port (knowledge-linkset draft
	// Section 7.1). The *URLError that wraps it names the rule.
	ErrForbiddenURL = errors.New("safefetch: forbidden url")

	// ErrForbiddenAddress reports an address refused by CheckAddr (not
	// globally reachable unicast under the IANA special-purpose
	// registries), or a loopback address without Options.AllowLoopback
	// (draft Section 7.1, Section 9.2). The *AddrError that wraps it names the block.
	ErrForbiddenAddress = errors.New("safefetch: forbidden address")

	// ErrDNS reports a resolution that failed closed: NXDOMAIN, SERVFAIL,
	// an empty answer or a DNS time-out.
	ErrDNS = errors.New("safefetch: dns resolution failed")

	// ErrTooLarge reports a response body over MaxBodyBytes, or response
	// headers over MaxHeaderBytes (informational 1xx responses counted
	// with them), over HTTP/1.1 or HTTP/2.
	ErrTooLarge = errors.New("safefetch: response too large")

	// ErrTooManyRedirects reports more than MaxRedirects redirect hops.
	ErrTooManyRedirects = errors.New("safefetch: too many redirects")

	// ErrRedirectRefused reports a redirect hop that the RedirectPolicy, or
	// CheckURL applied to its Location, refused.
	ErrRedirectRefused = errors.New("safefetch: redirect refused")

	// ErrBudgetExhausted reports that the shared Budget ran out of
	// attempts, bytes or time. The *BudgetError that wraps it says which.
	ErrBudgetExhausted = errors.New("safefetch: budget exhausted")

	// ErrTimeout reports that the per-call Timeout elapsed during DNS,
	// connect, TLS handshake, headers or body, through [Client.Do] and
	// [Client.HTTPClient] alike.
	ErrTimeout = errors.New("safefetch: timeout")

	// ErrContentEncoding reports a response with a content coding that
	// was not asked for and cannot be decoded under the body cap.
	ErrContentEncoding = errors.New("safefetch: unexpected content encoding")
)

// maxErrorURL bounds how much of a refused URL an error message repeats;
// the URLError.URL field keeps it whole.
const maxErrorURL = 256

// URLError reports why CheckURL refused a URL. It wraps [ErrForbiddenURL].
type URLError struct {
	// URL is the URL as given, with any userinfo password redacted.
	URL string
	// Rule is a stable, machine-readable rule name, one of the RuleXxx
	// constants (for example "scheme", "userinfo", "port").
	Rule string
	// Reason is a sentence for people saying what is wrong.
	Reason string
}

// Error returns "safefetch: url "…" refused (rule): reason", with a long
// URL shortened.
func (e *URLError) Error() string {
	u := e.URL
	u = shorten.Bytes(u, maxErrorURL)
	return "safefetch: url " + strconv.Quote(u) + " refused (" + e.Rule + "): " + e.Reason
}

// Unwrap returns [ErrForbiddenURL].
func (e *URLError) Unwrap() error { return ErrForbiddenURL }

// Is reports whether target is [ErrForbiddenAddress] and the URL was
// refused for the address it names: an IP literal [CheckAddr] refuses
// ([RuleAddress]) or a loopback name ([RuleLocalhost]). So
// errors.Is(err, ErrForbiddenAddress) holds for "https://127.0.0.1/" as for
// a name that resolves to 127.0.0.1: one test for a refused address,
// whether the URL or the resolver named it.
func (e *URLError) Is(target error) bool {
	return target == ErrForbiddenAddress && (e.Rule == RuleAddress || e.Rule == RuleLocalhost)
}

// AddrError reports why CheckAddr (or a client connecting to a host) refused
// an address. It wraps [ErrForbiddenAddress].
type AddrError struct {
	// Host is the host name whose resolution gave Addr; empty when the
	// address was checked on its own.
	Host string
	// Addr is the refused address, exactly as checked.
	Addr netip.Addr
	// Block is the registry block (or other refused range) that decided;
	// for an IPv6 address judged by the IPv4 address it embeds, it is the
	// IPv4 block when that one refused it. The zero Prefix when no block
	// applies (an invalid address).
	Block netip.Prefix
	// Name is the block's name as in the IANA registry (for example
	// "Private-Use" or "IPv4-mapped Address").
	Name string
	// Reason is a sentence for people saying why the block is refused,
	// with the RFC that defines it and any embedded IPv4 address.
	Reason string
}

// Error returns "safefetch: address A [of host "h"] refused: block (name): reason".
func (e *AddrError) Error() string {
	s := "safefetch: address " + e.Addr.String()
	if e.Host != "" {
		s += " of host " + strconv.Quote(e.Host)
	}
	s += " refused: "
	if e.Block.IsValid() {
		s += e.Block.String() + " "
	}
	return s + "(" + e.Name + "): " + e.Reason
}

// Unwrap returns [ErrForbiddenAddress].
func (e *AddrError) Unwrap() error { return ErrForbiddenAddress }

// BudgetError reports which resource of a shared Budget ran out. It wraps
// [ErrBudgetExhausted].
type BudgetError struct {
	// Resource is "attempts", "bytes" or "deadline".
	Resource string
	// Limit is the budget's limit for that resource: a count of attempts,
	// a number of bytes, or the deadline's duration in nanoseconds.
	Limit int64
}

// Error returns "safefetch: budget exhausted: resource (limit N)", the
// deadline's limit written as a duration.
func (e *BudgetError) Error() string {
	if e.Resource == "deadline" {
		return fmt.Sprintf("safefetch: budget exhausted: %s (limit %s)", e.Resource, time.Duration(e.Limit))
	}
	return fmt.Sprintf("safefetch: budget exhausted: %s (limit %d)", e.Resource, e.Limit)
}

// Unwrap returns [ErrBudgetExhausted].
func (e *BudgetError) Unwrap() error { return ErrBudgetExhausted }

// redirectURLError is a redirect refused because its Location failed
// CheckURL. It wraps [ErrRedirectRefused] alone, and gives its *URLError to
// errors.As.
type redirectURLError struct {
	msg string
	url *URLError
}

// redirectURLErr refuses the redirect described by what (its origin and
// Location) for err, the CheckURL refusal of its target.
func redirectURLErr(what string, err error) error {
	var ue *URLError
	if !errors.As(err, &ue) {
		return fmt.Errorf("%w: %s: %w", ErrRedirectRefused, what, unprefix(err))
	}
	return &redirectURLError{msg: ErrRedirectRefused.Error() + ": " + what + ": " + strings.TrimPrefix(ue.Error(), "safefetch: "), url: ue}
}

func (e *redirectURLError) Error() string { return e.msg }
func (e *redirectURLError) Unwrap() error { return ErrRedirectRefused }

// As gives the *URLError to errors.As without putting [ErrForbiddenURL] in
// the chain.
func (e *redirectURLError) As(target any) bool {
	if p, ok := target.(**URLError); ok {
		*p = e.url
		return true
	}
	return false
}
