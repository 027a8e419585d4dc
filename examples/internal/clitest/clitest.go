// Package clitest holds the test helpers shared by the example commands'
// tests. Only tests import it; the example programs a user copies do not.
package clitest

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// RunFunc is an example command's run function.
type RunFunc func(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int

// Run runs the command with args on n's network, or with no client when n
// is nil. It returns the exit code, standard output and standard error. It
// holds standard output to snake_case member names with [AssertSnakeCase].
func Run(t testing.TB, run RunFunc, n *fetchtest.Network, args ...string) (int, []byte, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	var client *safefetch.Client
	if n != nil {
		client = n.Client()
	}
	code := run(t.Context(), args, &stdout, &stderr, client)
	AssertSnakeCase(t, stdout.Bytes())
	return code, stdout.Bytes(), stderr.String()
}

// AssertSnakeCase holds a program's JSON output to snake_case member names,
// as every result type of the SDK is. Output that is not JSON passes.
func AssertSnakeCase(t testing.TB, out []byte) {
	t.Helper()
	if len(bytes.TrimSpace(out)) == 0 || out[0] != '{' && out[0] != '[' {
		return
	}
	bad, err := cli.NonSnakeKeys(out)
	require.NoError(t, err)
	assert.Empty(t, bad, "JSON members not in snake_case")
}
