package refusal

import "net/http"

// Refused reports whether an HTTP status is a refusal or a failure, not an
// answer: 403, 407, 408, 425, 429 and every 5xx. The agent-readiness
// method's Section 06 rule is "an answer or a refusal": a check that met one
// of these is unverified, never a pass and never a fail.
//
// 401 is not in the set. The MCP probe and the MCP checks judge a Bearer
// challenge themselves; every other read of the scanner uses [Answered].
func Refused(status int) bool {
	switch {
	case status == http.StatusForbidden,
		status == http.StatusProxyAuthRequired,
		status == http.StatusRequestTimeout,
		status == http.StatusTooEarly,
		status == http.StatusTooManyRequests,
		status >= 500:
		return true
	}
	return false
}

// Answered reports whether a status is an answer a check can judge: neither
// 401 nor [Refused].
func Answered(status int) bool {
	return status != http.StatusUnauthorized && !Refused(status)
}
