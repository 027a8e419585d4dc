package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// target is what the clients run against.
type target struct {
	page   string            // the page to start from, e.g. https://shop.example/
	client *safefetch.Client // nil: safefetch.New(nil)
	keys   agentsignup.KeySet
	label  string // how the summary names the site
	// renderer, when not nil, renders the scanned pages (-browser).
	renderer readiness.Renderer
}

// outcome is everything the flow found, step by step. A step's error is
// kept beside its (possibly partial) result: the flow always runs to its end.
type outcome struct {
	target target
	origin string

	discovery   *agentic.Discovery
	discoverErr error
	audit       *agentic.AuditReport
	auditErr    error

	descriptors []string
	agents      []*openagent.Record
	openErr     error

	linkset   *linkset.Fetched
	artefacts []linkset.ArtefactState
	walk      *linkset.WalkResult
	linkErr   error

	signup    *agentsignup.Fetched
	signupErr error

	report  *readiness.Report
	scanErr error
	elapsed time.Duration
}

// step prints one progress line to w around f.
func step(w io.Writer, n int, name string, f func() string) {
	fmt.Fprintf(w, "[%d/6] %s ...", n, name)
	start := time.Now()
	detail := f()
	fmt.Fprintf(w, " %s (%d ms)\n", detail, time.Since(start).Milliseconds())
}

func errText(err error) string {
	s := err.Error()
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return "error: " + s
}

// run runs the six steps against t in order, with progress on w.
func run(ctx context.Context, t target, w io.Writer) *outcome {
	start := time.Now()
	o := &outcome{target: t}
	u, err := url.Parse(t.page)
	if err == nil {
		o.origin = u.Scheme + "://" + u.Host
	}

	step(w, 1, "agentic.Discover "+o.origin, func() string {
		o.discovery, o.discoverErr = agentic.Discover(ctx, o.origin, &agentic.DiscoverOptions{Client: t.client})
		if o.discoverErr != nil {
			return errText(o.discoverErr)
		}
		return fmt.Sprintf("%s, %d requests", o.discovery.Outcome, len(o.discovery.Report.Requests))
	})
	step(w, 2, "agentic.Audit "+o.origin+"/agentic.json", func() string {
		o.audit, o.auditErr = agentic.Audit(ctx, o.origin+"/agentic.json", &agentic.AuditOptions{Client: t.client})
		if o.auditErr != nil {
			return errText(o.auditErr)
		}
		return fmt.Sprintf("valid=%t, agentic.txt %s", o.audit.Valid, o.audit.TextIndex.Status)
	})
	step(w, 3, "openagent.Discover + Fetch "+t.page, func() string {
		opts := &openagent.FetchOptions{Client: t.client}
		disc, err := openagent.Discover(ctx, t.page, opts)
		o.openErr = err
		if disc != nil {
			o.descriptors = disc.URLs()
		}
		for i, d := range o.descriptors {
			if i == 4 {
				break
			}
			rec, err := disc.Fetch(ctx, d, opts)
			if err != nil {
				o.openErr = err
				continue
			}
			o.agents = append(o.agents, rec)
		}
		if o.openErr != nil {
			return errText(o.openErr)
		}
		return count(len(o.descriptors), "descriptor") + ", " + count(len(o.agents), "profile")
	})
	step(w, 4, "linkset.Fetch, Verify and Walk "+o.origin+linkset.WellKnownPath, func() string {
		o.linkset, o.linkErr = linkset.Fetch(ctx, o.origin+linkset.WellKnownPath, &linkset.FetchOptions{Client: t.client, Mode: linkset.ModeReader})
		if o.linkErr != nil {
			return errText(o.linkErr)
		}
		o.artefacts = o.linkset.Verify(ctx, &linkset.VerifyOptions{Client: t.client})
		o.walk, o.linkErr = linkset.Walk(ctx, o.origin+"/", &linkset.WalkOptions{Client: t.client})
		if o.linkErr != nil {
			return errText(o.linkErr)
		}
		v, n := verified(o.artefacts)
		return fmt.Sprintf("%s, %d/%d digests verified, walk %s", formOf(o.linkset), v, n, count(len(o.walk.Nodes), "node"))
	})
	step(w, 5, "agentsignup.Fetch "+o.origin, func() string {
		o.signup, o.signupErr = agentsignup.Fetch(ctx, o.origin, &agentsignup.FetchOptions{Client: t.client, Verifier: agentsignup.NewVerifier(t.keys, nil)})
		if o.signupErr != nil {
			return errText(o.signupErr)
		}
		if o.signup.Document == nil {
			return "document does not conform"
		}
		return "attestation " + string(o.signup.Attestation.Status)
	})
	step(w, 6, "readiness.Scan "+t.page, func() string {
		o.report, o.scanErr = readiness.Scan(ctx, t.page, &readiness.Options{Client: t.client, Renderer: t.renderer})
		if o.scanErr != nil {
			return errText(o.scanErr)
		}
		return fmt.Sprintf("%.1f/100, %d checks, %d requests", o.report.Score, len(o.report.Checks), o.report.Scope.Budget.Attempts)
	})
	o.elapsed = time.Since(start)
	return o
}

// verified counts the artefacts whose digest verified, of those with one.
func verified(states []linkset.ArtefactState) (ok, withDigest int) {
	for _, a := range states {
		if a.HasDigest {
			withDigest++
		}
		if a.State == linkset.DigestVerified {
			ok++
		}
	}
	return ok, withDigest
}

func formOf(f *linkset.Fetched) string {
	if f == nil || f.Report == nil {
		return "no document"
	}
	return string(f.Report.Form)
}

// problems lists a few linkset problems in words.
func linksetProblems(f *linkset.Fetched) []string {
	if f == nil || f.Report == nil {
		return nil
	}
	var out []string
	for i, p := range f.Report.Problems {
		if i == 3 {
			out = append(out, fmt.Sprintf("and %d more", len(f.Report.Problems)-3))
			break
		}
		out = append(out, strings.TrimSpace(fmt.Sprint(p)))
	}
	return out
}

// failed reports whether a step ended in an error.
func (o *outcome) failed() bool {
	return o.discoverErr != nil || o.auditErr != nil || o.openErr != nil || o.linkErr != nil || o.signupErr != nil || o.scanErr != nil
}
