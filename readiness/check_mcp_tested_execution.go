package readiness

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/plural"
)

func init() {
	register(checkDef{id: "mcp_tested_execution", needs: []resource{resCards, resPage}, run: checkMCPTestedExecution})
}

// checkMCPTestedExecution: whether an authenticated call to the service's
// tools succeeds is never known from outside, because the scanner holds no
// credentials and never calls an unfamiliar tool (method Section 07, "no perfect
// connection score"). So the check is unverified wherever something
// callable was found (backend_interface_declared passed or is partial), and
// keeps its weight without earning. Where nothing callable was found
// (backend_interface_declared is not applicable or fails), there is nothing
// whose execution could be tested: the check does not apply and leaves the
// denominator, as the method's rule for checks that cannot apply says.
// When backend_interface_declared is itself unverified, so is this check.
func checkMCPTestedExecution(s *scan) outcome {
	b := s.backendRead()
	switch b.verdict {
	case VerdictNotApplicable, VerdictFail:
		return outcome{
			verdict:  VerdictNotApplicable,
			received: "nothing callable was found (backend_interface_declared: " + string(b.verdict) + "), so there is no execution to test",
		}
	case VerdictUnverified:
		return outcome{
			verdict:  VerdictUnverified,
			received: "whether the site offers anything callable is itself unverified (backend_interface_declared)",
			fix:      "The scan could not tell whether the site offers anything callable (see backend_interface_declared): make sure the requests it lists answer within the budget, then scan again.",
		}
	}
	out := outcome{
		verdict:  VerdictUnverified,
		received: "never executed: the scanner holds no credentials and never calls a tool",
	}
	if o := s.mcpRead(); o.isMCP() {
		out.notes = []string{fmt.Sprintf("%s: %s listed without a token; authenticated: unknown (we never sign in)", o.endpoint, plural.N(o.probe.tools, "tool", "tools"))}
	}
	return out
}
