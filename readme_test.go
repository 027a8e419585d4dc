package agentweb_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(code), 0o644))
	gomod := "module example.com/teashop\n\ngo 1.26\n\nrequire github.com/agentweb/agentweb v0.0.0\n\nreplace github.com/agentweb/agentweb => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	// The module's own go.sum vouches for the dependencies' hashes. go mod
	// tidy also reads the tests of every dependency (go-sdk's import
	// go-cmp and jwt, html-to-markdown's goldmark), which go test ./...
	// never downloads: on a fresh machine they come from the module proxy,
	// the one network the README's commands may use, as they would for a
	// user. The environment's GOPROXY and GOFLAGS are kept (GOFLAGS may
	// hold -modcacherw, so that a throwaway module cache can be removed).
	sum, err := os.ReadFile("go.sum")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))

	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	goCmd := func(args ...string) (string, error) {
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"), "GOTOOLCHAIN=local")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	out, err := goCmd("mod", "tidy")
	require.NoError(t, err, out)
	out, err = goCmd("run", ".")
	require.NoError(t, err, out)
	assert.Regexp(t, regexp.MustCompile(`^\d+\.\d/100 ready=(true|false)\n`), out)
	assert.Contains(t, out, "ready=true", "a site built with the kit is ready: %s", out)
}
