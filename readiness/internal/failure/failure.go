// Package failure names a failed fetch in the few words the scanner's
// receipts and the MCP probe's receipts both use, so that the two say the
// same thing about the same failure.
package failure

import (
	"context"
	"errors"

	"github.com/agentweb/agentweb/safefetch"
)

// kinds are the failures named, most specific first: a budget that ran out
// while a request timed out is named for the budget's deadline it hit.
var kinds = []struct {
	errs []error
	name string
}{
	{[]error{safefetch.ErrTimeout, context.DeadlineExceeded}, "timeout"},
	{[]error{safefetch.ErrTooManyRedirects}, "a redirect that never ends"},
	{[]error{safefetch.ErrRedirectRefused}, "redirect refused"},
	{[]error{safefetch.ErrBudgetExhausted}, "scan budget exhausted"},
	{[]error{safefetch.ErrTooLarge}, "response too large"},
	{[]error{safefetch.ErrForbiddenURL, safefetch.ErrForbiddenAddress}, "refused by the fetch policy"},
	{[]error{safefetch.ErrDNS}, "DNS failed"},
	{[]error{context.Canceled}, "cancelled"},
}

// Kind names err in a few words ("timeout", "refused by the fetch policy",
// ...), or returns "" when err wraps none of the failures safefetch and
// context name; the caller then says what it knows.
func Kind(err error) string {
	if err == nil {
		return ""
	}
	for _, k := range kinds {
		for _, e := range k.errs {
			if errors.Is(err, e) {
				return k.name
			}
		}
	}
	return ""
}
