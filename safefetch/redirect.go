package safefetch

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// isRedirect reports whether code is a redirect that carries a Location to
// follow (RFC 9110 Section 15.4). 300 and 304 are returned as responses.
func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// nextHop decides whether resp, the answer to a request for cur, is a redirect
// to follow, and checks it. The knowledge-linkset draft Section 7.1 says:
// bound the redirects, re-apply the rules to every hop. And never follow to a
// non-https URL outside the development loopback case. followed is how many
// redirects the call has already followed and max how many it may follow
// (negative: none). The address rules are applied when the hop is requested.
func (c *Client) nextHop(cur *url.URL, resp *http.Response, followed, max int) (*url.URL, bool, error) {
	if !isRedirect(resp.StatusCode) || max < 0 {
		return nil, false, nil
	}
	locs := resp.Header.Values("Location")
	if len(locs) == 0 {
		return nil, false, nil // a redirect status without a Location is the response
	}
	next, err := checkLocation(cur, locs, c.opts.AllowLoopback, c.redirect)
	if err != nil {
		return nil, false, err
	}
	if followed >= max {
		return nil, false, fmt.Errorf("%w: %s redirects to %s after %d redirects (at most %d are followed)",
			ErrTooManyRedirects, cur.Redacted(), next.Redacted(), followed, max)
	}
	return next, true, nil
}

// checkLocation resolves the Location values of a redirect from cur and
// applies the hop rules. They want exactly one non-empty Location, and a
// target that passes CheckURL. They refuse an https->http downgrade
// outside development mode, and apply the policy, if any. Every refusal
// wraps ErrRedirectRefused.
func checkLocation(cur *url.URL, locs []string, allowLoopback bool, policy RedirectPolicy) (*url.URL, error) {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrRedirectRefused, cur.Redacted(), fmt.Sprintf(format, args...))
	}
	if len(locs) > 1 {
		return nil, refuse("%d Location headers (exactly one is followed)", len(locs))
	}
	loc := locs[0]
	if strings.TrimSpace(loc) == "" {
		return nil, refuse("empty Location")
	}
	ref, err := url.Parse(loc)
	if err != nil {
		return nil, refuse("Location %q is not a URL reference", loc)
	}
	resolved := cur.ResolveReference(ref)
	norm, err := NormalizeURL(resolved.String(), allowLoopback)
	if err != nil {
		return nil, redirectURLErr(fmt.Sprintf("%s to %q", cur.Redacted(), loc), err)
	}
	next, err := url.Parse(norm)
	if err != nil {
		return nil, refuse("Location %q: %v", loc, err)
	}
	if strings.EqualFold(cur.Scheme, "https") && !strings.EqualFold(next.Scheme, "https") && !allowLoopback {
		return nil, refuse("%s downgrades https to %s", next.Redacted(), next.Scheme)
	}
	if policy != nil {
		if err := policy(cur, next); err != nil {
			return nil, fmt.Errorf("%w: %s to %s: %w", ErrRedirectRefused, cur.Redacted(), next.Redacted(), unprefix(err))
		}
	}
	return next, nil
}

// unprefix keeps err's identity while dropping a leading "safefetch: " from
// its message, so that wrapped messages read once.
func unprefix(err error) error {
	if msg := err.Error(); strings.HasPrefix(msg, "safefetch: ") {
		return &plainError{msg: strings.TrimPrefix(msg, "safefetch: "), err: err}
	}
	return err
}

type plainError struct {
	msg string
	err error
}

func (e *plainError) Error() string { return e.msg }
func (e *plainError) Unwrap() error { return e.err }

// sensitiveHeaders are dropped when a redirect leaves the host, and redacted
// in evidence.
var sensitiveHeaders = [...]string{"Authorization", "Cookie", "Proxy-Authorization"}

// redirectRequest returns the method, header and body of the request that
// follows a redirect with status code from cur to next (RFC 9110 Section 15.4).
// A 301 or 302 turns POST into GET, and a 303 everything but HEAD. A 307 or 308
// keeps the method and body. Credentials never leave the host.
func redirectRequest(code int, method string, header http.Header, body []byte, cur, next *url.URL) (string, http.Header, []byte) {
	switch {
	case code == http.StatusSeeOther && method != http.MethodHead,
		(code == http.StatusMovedPermanently || code == http.StatusFound) && method == http.MethodPost:
		method, body = http.MethodGet, nil
		if header != nil {
			header = header.Clone()
			header.Del("Content-Type")
			header.Del("Content-Length")
		}
	}
	if header != nil && !strings.EqualFold(cur.Host, next.Host) {
		header = header.Clone()
		for k := range header {
			if isSensitive(k) {
				delete(header, k)
			}
		}
	}
	return method, header, body
}
