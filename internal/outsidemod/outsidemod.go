// Package outsidemod builds a throwaway Go module of a user's own, which
// requires this module replaced by the local tree. It serves the tests
// that run what the README tells a user to write: the module program, a
// user's go test of their site. It is internal and used by tests only.
package outsidemod

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Module is a module in a temporary directory.
type Module struct {
	t   testing.TB
	Dir string
}

// New makes the module example.com/teashop in a temporary directory of t.
// It requires github.com/agentweb/agentweb replaced by the tree at root,
// with root's go.sum. The module's own go.sum vouches for the dependencies'
// hashes.
func New(t testing.TB, root string) *Module {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	m := &Module{t: t, Dir: t.TempDir()}
	m.Write("go.mod", []byte("module example.com/teashop\n\ngo 1.26\n\nrequire github.com/agentweb/agentweb v0.0.0\n\nreplace github.com/agentweb/agentweb => "+root+"\n"))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	m.Write("go.sum", sum)
	return m
}

// Write writes a file of the module.
func (m *Module) Write(name string, data []byte) {
	m.t.Helper()
	if err := os.WriteFile(filepath.Join(m.Dir, name), data, 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// Go runs the go command of this toolchain in the module and returns its
// combined output. The command go mod tidy also reads the tests of every
// dependency, which go test ./... never downloads. On a fresh machine
// they come from the module proxy, the one network a user's commands may
// use. The environment's GOPROXY and GOFLAGS are kept (GOFLAGS may hold
// -modcacherw, so that a throwaway module cache can be removed).
func (m *Module) Go(args ...string) (string, error) {
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
	cmd.Dir = m.Dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"), "GOTOOLCHAIN=local")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
