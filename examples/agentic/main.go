// Command agentic generates, validates, indexes and audits Agentic Site
// Profile 1.1 files with the exported API of package agentic only.
//
// Usage:
//
//	agentic discover ORIGIN --out DIR [--profile-url URL] [--txt 1.1|1.2]
//	agentic validate FILE
//	agentic text FILE [--check] [--txt-file PATH] [--profile-url URL] [--txt 1.1|1.2]
//	agentic audit PROFILE-URL [--skip-text]
//
// discover, validate, text --check and audit write one JSON object to
// standard output; text without --check writes the TXT index itself.
// Exit codes: 0 success; 1 invalid profile, TXT mismatch, or an audit that
// is not valid or whose TXT mismatches; 2 usage error, unreadable file,
// refused URL, failed fetch or existing output directory.
//
// Each subcommand lives in the file named after it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
)

// Exit codes.
const exitOK, exitInvalid, exitUsage = cli.ExitOK, cli.ExitInvalid, cli.ExitUsage

// maxFileBytes caps what the commands read from a file (a profile and a
// TXT are at most 64 KiB; a little room is left to report the excess).
const maxFileBytes = 1 << 20

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	cancel()
	os.Exit(code)
}

const usage = `usage:
  agentic discover ORIGIN --out DIR [--profile-url URL] [--txt 1.1|1.2]
  agentic validate FILE
  agentic text FILE [--check] [--txt-file PATH] [--profile-url URL] [--txt 1.1|1.2]
  agentic audit PROFILE-URL [--skip-text]
`

// run executes one command; client nil means safefetch.New(nil).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	o := cli.Output{Name: "agentic", Stdout: stdout, Stderr: stderr}
	switch args[0] {
	case "discover":
		return discover(ctx, args[1:], o, client)
	case "validate":
		return validate(args[1:], o)
	case "text":
		return text(args[1:], o)
	case "audit":
		return audit(ctx, args[1:], o, client)
	default:
		fmt.Fprintf(stderr, "agentic: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}

// parse reads flags placed before or after the positional arguments and
// requires exactly one positional.
func parse(fs *flag.FlagSet, args []string, o cli.Output) (string, bool) {
	pos, ok := cli.Args(fs, args, 1, o.Stderr, usage)
	if !ok {
		return "", false
	}
	return pos[0], true
}

// readFile reads a local profile or TXT, capped at maxFileBytes.
func readFile(name string) ([]byte, error) { return cli.ReadFile(name, maxFileBytes) }
