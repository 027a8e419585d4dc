package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// runOne scans one site, writes the forms asked for, prints the summary
// and applies the gates.
func runOne(ctx context.Context, c *config, stdout, stderr io.Writer, client *safefetch.Client) int {
	var old *readiness.Report
	if c.baseline != "" {
		var err error
		if old, err = readBaseline(c.baseline, c.site); err != nil {
			return usageError(stderr, err)
		}
	}
	renderer, closeRenderer, err := startRenderer(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "readiness: %v\n", err)
		return cli.ExitUsage
	}
	defer closeRenderer()
	rep, err := readiness.Scan(ctx, c.site, &readiness.Options{
		Client:   client,
		Renderer: renderer,
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
		code := usageError(stderr, err)
		if !c.dev && loopbackURL(c.site) && (errors.Is(err, safefetch.ErrForbiddenURL) || errors.Is(err, safefetch.ErrForbiddenAddress)) {
			fmt.Fprintln(stderr, devHint)
		}
		return code
	}

	for _, form := range c.order {
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
		if err := write(c.outputs[form], data, stdout); err != nil {
			fmt.Fprintf(stderr, "readiness: %v\n", err)
			return cli.ExitUsage
		}
	}

	if rep.Scope.Development {
		fmt.Fprintln(stdout, devNotice)
	}
	fmt.Fprintf(stdout, "%s: %.1f / 100, ", rep.Site, rep.Score)
	if rep.Applicable < rep.Possible {
		fmt.Fprintf(stdout, "%.1f of the %.0f points that apply, ", rep.Earned, rep.Applicable)
	}
	if rep.Ready {
		fmt.Fprintln(stdout, "ready")
	} else {
		fmt.Fprintln(stdout, "not ready")
	}
	printFixes(stdout, rep.Fixes)
	for _, q := range rep.Requirements {
		if !q.Met {
			fmt.Fprintf(stdout, "  %s %s: %s\n", q.ID, q.Status, q.Why)
		}
	}
	if len(rep.Unverified) > 0 {
		fmt.Fprintf(stdout, "  unverified: %s\n", strings.Join(rep.Unverified, ", "))
	}
	if c.gate || old != nil {
		return gate(c, old, rep, stdout)
	}
	if rep.Ready {
		return cli.ExitOK
	}
	return cli.ExitInvalid
}

// maxFixesPrinted is how many entries of the fix-first list a scan prints
// after its score.
const maxFixesPrinted = 5

// printFixes prints the first entries of the report's fix-first list, the
// fix that adds the most points first.
func printFixes(w io.Writer, fixes []readiness.FixItem) {
	if len(fixes) == 0 {
		return
	}
	fmt.Fprintln(w, "  fix first:")
	for i, f := range fixes[:min(len(fixes), maxFixesPrinted)] {
		req := ""
		if f.Requirement != "" {
			req = " (" + f.Requirement + ")"
		}
		fmt.Fprintf(w, "  %d. +%.1f points %s%s: %s\n", i+1, f.Points, f.Check, req, f.Fix)
	}
	if len(fixes) > maxFixesPrinted {
		fmt.Fprintf(w, "  ... and %d more in the report\n", len(fixes)-maxFixesPrinted)
	}
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
