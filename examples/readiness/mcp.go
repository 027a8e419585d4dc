package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch"
)

// runMCP probes one MCP endpoint and prints the receipt.
func runMCP(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, usage)
		return cli.ExitUsage
	}
	r, err := mcpprobe.Probe(ctx, args[0], &mcpprobe.Options{Client: client})
	if err != nil {
		fmt.Fprintf(stderr, "readiness: %v\n", err)
		return cli.ExitUsage
	}
	if err := cli.Encode(stdout, r); err != nil {
		fmt.Fprintf(stderr, "readiness: %v\n", err)
		return cli.ExitUsage
	}
	fmt.Fprintf(stderr, "%s: %s (%s)\n", r.Endpoint, r.Outcome, r.Reason)
	if !r.Outcome.IsMCP() {
		return cli.ExitInvalid
	}
	return cli.ExitOK
}
