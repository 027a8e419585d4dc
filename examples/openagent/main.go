// Command openagent validates, fetches and discovers OpenAgent 0.1 profiles
// with the exported API of package openagent only.
//
// Usage:
//
//	openagent validate FILE
//	openagent fetch URL [--expect-did DID]
//	openagent discover PAGE
//
// Every command writes one JSON object to standard output. The exit code is
// 0 on success. It is 1 when the document or discovery result is not
// acceptable: an invalid profile, unsupported version, did mismatch, wrong
// media type or status, or no descriptor found. It is 2 on a usage error or
// unreadable file, and 3 when the network request failed or was refused.
//
// Each subcommand lives in the file named after it.
package main

import (
	"context"
	"errors"
	"io"
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

func main() { cli.Main(time.Minute, run) }

const usage = `usage:
  openagent validate FILE
  openagent fetch URL [--expect-did DID]
  openagent discover PAGE
`

// run executes one command; client nil means safefetch.New(nil).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	o := cli.Output{Name: "openagent", Usage: usage, Stdout: stdout, Stderr: stderr}
	return o.Dispatch(args, map[string]func([]string) int{
		"validate": func(args []string) int { return validate(args, o) },
		"fetch":    func(args []string) int { return fetch(ctx, args, o, client) },
		"discover": func(args []string) int { return discover(ctx, args, o, client) },
	})
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
