package refusal

import (
	"context"
	"errors"

	"github.com/agentweb/agentweb/safefetch"
)

// Kind names err in the few words the scanner's and the MCP probe's
// receipts both use ("timeout", "refused by the fetch policy: <reason>",
// ...), or returns "" when err wraps none of the failures safefetch and
// context name; the caller then says what it knows. The failures are
// tried most specific first: a request whose deadline passed is a timeout
// even when the budget ran out with it.
func Kind(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, safefetch.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, safefetch.ErrTooManyRedirects):
		return "a redirect that never ends"
	case errors.Is(err, safefetch.ErrRedirectRefused):
		if r := Reason(err); r != "" {
			return "redirect refused: " + r
		}
		return "redirect refused"
	case errors.Is(err, safefetch.ErrBudgetExhausted):
		return "scan budget exhausted"
	case errors.Is(err, safefetch.ErrTooLarge):
		return "response too large"
	case errors.Is(err, safefetch.ErrForbiddenURL), errors.Is(err, safefetch.ErrForbiddenAddress):
		return Policy(err)
	case errors.Is(err, safefetch.ErrDNS):
		return "DNS failed"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return ""
}
