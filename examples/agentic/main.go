// Command agentic generates, validates, indexes and audits Agentic Site
// Profile 1.1 files with the exported API of package agentic only.
//
// Usage:
//
//	agentic discover ORIGIN --out DIR [--profile-url URL] [--txt 1.1|1.2] [--regenerate]
//	agentic validate FILE
//	agentic text FILE [--check] [--txt-file PATH] [--profile-url URL] [--txt 1.1|1.2]
//	agentic audit PROFILE-URL [--skip-text]
//
// discover, validate, text --check and audit write one JSON object to
// standard output; text without --check writes the TXT index itself.
//
// Exit codes:
//   - 0: success;
//   - 1: an invalid profile, a TXT mismatch, or an audit that is not valid
//     or whose TXT mismatches;
//   - 2: a usage error, an unreadable file, a refused URL, a failed fetch or
//     an existing output directory.
//
// Each subcommand lives in the file named after it.
package main

import (
	"context"
	"io"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
)

// Exit codes.
const exitOK, exitInvalid, exitUsage = cli.ExitOK, cli.ExitInvalid, cli.ExitUsage

// maxFileBytes caps what the commands read from a file. A profile and a TXT
// are at most agentic.SpecLimits().ProfileBytes and TextBytes; the rest is
// room to report the excess.
const maxFileBytes = 1 << 20

func main() { cli.Main(time.Minute, run) }

const usage = `usage:
  agentic discover ORIGIN --out DIR [--profile-url URL] [--txt 1.1|1.2] [--regenerate]
  agentic validate FILE
  agentic text FILE [--check] [--txt-file PATH] [--profile-url URL] [--txt 1.1|1.2]
  agentic audit PROFILE-URL [--skip-text]
`

// run executes one command; client nil means safefetch.New(nil).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	o := cli.Output{Name: "agentic", Usage: usage, Stdout: stdout, Stderr: stderr}
	return o.Dispatch(args, map[string]func([]string) int{
		"discover": func(args []string) int { return discover(ctx, args, o, client) },
		"validate": func(args []string) int { return validate(args, o) },
		"text":     func(args []string) int { return text(args, o) },
		"audit":    func(args []string) int { return audit(ctx, args, o, client) },
	})
}
