package readiness

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/webread"
)

// describeToolsPolicy says what a Permissions-Policy tools member means,
// for receipts.
func describeToolsPolicy(p webread.ToolsPolicy) string {
	switch p.Kind {
	case webread.ToolsPolicySelf:
		if len(p.Origins) > 0 {
			return fmt.Sprintf("%s: the page's own origin and %d more", p.Member, len(p.Origins))
		}
		return p.Member + ": the page's own origin"
	case webread.ToolsPolicyAll:
		return p.Member + ": every origin, frames of other sites included"
	case webread.ToolsPolicyNone:
		if len(p.Origins) > 0 {
			return p.Member + ": other origins only, not the page's own"
		}
		return p.Member + ": tools disabled"
	}
	if p.Invalid != nil {
		return "a Permissions-Policy header that is not a structured-field dictionary (browsers ignore it): the default allowlist 'self' applies"
	}
	return "no tools entry: the default allowlist 'self' applies"
}
