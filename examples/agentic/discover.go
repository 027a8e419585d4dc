package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
)

// discoverResult is the JSON printed by discover.
type discoverResult struct {
	Origin      string                   `json:"origin"`
	Outcome     string                   `json:"outcome"`
	ProfileURL  string                   `json:"profile_url"`
	Out         string                   `json:"out"`
	Files       []string                 `json:"files"`
	Resources   int                      `json:"resources"`
	Operations  int                      `json:"operations"`
	Requests    int                      `json:"requests"`
	Failures    []agentic.Failure        `json:"failures"`
	Truncations []agentic.Truncation     `json:"truncations"`
	Budget      agentic.BudgetReport     `json:"budget"`
	Error       string                   `json:"error,omitempty"`
	Report      *agentic.DiscoveryReport `json:"-"`
}

// discover runs agentic.Discover on ORIGIN and writes the generated
// directory into the new directory --out.
func discover(ctx context.Context, args []string, o cli.Output, client *safefetch.Client) int {
	fs := flag.NewFlagSet("discover", flag.ContinueOnError)
	out := fs.String("out", "", "new directory to write the files into")
	profileURL := fs.String("profile-url", "", "profile URL (default ORIGIN/agentic.json)")
	txt := fs.String("txt", "1.1", "TXT version to write: 1.1 or 1.2")
	regenerate := fs.Bool("regenerate", false, "build a fresh profile even when the site publishes a valid one")
	pos, ok := o.Args(fs, args, 1)
	if !ok || *out == "" {
		if ok {
			fmt.Fprint(o.Stderr, usage)
		}
		return exitUsage
	}
	if _, err := os.Stat(*out); err == nil {
		return o.Fail(exitUsage, errors.New(*out+" already exists; choose a new directory"))
	}
	origin := pos[0]
	d, err := agentic.Discover(ctx, origin, &agentic.DiscoverOptions{Client: client, ProfileURL: *profileURL, TextVersion: *txt, Regenerate: *regenerate})
	res := discoverResult{Origin: origin, Out: *out}
	if d != nil {
		res.Origin, res.Outcome, res.ProfileURL = d.Origin, string(d.Outcome), d.ProfileURL
		res.Requests = len(d.Report.Requests)
		res.Failures, res.Truncations, res.Budget = d.Report.Failures, d.Report.Truncations, d.Report.Budget
		if d.Site != nil {
			res.Resources = len(d.Site.Resources)
			for _, a := range d.Site.APIs {
				res.Operations += len(a.Operations)
			}
		}
	}
	if err == nil {
		err = d.WriteDir(*out)
	}
	if err != nil {
		res.Error = err.Error()
		return o.JSON(res, exitUsage)
	}
	res.Files = []string{"agentic.json", "agentic.txt", "README.md", "LISTING.md", "discovery-report.json"}
	return o.JSON(res, exitOK)
}
