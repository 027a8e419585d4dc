package readinesstest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/outsidemod"
)

// TestOutsideModule runs testdata/outside/agentready_test.go as a user's
// own test, in a module of its own that requires this one (replaced by the
// local tree, then go mod tidy), as the README's module program is built:
// Require passes on a kit site, and on a bare one the message, read
// through a testing.TB wrapper, lists the unmet requirements and the fixes.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	src, err := os.ReadFile(filepath.Join("testdata", "outside", "agentready_test.go"))
	require.NoError(t, err)
	m := outsidemod.New(t, filepath.Join("..", ".."))
	m.Write("agentready_test.go", src)
	out, err := m.Go("mod", "tidy")
	require.NoError(t, err, out)
	out, err = m.Go("test", "-count=1", "-v", ".")
	require.NoError(t, err, out)
	assert.Contains(t, out, "--- PASS: TestAgentReady")
	assert.Contains(t, out, "--- PASS: TestBrokenSiteMessage")
	assert.Contains(t, out, "R4 not met (fail)")
	assert.Contains(t, out, "fix first (the fix that adds the most points first):")
}
