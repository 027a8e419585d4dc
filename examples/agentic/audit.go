package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
)

// audit runs agentic.Audit on PROFILE-URL and prints its report: exit 2
// when the profile could not be fetched, 1 when it is not valid or its TXT
// index mismatches.
func audit(ctx context.Context, args []string, o cli.Output, client *safefetch.Client) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	skipText := fs.Bool("skip-text", false, "do not read the TXT index")
	pos, ok := o.Args(fs, args, 1)
	if !ok {
		return exitUsage
	}
	// The report comes with the error that names the situation (nothing
	// published, an invalid profile), and says the rest.
	rep, err := agentic.Audit(ctx, pos[0], &agentic.AuditOptions{Client: client, SkipText: *skipText})
	if rep == nil {
		fmt.Fprintln(o.Stderr, err)
		return exitUsage
	}
	for _, c := range rep.Checks {
		if c.ID == "fetch" && c.Status == agentic.CheckStatusFail {
			return o.JSON(rep, exitUsage)
		}
	}
	if !rep.Valid || rep.TextIndex.Status == agentic.TextStatusMismatch {
		return o.JSON(rep, exitInvalid)
	}
	return o.JSON(rep, exitOK)
}
