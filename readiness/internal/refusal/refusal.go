// Package refusal holds the scanner's words for a failed read, in one place.
// [Refused] and [Answered] are the status set of the agent-readiness method's
// Section 06 rule, "an answer or a refusal". [Classify] sorts safefetch's and
// the context's failures; [Kind] words them for receipts. [Reason] and
// [Policy] keep the reason of a policy refusal, which a short word would
// drop.
package refusal

import (
	"errors"
	"strconv"

	"github.com/agentweb/agentweb/safefetch"
)

// Reason returns why safefetch refused err's URL or address, as a clause
// ("scheme \"http\" is allowed only to loopback in development mode",
// "address 10.0.0.7 of host \"intranet.example\" is Private-Use: ..."),
// or "" when err is not such a refusal.
func Reason(err error) string {
	var ue *safefetch.URLError
	if errors.As(err, &ue) {
		return ue.Reason
	}
	var ae *safefetch.AddrError
	if errors.As(err, &ae) {
		s := "address " + ae.Addr.String()
		if ae.Host != "" {
			s += " of host " + strconv.Quote(ae.Host)
		}
		if ae.Name != "" {
			s += " is " + ae.Name
		}
		if ae.Reason != "" {
			s += ": " + ae.Reason
		}
		return s
	}
	return ""
}

// Policy returns "refused by the fetch policy", followed by the Reason
// when err carries one.
func Policy(err error) string {
	if r := Reason(err); r != "" {
		return "refused by the fetch policy: " + r
	}
	return "refused by the fetch policy"
}
