// Command demo is agentweb's main job. It starts Example Shop, an
// agent-ready site, on a fake internet of real TLS servers on loopback
// (package demosite). It runs every client of the SDK against it, in order.
// They are agentic.Discover and agentic.Audit, openagent.Discover and Fetch,
// and linkset.Fetch, the digest of every artefact and the peer Walk. Then
// agentsignup.Fetch with the rp_attestation verified against the demo
// broker's key, and readiness.Scan. It prints one summary and writes the
// readiness report in every form and the agentic directory into -out. The
// forms are HTML, Markdown, JSON, SARIF, JUnit XML, a CI job summary, the
// prompt for a coding agent, the badge, the summary and a history. With
// -broken, every form shows the broken site against the well-made one.
//
// Usage:
//
//	go run ./examples/demo                  # the well-made site, no network needed
//	go run ./examples/demo -broken          # the site with defects, and the difference
//	go run ./examples/demo -site URL        # a real site (needs network)
//	go run ./examples/demo -out DIR         # where to write the reports (default: a new temp dir)
//	go run ./examples/demo -browser         # render the pages in the system's Chromium too (apt-get install chromium)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/demo/demosite"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch"
)

func main() {
	os.Exit(demo(os.Args[1:], os.Stdout, os.Stderr, nil))
}

// demo runs the command; it returns the exit code: 0 when every step
// completed, 1 when a step failed, 2 on a usage error. client, used for
// -site only, nil means safefetch.New(nil).
func demo(args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	broken := fs.Bool("broken", false, "start the demo site with defects and show the difference")
	site := fs.String("site", "", "run the clients against this real https page instead (needs network)")
	out := fs.String("out", "", "directory to write the reports into (default: a new temporary directory)")
	useBrowser := fs.Bool("browser", false, "render the scanned pages in the system's Chromium (package readiness/browser)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*broken && *site != "") {
		fmt.Fprintln(stderr, "usage: demo [-broken | -site URL] [-out DIR] [-browser]")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var renderer readiness.Renderer
	if *useBrowser {
		b, err := browser.New(ctx, nil)
		if err != nil {
			fmt.Fprintln(stderr, "demo:", err)
			return 2
		}
		defer b.Close()
		renderer = b
	}

	var result, baseline *outcome
	if *site != "" {
		if err := safefetch.CheckURL(*site, false); err != nil {
			fmt.Fprintln(stderr, "demo:", err)
			return 2
		}
		fmt.Fprintf(stderr, "demo: running the clients against %s (no broker key is trusted there)\n", *site)
		if client == nil {
			client = safefetch.New(nil)
		}
		result = run(ctx, target{page: *site, client: client, label: "a real site", renderer: renderer}, stderr)
	} else {
		defects := demosite.Defect(0)
		if *broken {
			defects = demosite.Broken
		}
		var err error
		result, err = runDemoSite(ctx, defects, renderer, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "demo:", err)
			return 1
		}
		if *broken {
			fmt.Fprintln(stderr, "demo: and the well-made site, for the difference")
			if baseline, err = runDemoSite(ctx, 0, renderer, stderr); err != nil {
				fmt.Fprintln(stderr, "demo:", err)
				return 1
			}
		}
	}

	summarize(stdout, result)
	if baseline != nil {
		difference(stdout, baseline, result)
		if baseline.report != nil && result.report != nil {
			// Every form shows the broken site against the well-made one:
			// the delta, and a trend of the two runs.
			result.report.Baseline = readiness.Compare(baseline.report, result.report)
			result.report.Trend = []readiness.Summary{*baseline.report.Summary()}
		}
	}
	dir := *out
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "agentweb-demo-"); err != nil {
			fmt.Fprintln(stderr, "demo:", err)
			return 1
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "demo:", err)
		return 1
	}
	files, err := write(dir, result)
	fmt.Fprintf(stdout, "\n  wrote %v into %s\n", files, dir)
	if err != nil {
		fmt.Fprintln(stderr, "demo:", err)
		return 1
	}
	if result.failed() && !*broken {
		return 1
	}
	return 0
}

// runDemoSite starts the demo site with the given defects and runs the
// flow against it; the attestation is verified with the broker's JWK Set,
// fetched from the broker's own host.
func runDemoSite(ctx context.Context, d demosite.Defect, renderer readiness.Renderer, stderr io.Writer) (*outcome, error) {
	s, err := demosite.Start(&demosite.Options{Defects: d})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	fmt.Fprintf(stderr, "demo: Example Shop at %s on a fake internet (defects: %s)\n", s.URL, d)
	keys, err := agentsignup.NewJWKSKeySet(s.BrokerIssuer, s.BrokerJWKSURL, &agentsignup.JWKSOptions{Client: s.Client()})
	if err != nil {
		return nil, err
	}
	return run(ctx, target{page: s.URL, client: s.Client(), keys: keys, label: "defects: " + d.String(), renderer: renderer}, stderr), nil
}
