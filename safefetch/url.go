package safefetch

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentweb/agentweb/internal/weburl"
)

// MaxURLLength is the longest URL CheckURL accepts, in bytes.
const MaxURLLength = 8192

// Rule names of [URLError]. They are stable: callers and reports may
// match on them.
const (
	RuleEmpty          = "empty"                // the URL is the empty string
	RuleTooLong        = "too-long"             // longer than MaxURLLength
	RuleControlChar    = "control-character"    // a byte below 0x20, or 0x7f, anywhere
	RuleBackslash      = "backslash"            // a "\" before the query or fragment
	RuleSyntax         = "syntax"               // net/url cannot parse it
	RuleRelative       = "relative"             // no scheme: a relative reference
	RuleSchemeRelative = "scheme-relative"      // "//host/path"
	RuleScheme         = "scheme"               // not https (nor http to loopback in development mode)
	RuleNoAuthority    = "no-authority"         // "https:host" or "https:/path": no "//" authority
	RuleUserinfo       = "userinfo"             // "user@" or "user:pass@" (any number of "@")
	RuleEmptyHost      = "empty-host"           // "https:///path", "https://:443/"
	RulePercentHost    = "percent-encoded-host" // "%" in the host
	RuleZone           = "zone"                 // an IPv6 zone ("[fe80::1%25eth0]")
	RuleHost           = "host"                 // not a valid host name (IDNA, length, characters)
	RuleSingleLabel    = "single-label-host"    // a name of one label ("intranet"), other than localhost
	RuleNonCanonicalIP = "non-canonical-ip"     // IP-like but not canonical: 127.1, 0x7f.1, 2130706433, 127.0.0.1.
	RuleLocalhost      = "localhost"            // localhost or *.localhost without development mode
	RulePort           = "port"                 // port 0, above 65535, or not a number
	RuleAddress        = "address"              // an IP literal refused by CheckAddr
)

// CheckURL returns nil when rawURL is a URL safefetch may request, and
// otherwise a *[URLError] wrapping [ErrForbiddenURL] whose Rule names the
// rule broken (knowledge-linkset draft Section 7.1, Section 7.2).
//
// A URL is accepted only when it is absolute, with scheme https (in any
// case) and an authority with a host. The argument allowLoopback is the
// development switch of Options.AllowLoopback, to be set by the program
// and never from input. With it, http and https to a loopback host are
// accepted too: an IPv4 literal in 127.0.0.0/8, the literal [::1],
// "localhost" or a name under ".localhost". Without it, those hosts are
// refused. The rest is refused:
//   - other schemes (http elsewhere, file, ftp, data, ws, javascript ...);
//   - relative ("/path") and scheme-relative ("//host/path") references,
//     and "https:host" without "//";
//   - userinfo, including several "@" ("https://a@b@10.0.0.1/");
//   - an empty host, a host with a percent-encoded byte or an IPv6 zone,
//     control characters anywhere, backslashes before the query, a URL
//     longer than [MaxURLLength];
//   - a host that is not a valid DNS name after IDNA mapping (the URL
//     Standard's domain to ASCII, without its hyphen checks), or a
//     single-label name, which a system
//     resolver may complete with a local search domain;
//   - IP-like hosts that are not canonical literals ("127.1", "0x7f.1",
//     "2130706433", "0177.0.0.1", "127.000.000.001", "127.0.0.1." or
//     full-width digits), so that they never reach a resolver that would
//     read them as addresses;
//   - IP literals refused by [CheckAddr];
//   - ports 0, above 65535 or not a decimal number. Other ports are
//     accepted; ":443" on https (":80" on http) is the same URL as none.
//
// CheckURL does not resolve names: a name is checked again, address by
// address, when a Client connects.
func CheckURL(rawURL string, allowLoopback bool) error {
	if _, err := parseURL(rawURL, allowLoopback); err != nil {
		return err
	}
	return nil
}

// NormalizeURL checks rawURL as [CheckURL] does and returns it in the
// canonical form a Client requests. The scheme is lower case, and the host
// normalized by IDNA (lower case, A-labels, no trailing dot). IPv6
// literals are in canonical form. The default port is dropped, so
// "https://example.com:443/a" and "https://EXAMPLE.com/a" both give
// "https://example.com/a". The fragment is dropped: it is never sent. Path
// and query are kept as net/url escapes them.
func NormalizeURL(rawURL string, allowLoopback bool) (string, error) {
	u, err := parseURL(rawURL, allowLoopback)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// parseURL applies the rules of CheckURL and returns the normalized URL.
// The *URLError is returned as an error interface only when non-nil.
func parseURL(raw string, allowLoopback bool) (*url.URL, error) {
	refuse := func(rule, reason string) (*url.URL, error) {
		return nil, &URLError{URL: weburl.Redact(raw), Rule: rule, Reason: reason}
	}
	switch {
	case raw == "":
		return refuse(RuleEmpty, "the URL is empty")
	case len(raw) > MaxURLLength:
		return refuse(RuleTooLong, "the URL is longer than "+strconv.Itoa(MaxURLLength)+" bytes")
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 0x20 || c == 0x7f {
			return refuse(RuleControlChar, "control character "+strconv.QuoteRune(rune(c))+" at byte "+strconv.Itoa(i))
		}
	}
	beforeQuery := raw
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		beforeQuery = raw[:i]
	}
	if strings.IndexByte(beforeQuery, '\\') >= 0 {
		return refuse(RuleBackslash, `a backslash before the query, which browsers read as "/" and net/url does not`)
	}
	if strings.HasPrefix(raw, "//") {
		return refuse(RuleSchemeRelative, "a scheme-relative reference; an absolute https URL is required")
	}
	// Name userinfo and percent-encoded hosts before parsing: net/url
	// decodes some percent-encoded hosts and refuses others with a syntax
	// error.
	if authority, ok := weburl.RawAuthority(raw); ok {
		if scheme := strings.ToLower(raw[:strings.Index(raw, ":")]); scheme != "https" && scheme != "http" {
			return refuse(RuleScheme, "scheme "+strconv.Quote(raw[:len(scheme)])+" is not fetched; only https is")
		}
		if strings.IndexByte(authority, '@') >= 0 {
			return refuse(RuleUserinfo, "the URL carries userinfo (\"user@\"), which is never sent")
		}
		if strings.IndexByte(authority, '%') >= 0 {
			if strings.HasPrefix(authority, "[") {
				return refuse(RuleZone, "an IPv6 zone names a local interface, never a fetch target")
			}
			return refuse(RulePercentHost, "the host is percent-encoded")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return refuse(RuleSyntax, "not a URL: "+err.Error())
	}
	if u.Scheme == "" {
		return refuse(RuleRelative, "a relative reference; an absolute https URL is required")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return refuse(RuleScheme, "scheme "+strconv.Quote(u.Scheme)+" is not fetched; only https is")
	}
	rest := raw[len(u.Scheme)+1:]
	if u.Opaque != "" || !strings.HasPrefix(rest, "//") {
		return refuse(RuleNoAuthority, "no \"//\" authority after the scheme")
	}
	authority, _ := weburl.RawAuthority(raw)
	if u.User != nil || strings.IndexByte(authority, '@') >= 0 {
		return refuse(RuleUserinfo, "the URL carries userinfo (\"user@\"), which is never sent")
	}
	if u.Host == "" || u.Hostname() == "" {
		return refuse(RuleEmptyHost, "the host is empty")
	}
	hostname, port := u.Hostname(), u.Port()

	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return refuse(RulePort, "port "+strconv.Quote(port)+" is not in 1-65535")
		}
	}

	loopback := false
	if strings.HasPrefix(u.Host, "[") {
		a, err := netip.ParseAddr(hostname)
		if err != nil || !a.Is6() {
			return refuse(RuleSyntax, "invalid IPv6 literal "+strconv.Quote(hostname))
		}
		if a.Zone() != "" {
			return refuse(RuleZone, "an IPv6 zone names a local interface, never a fetch target")
		}
		loopback = a == netip.IPv6Loopback()
		if !(loopback && allowLoopback) {
			if err := CheckAddr(a); err != nil {
				return refuse(RuleAddress, addrReason(err))
			}
		}
	} else if a, err := netip.ParseAddr(hostname); err == nil && a.Is4() {
		loopback = a.IsLoopback()
		if !(loopback && allowLoopback) {
			if err := CheckAddr(a); err != nil {
				return refuse(RuleAddress, addrReason(err))
			}
		}
	} else {
		name, err := weburl.NormalizeHost(hostname)
		switch {
		case errors.Is(err, weburl.ErrNonCanonicalIP):
			return refuse(RuleNonCanonicalIP, "host "+strconv.Quote(hostname)+" reads as an IPv4 address but is not a canonical dotted-decimal literal")
		case err != nil:
			return refuse(RuleHost, "host "+strconv.Quote(hostname)+" is not a valid DNS name")
		}
		loopback = name == "localhost" || strings.HasSuffix(name, ".localhost")
		switch {
		case loopback && !allowLoopback:
			return refuse(RuleLocalhost, "host "+strconv.Quote(name)+" is loopback (RFC 6761 §6.3), allowed only in development mode")
		case !loopback && strings.IndexByte(name, '.') < 0:
			return refuse(RuleSingleLabel, "host "+strconv.Quote(name)+" has a single label, which a resolver may complete with a local search domain")
		}
	}
	if scheme == "http" && !(loopback && allowLoopback) {
		return refuse(RuleScheme, "scheme \"http\" is allowed only to loopback in development mode; use https")
	}

	// The policy is checked; the normal form is the one of every other
	// entry point of the module.
	n, err := weburl.NormalizeURL(u)
	if err != nil {
		return refuse(RuleHost, err.Error())
	}
	return n, nil
}

// addrReason gives the reason of a CheckAddr refusal for a URLError.
func addrReason(err error) string {
	var ae *AddrError
	if errors.As(err, &ae) {
		return ae.Addr.String() + " is in " + ae.Block.String() + " (" + ae.Name + "): " + ae.Reason
	}
	return err.Error()
}
