package safefetch

import (
	"net/http"
	"net/netip"
	"time"
)

// Response is the result of a call, with the evidence of how it was
// obtained: what was asked, where the answer came from and by which path.
// Audit reports and readiness receipts print it.
type Response struct {
	Method        string         // the request method of the call
	URL           string         // the declared URL, as given; never replaced by the final URL (draft Section 7.1)
	FinalURL      string         // the URL of the last hop, after redirects
	StatusCode    int            // of the final hop; a non-2xx status is not an error
	Proto         string         // of the final hop: "HTTP/1.1" or "HTTP/2.0"
	Header        http.Header    // of the final hop
	Body          []byte         // at most the cap; nil for HEAD and on ErrTooLarge
	RemoteAddr    netip.AddrPort // of the connection that served the final hop
	Redirects     []string       // every Location followed, resolved, in order
	Hops          []Hop          // one per request made: the redirect hops, then the final one
	RequestHeader http.Header    // the headers the caller set; Authorization, Cookie and Proxy-Authorization values are "[redacted]"
	Started       time.Time      // when the call began
	Elapsed       time.Duration  // from Started to the end of the body read
}

// Hop is one request of a call.
type Hop struct {
	URL        string         // the URL requested
	StatusCode int            // the status answered
	Location   string         // the resolved redirect target followed from this hop, or ""
	RemoteAddr netip.AddrPort // the address of the connection that answered
}

// redacted stands for a credential in evidence.
const redacted = "[redacted]"

// redactHeader returns a copy of h in which credential values are replaced
// by "[redacted]" (one per value, so that their count is still visible).
func redactHeader(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := h.Clone()
	for k, vs := range out {
		if isSensitive(k) {
			r := make([]string, len(vs))
			for i := range r {
				r[i] = redacted
			}
			out[k] = r
		}
	}
	return out
}

// isSensitive reports whether the header named k (in any case) carries a
// credential.
func isSensitive(k string) bool {
	k = http.CanonicalHeaderKey(k)
	for _, s := range sensitiveHeaders {
		if k == s {
			return true
		}
	}
	return false
}
