package main

import (
	"context"
	"encoding/json"
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
	var old *readiness.Summary
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
	progress := func(e readiness.Event) {
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
	}
	if c.quiet {
		progress = nil
	}
	opts := c.scanOptions(client, renderer)
	opts.Progress = progress
	rep, err := readiness.Scan(ctx, c.site, &opts)
	if err != nil {
		code := usageError(stderr, err)
		hintDev(stderr, c, err)
		return code
	}

	var trend []readiness.Summary
	if c.history != "" {
		if trend, err = readHistory(c.history, rep.Site); err != nil {
			fmt.Fprintf(stderr, "readiness: %v\n", err)
			return cli.ExitUsage
		}
		rep.Trend = trend
	}
	if old != nil {
		rep.Baseline = readiness.CompareSummaries(old, rep.Summary())
	}
	for _, form := range c.order {
		data, err := render(rep, form)
		if err == nil {
			err = write(c.outputs[form], data, stdout)
		}
		if err != nil {
			fmt.Fprintf(stderr, "readiness: %v\n", err)
			return cli.ExitUsage
		}
	}
	if c.history != "" {
		line, err := json.Marshal(rep.Summary())
		if err == nil {
			err = appendFile(c.history, append(line, '\n'))
		}
		if err != nil {
			fmt.Fprintf(stderr, "readiness: history: %v\n", err)
			return cli.ExitUsage
		}
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendFile(path, rep.JobSummary()); err != nil {
			fmt.Fprintf(stderr, "readiness: job summary: %v\n", err)
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
	if oc := rep.Scope.OverCap; len(oc) > 0 {
		fmt.Fprintf(stdout, "  over the cap: %s answered more than %d bytes, the cap of one response, so %d checks could not be answered: scan again with -max-body SIZE\n",
			strings.Join(oc, ", "), rep.Scope.Budget.MaxBodyBytes, len(rep.Unverified))
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
		return gate(c, rep, stdout)
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

// render returns one form of the report.
func render(rep *readiness.Report, form string) ([]byte, error) {
	switch form {
	case "json":
		return rep.JSON()
	case "md":
		return rep.Markdown(), nil
	case "html":
		return rep.HTML(), nil
	case "sarif":
		return rep.SARIF()
	case "junit":
		return rep.JUnit()
	case "prompt":
		return rep.Prompt(), nil
	case "badge":
		return rep.Badge(), nil
	case "summary":
		line, err := json.Marshal(rep.Summary())
		return append(line, '\n'), err
	}
	return nil, fmt.Errorf("no form %q", form)
}

// maxTrend is how many earlier runs of a site -history draws.
const maxTrend = 100

// readHistory returns the earlier runs of site in the JSON Lines file
// path (summaries, or reports), oldest first. It returns at most maxTrend
// of them, and holds at most twice that while it reads, however long the
// file has grown. A file that does not exist yet has none.
func readHistory(path, site string) ([]readiness.Summary, error) {
	runs := []readiness.Summary{}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return runs, nil
	}
	_, _, err := eachBaseline(path, func(_ string, s *readiness.Summary) {
		if s.Site != site {
			return
		}
		if len(runs) == 2*maxTrend {
			runs = append(runs[:0], runs[maxTrend:]...)
		}
		runs = append(runs, *s)
	})
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return runs[max(0, len(runs)-maxTrend):], nil
}

// appendFile appends data to the file at path, creating it.
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
