package safefetch

import (
	"fmt"
	"net/url"

	"github.com/agentweb/agentweb/internal/weburl"
)

// RedirectPolicy decides whether a Client follows one redirect hop from the
// URL that answered with a 3xx to the URL its Location header names
// (already resolved against from). A non-nil error refuses the hop; the
// Client then returns an error wrapping both [ErrRedirectRefused] and this
// error. The policy runs after CheckURL has accepted to, and before to is
// resolved or connected to; it must not modify from or to.
type RedirectPolicy func(from, to *url.URL) error

// SameOriginOrWWW is a [RedirectPolicy] that follows a hop only to the same
// origin, or for https to the exact www/non-www counterpart of the origin's
// host on the same port. An origin is scheme, host and port (RFC 6454 Section
// 4), compared after normalization with the default port dropped.
// "https://example.com" may redirect to "https://www.example.com/" and back.
// "www.co.uk", "www.www.example.com", another subdomain, another port or
// scheme, and a downgrade to http are refused. The registrable domain is
// decided with the Public Suffix List, as the agentic site profile's discovery
// rules and the knowledge-linkset draft Section 7.2 ask for redirects that stay
// with the publisher.
func SameOriginOrWWW(from, to *url.URL) error {
	fo, err := weburl.Origin(from)
	if err != nil {
		return fmt.Errorf("safefetch: redirect from an unusable origin: %w", err)
	}
	to2, err := weburl.Origin(to)
	if err != nil {
		return fmt.Errorf("safefetch: redirect to an unusable origin: %w", err)
	}
	if fo == to2 {
		return nil
	}
	fs, fhost, fport := splitOrigin(fo)
	ts, thost, tport := splitOrigin(to2)
	switch {
	case fs != ts:
		return fmt.Errorf("safefetch: redirect from %s to %s changes the scheme", fo, to2)
	case fport != tport:
		return fmt.Errorf("safefetch: redirect from %s to %s changes the port", fo, to2)
	case fs != "https":
		return fmt.Errorf("safefetch: redirect from %s to %s leaves the origin", fo, to2)
	case !weburl.IsWWWCounterpart(fhost, thost):
		return fmt.Errorf("safefetch: redirect from %s to %s is neither the same origin nor its www counterpart", fo, to2)
	}
	return nil
}

// splitOrigin splits a serialized origin from weburl.Origin into scheme,
// host and port ("" for the default port).
func splitOrigin(o string) (scheme, host, port string) {
	u, err := url.Parse(o)
	if err != nil {
		return "", o, ""
	}
	return u.Scheme, u.Hostname(), u.Port()
}
