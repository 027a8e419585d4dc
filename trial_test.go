package agentweb_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/outsidemod"
)

// The second new-user trial passes end to end in a module of a user's own
// (testdata/trial/main.go.txt): a site whose handlers set no Content-Type,
// with a product page's own JSON-LD and a 33-character contact page,
// wrapped by the kit on http://127.0.0.1 with the OpenAgent profile, the
// knowledge link set and the agent-signup document (the Agentic Site
// Profile cannot be valid on a development origin, so the kit leaves it
// out), serves each document and scans READY; and a batch of 30 such kit
// sites is all READY.
func TestTrialScenarioInOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	src, err := os.ReadFile("testdata/trial/main.go.txt")
	require.NoError(t, err)
	m := outsidemod.New(t, ".")
	m.Write("main.go", src)
	out, err := m.Go("mod", "tidy")
	require.NoError(t, err, out)
	out, err = m.Go("run", ".")
	require.NoError(t, err, out)
	for _, doc := range []string{"/.well-known/openagent.json 200", "/.well-known/knowledge-linkset 200", "/.well-known/agent-signup.json 200"} {
		assert.Contains(t, out, doc+"\n")
	}
	assert.Contains(t, out, "ready=true", out)
	assert.Contains(t, out, "batch: 30/30 ready\n", out)
	assert.NotContains(t, strings.ToLower(out), "not ready")
}

// The README's way to run the scanner's command from a user's own module
// works: a tool directive (what "go get -tool" writes), go mod tidy, then
// go tool readiness.
func TestCommandRunsAsAToolOfYourModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	for _, step := range []string{"go get -tool github.com/agentweb/agentweb/examples/readiness@latest\ngo mod tidy\ngo tool readiness scan ", "go install github.com/agentweb/agentweb/examples/readiness@latest"} {
		assert.Contains(t, string(readme), step)
	}
	m := outsidemod.New(t, ".")
	gomod, err := os.ReadFile(m.Dir + "/go.mod")
	require.NoError(t, err)
	m.Write("go.mod", append(gomod, "\ntool github.com/agentweb/agentweb/examples/readiness\n"...))
	m.Write("main.go", []byte("package main\n\nfunc main() {}\n"))
	out, err := m.Go("mod", "tidy")
	require.NoError(t, err, out)
	out, err = m.Go("tool", "readiness", "-h")
	require.NoError(t, err, out)
	assert.Contains(t, out, "scan")
}
