// Command openagent validates, fetches and discovers OpenAgent 0.1 profiles
// with the exported API of package openagent only.
//
// Usage:
//
//	openagent validate FILE
//	openagent fetch URL [--expect-did DID]
//	openagent discover PAGE
//
// Every command writes one JSON object to standard output. Exit codes:
// 0 success; 1 the document or discovery result is not acceptable (invalid
// profile, unsupported version, did mismatch, wrong media type or status, no
// descriptor found); 2 usage error or unreadable file; 3 the network request
// failed or was refused.
//
// Each subcommand lives in the file named after it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch"
)

// Exit codes.
const (
	exitOK      = cli.ExitOK
	exitInvalid = cli.ExitInvalid
	exitUsage   = cli.ExitUsage
	exitNetwork = cli.ExitNetwork
)

// maxFileBytes caps what validate reads from a file.
const maxFileBytes = 1 << 20

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	cancel()
	os.Exit(code)
}

const usage = `usage:
  openagent validate FILE
  openagent fetch URL [--expect-did DID]
  openagent discover PAGE
`

// run executes one command; client nil means safefetch.New(nil).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	o := cli.Output{Name: "openagent", Stdout: stdout, Stderr: stderr}
	switch args[0] {
	case "validate":
		return validate(args[1:], o)
	case "fetch":
		return fetch(ctx, args[1:], o, client)
	case "discover":
		return discover(ctx, args[1:], o, client)
	default:
		fmt.Fprintf(stderr, "openagent: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}

// problemJSON is a validation problem as printed.
type problemJSON struct {
	Pointer string `json:"pointer"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// problems lists the problems of a *openagent.ValidationError, or err
// itself as one problem.
func problems(err error) []problemJSON {
	var ve *openagent.ValidationError
	if !errors.As(err, &ve) {
		return []problemJSON{{Rule: "error", Message: err.Error()}}
	}
	out := make([]problemJSON, len(ve.Problems))
	for i, p := range ve.Problems {
		out[i] = problemJSON{Pointer: p.Pointer, Rule: p.Rule, Message: p.Message}
	}
	return out
}
