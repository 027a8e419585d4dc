package main

import (
	"context"
	"fmt"
	"io"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch"
)

// runMCP probes one MCP endpoint and prints the receipt.
func runMCP(ctx context.Context, c *config, stdout, stderr io.Writer, client *safefetch.Client) int {
	r, err := mcpprobe.Probe(ctx, c.site, &mcpprobe.Options{Client: client})
	if err != nil {
		code := usageError(stderr, err)
		hintDev(stderr, c, err)
		return code
	}
	if err := cli.Encode(stdout, r); err != nil {
		fmt.Fprintf(stderr, "readiness: %v\n", err)
		return cli.ExitUsage
	}
	fmt.Fprintf(stderr, "%s: %s (%s)\n", r.Endpoint, r.Outcome, r.Reason)
	if r.Development {
		fmt.Fprintln(stderr, devNotice)
	}
	if !r.Outcome.IsMCP() {
		return cli.ExitInvalid
	}
	return cli.ExitOK
}
