// Package apisurface holds the test that records the module's exported
// surface. That is every exported constant, variable, type, function and
// method of every public package. It records them one per line, in the
// file .ci/api.txt at the repository root. The test fails when the surface
// changes without that record changing with it. Run it with -update to
// record a change on purpose. It also fails when a public package exports
// more than [MaxExported] identifiers, not counting the Rule… constants of
// the rule vocabulary.
//
// CI also runs golang.org/x/exp/cmd/apidiff against .ci/api.export, which
// classifies a change as compatible or not; this listing is the part a
// reviewer reads.
package apisurface

// MaxExported is the most exported identifiers a public package may have,
// the Rule… constants of its rule vocabulary not counted.
const MaxExported = 100
