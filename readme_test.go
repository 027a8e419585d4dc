package agentweb_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/outsidemod"
)

// readmeProgram returns the first Go block of the README's section
// "Use it in your own module".
func readmeProgram(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(readme), "\n## Use it in your own module\n")
	require.True(t, ok, "the README has a section \"Use it in your own module\"")
	section, _, _ = strings.Cut(section, "\n## ")
	for _, step := range []string{"go get github.com/agentweb/agentweb@latest", "go mod tidy"} {
		assert.Contains(t, section, step, "the section tells a user to run %q", step)
	}
	_, code, ok := strings.Cut(section, "```go\n")
	require.True(t, ok, "the section has a Go program")
	code, _, ok = strings.Cut(code, "\n```")
	require.True(t, ok)
	return code + "\n"
}

// TestReadmeProgramRuns builds the README's "Use it in your own module"
// program as a user's own module would (a go.mod requiring this module,
// replaced by the local tree, then go mod tidy) and runs it: it
// must print a score and exit 0, so the README's program cannot rot.
func TestReadmeProgramRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	code := readmeProgram(t)
	lines := strings.Count(code, "\n")
	assert.LessOrEqual(t, lines, 60, "the program stays short")

	m := outsidemod.New(t, ".")
	m.Write("main.go", []byte(code))
	out, err := m.Go("mod", "tidy")
	require.NoError(t, err, out)
	out, err = m.Go("run", ".")
	require.NoError(t, err, out)
	assert.Regexp(t, regexp.MustCompile(`^\d+\.\d/100 ready=(true|false)\n`), out)
	assert.Contains(t, out, "ready=true", "a site built with the kit is ready: %s", out)
}
