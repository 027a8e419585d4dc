package refusal

import (
	"context"
	"errors"

	"github.com/agentweb/agentweb/safefetch"
)

// Class is the kind of a failure that safefetch or a context reports. It is
// the one classification the receipts' words ([Kind]) and the browser's
// network errors are built from.
type Class int

// The classes, in the order [Classify] tries them: most specific first.
const (
	Other           Class = iota // no error, or none of the failures below
	Timeout                      // safefetch.ErrTimeout or a passed deadline
	RedirectLoop                 // safefetch.ErrTooManyRedirects
	RedirectRefused              // safefetch.ErrRedirectRefused
	BudgetExhausted              // safefetch.ErrBudgetExhausted
	TooLarge                     // safefetch.ErrTooLarge
	Forbidden                    // safefetch.ErrForbiddenURL or ErrForbiddenAddress
	DNS                          // safefetch.ErrDNS
	Canceled                     // context.Canceled
)

// Classify returns the class of err. A request whose deadline passed is a
// [Timeout] even when the budget ran out with it.
func Classify(err error) Class {
	switch {
	case err == nil:
		return Other
	case errors.Is(err, safefetch.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return Timeout
	case errors.Is(err, safefetch.ErrTooManyRedirects):
		return RedirectLoop
	case errors.Is(err, safefetch.ErrRedirectRefused):
		return RedirectRefused
	case errors.Is(err, safefetch.ErrBudgetExhausted):
		return BudgetExhausted
	case errors.Is(err, safefetch.ErrTooLarge):
		return TooLarge
	case errors.Is(err, safefetch.ErrForbiddenURL), errors.Is(err, safefetch.ErrForbiddenAddress):
		return Forbidden
	case errors.Is(err, safefetch.ErrDNS):
		return DNS
	case errors.Is(err, context.Canceled):
		return Canceled
	}
	return Other
}

// Kind names err in the few words the scanner's and the MCP probe's
// receipts both use ("timeout", "refused by the fetch policy: <reason>").
// It returns "" for the class [Other]; the caller then says what it knows.
func Kind(err error) string {
	switch Classify(err) {
	case Timeout:
		return "timeout"
	case RedirectLoop:
		return "a redirect that never ends"
	case RedirectRefused:
		if r := Reason(err); r != "" {
			return "redirect refused: " + r
		}
		return "redirect refused"
	case BudgetExhausted:
		return "scan budget exhausted"
	case TooLarge:
		return "response too large"
	case Forbidden:
		return Policy(err)
	case DNS:
		return "DNS failed"
	case Canceled:
		return "cancelled"
	}
	return ""
}
