// Command readiness scans a website for agent readiness and writes the
// report (package github.com/agentweb/agentweb/readiness).
//
// Usage:
//
//	readiness scan URL [--json FILE] [--md FILE] [--html FILE]
//	readiness mcp URL
//
// scan: progress goes to stderr and a summary to stdout; each --json, --md
// or --html flag writes that form of the report to FILE ("-" for stdout).
// The exit code is 0 when the site is ready, 1 when it is not, and 2 on a
// usage error or when the scan could not run.
//
// mcp: probes one MCP endpoint (package
// github.com/agentweb/agentweb/readiness/mcpprobe) and prints its receipt as
// JSON to stdout, for an MCP server author's CI. The exit code is 0 when
// the endpoint answers as MCP (tools listed, or sign-in required with a
// Bearer challenge), 1 when nothing answers as MCP, and 2 on a usage error.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch"
)

const usage = "usage: readiness scan URL [--json FILE] [--md FILE] [--html FILE]\n       readiness mcp URL"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

// run is the whole program; client nil means safefetch.New(nil).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) > 0 && args[0] == "mcp" {
		return runMCP(ctx, args[1:], stdout, stderr, client)
	}
	if len(args) > 0 && args[0] == "scan" {
		args = args[1:]
	}
	var site string
	outputs := map[string]string{}
	var order []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "--json", "-json", "--md", "-md", "--html", "-html":
			if i+1 >= len(args) {
				fmt.Fprintf(stderr, "readiness: %s needs a FILE\n%s\n", a, usage)
				return cli.ExitUsage
			}
			form := strings.TrimLeft(a, "-")
			if _, dup := outputs[form]; !dup {
				order = append(order, form)
			}
			outputs[form] = args[i+1]
			i++
		default:
			if strings.HasPrefix(a, "-") || site != "" {
				fmt.Fprintf(stderr, "readiness: unexpected argument %q\n%s\n", a, usage)
				return cli.ExitUsage
			}
			site = a
		}
	}
	if site == "" {
		fmt.Fprintln(stderr, usage)
		return cli.ExitUsage
	}

	rep, err := readiness.Scan(ctx, site, &readiness.Options{
		Client: client,
		Progress: func(e readiness.Event) {
			switch e.Kind {
			case readiness.EventKindFetchDone:
				if e.Err != nil {
					fmt.Fprintf(stderr, "  fetch %s %s: %v\n", e.Method, e.URL, e.Err)
				} else {
					fmt.Fprintf(stderr, "  fetch %s %s: %d\n", e.Method, e.URL, e.Status)
				}
			case readiness.EventKindCheckFinished:
				fmt.Fprintf(stderr, "check %-26s %s\n", e.Check, e.Verdict)
			}
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "readiness: %v\n", err)
		return cli.ExitUsage
	}

	for _, form := range order {
		var data []byte
		switch form {
		case "json":
			if data, err = rep.JSON(); err != nil {
				fmt.Fprintf(stderr, "readiness: %v\n", err)
				return cli.ExitUsage
			}
		case "md":
			data = rep.Markdown()
		case "html":
			data = rep.HTML()
		}
		if err := write(outputs[form], data, stdout); err != nil {
			fmt.Fprintf(stderr, "readiness: %v\n", err)
			return cli.ExitUsage
		}
	}

	fmt.Fprintf(stdout, "%s: %.1f / 100, ", rep.Site, rep.Score)
	if rep.Ready {
		fmt.Fprintln(stdout, "ready")
	} else {
		fmt.Fprintln(stdout, "not ready")
	}
	for _, q := range rep.Requirements {
		if !q.Met {
			fmt.Fprintf(stdout, "  %s %s: %s\n", q.ID, q.Status, q.Why)
		}
	}
	if len(rep.Unverified) > 0 {
		fmt.Fprintf(stdout, "  unverified: %s\n", strings.Join(rep.Unverified, ", "))
	}
	if rep.Ready {
		return cli.ExitOK
	}
	return cli.ExitInvalid
}

func write(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

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
