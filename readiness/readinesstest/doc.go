// Package readinesstest scans an [http.Handler] for agent readiness from a
// go test, in the manner of net/http/httptest. The handler is served at the
// origin you name, over real HTTPS with a certificate the scan trusts. It
// runs on a fake internet of servers on loopback (package
// github.com/agentweb/agentweb/safefetch/fetchtest). [readiness.Scan] scans
// it before anything is deployed. No peer scanner can scan a handler; a Go
// site is one.
//
// A test of a site built with the publish kit is three lines:
//
//	func TestAgentReady(t *testing.T) {
//		h, _ := site.Handler(pages)
//		r := readinesstest.Scan(t, h, "https://shop.example", nil)
//		readinesstest.Require(t, r, readinesstest.Want{Ready: true, Score: 90})
//	}
//
// [Scan] fails the test only when the scan could not run. [Require] checks
// the report against a [Want] and, when it falls short, fails the test with
// every shortfall at once. It gives the score against the wanted one, each
// unmet requirement with why, and each check that should have passed. Then
// it gives the report's fix-first list with the points each fix adds. Hand
// that list, or [readiness.Report.Prompt], to a coding agent.
package readinesstest
