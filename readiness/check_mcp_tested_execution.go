package readiness

import "fmt"

func init() {
	register(checkDef{id: "mcp_tested_execution", run: checkMCPTestedExecution})
}

// checkMCPTestedExecution is always unverified: the scanner holds no
// credentials for the service and never calls an unfamiliar tool, so whether
// an authenticated call succeeds is never known from outside (method §07,
// "no perfect connection score"). It keeps its weight, earns nothing, and is
// never held against the site as a fail.
func checkMCPTestedExecution(s *scan) outcome {
	out := outcome{
		verdict:  VerdictUnverified,
		received: "never executed: the scanner holds no credentials and never calls a tool",
	}
	if o := s.mcpObs(); o.isMCP() {
		out.notes = []string{fmt.Sprintf("%s: %d tool(s) listed without a token; authenticated: unknown (we never sign in)", o.endpoint, o.probe.tools)}
	}
	return out
}
