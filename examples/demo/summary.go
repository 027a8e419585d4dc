package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/readiness"
)

func mark(ok bool) string {
	if ok {
		return "ok  "
	}
	return "FAIL"
}

// summarize prints the compact summary of one run.
func summarize(w io.Writer, o *outcome) {
	fmt.Fprintf(w, "\nagentweb demo: %s (%s), six steps in %s\n\n", o.target.page, o.target.label, o.elapsed.Round(time.Millisecond))

	// agentic
	switch {
	case o.discoverErr != nil:
		fmt.Fprintf(w, "  %s agentic       discover: %v\n", mark(false), o.discoverErr)
	case o.audit == nil:
		fmt.Fprintf(w, "  %s agentic       %s; audit: %v\n", mark(false), o.discovery.Outcome, o.auditErr)
	default:
		ok := o.audit.Valid && o.audit.TextIndex.Status == agentic.TextStatusMatched
		res, ops := 0, 0
		if o.discovery.Site != nil {
			res = len(o.discovery.Site.Resources)
			for _, a := range o.discovery.Site.APIs {
				ops += len(a.Operations)
			}
		}
		fmt.Fprintf(w, "  %s agentic       %s: %d resources, %d operations; audit valid=%t, agentic.txt %s\n",
			mark(ok), o.discovery.Outcome, res, ops, o.audit.Valid, o.audit.TextIndex.Status)
	}

	// openagent
	if len(o.agents) == 0 {
		fmt.Fprintf(w, "  %s openagent     %s; %v\n", mark(false), count(len(o.descriptors), "descriptor"), o.openErr)
	}
	for _, a := range o.agents {
		fmt.Fprintf(w, "  %s openagent     %q (did %s, owner claim %s), skills %s; %s\n", mark(o.openErr == nil),
			a.Profile.Name, a.Profile.DID, a.Profile.OwnerDID, strings.Join(a.Profile.Skills, ", "), count(len(o.descriptors), "descriptor"))
	}

	// linkset
	if o.linkset == nil {
		fmt.Fprintf(w, "  %s linkset       %v\n", mark(false), o.linkErr)
	} else {
		v, n := verified(o.artefacts)
		walk := "not run"
		complete := false
		if o.walk != nil {
			var hosts []string
			for _, nd := range o.walk.Nodes {
				hosts = append(hosts, strings.TrimPrefix(nd.Origin, "https://")+" "+string(nd.State))
			}
			complete = o.walk.Complete
			walk = fmt.Sprintf("complete=%t, %s: %s", o.walk.Complete, count(len(o.walk.Nodes), "node"), strings.Join(hosts, ", "))
		}
		ok := (o.linkset.Report != nil && o.linkset.Report.Conformant()) && v == n && complete
		fmt.Fprintf(w, "  %s linkset       %s; digests %d/%d verified; walk %s\n", mark(ok), formOf(o.linkset), v, n, walk)
		for _, a := range o.artefacts {
			if a.State == linkset.DigestMismatch || a.State == linkset.DigestMalformed || (a.State == linkset.DigestUnverified && a.HasDigest) {
				fmt.Fprintf(w, "                     %s %s %s\n", a.State, a.Href, a.Reason)
			}
		}
		for _, p := range linksetProblems(o.linkset) {
			fmt.Fprintf(w, "                     %s\n", p)
		}
	}

	// agent-signup
	switch {
	case o.signup == nil:
		fmt.Fprintf(w, "  %s agent-signup  %v\n", mark(false), o.signupErr)
	case o.signup.Document == nil:
		fmt.Fprintf(w, "  %s agent-signup  document does not conform: %v\n", mark(false), o.signupErr)
	default:
		d, a := o.signup.Document, o.signup.Attestation
		m := mark(a.Verified())
		if o.target.keys == nil {
			m = "--  " // no broker key is trusted: the attestation cannot verify
		}
		fmt.Fprintf(w, "  %s agent-signup  terms %s %s…; rp_attestation %s (iss %s, kid %s)\n", m,
			d.Terms.Version, d.Terms.SHA256[:19], a.Status, a.Issuer, a.KeyID)
	}

	// readiness
	r := o.report
	if r == nil {
		fmt.Fprintf(w, "  %s readiness     %v\n", mark(false), o.scanErr)
		return
	}
	ready := "NOT READY"
	if r.Ready {
		ready = "READY"
	}
	fmt.Fprintf(w, "\n  readiness %.1f / 100, %s (method %s, %d requests)\n", r.Score, ready, r.Method, r.Scope.Budget.Attempts)
	if r.Applicable < r.Possible {
		fmt.Fprintf(w, "    %.1f of the %.0f points that apply\n", r.Earned, r.Applicable)
	}
	for _, s := range r.Sections {
		if !s.Scored {
			fmt.Fprintf(w, "    %-10s  does not apply (no check applies: its %.0f points leave the denominator)\n", s.Title, s.Points)
			continue
		}
		bar := int(s.Score/s.Points*20 + 0.5)
		fmt.Fprintf(w, "    %-10s %5.1f / %-3.0f %s%s\n", s.Title, s.Score, s.Points, strings.Repeat("#", bar), strings.Repeat(".", 20-bar))
	}
	var reqs []string
	for _, q := range r.Requirements {
		s := q.ID + " " + string(q.Status)
		if q.Met {
			s = q.ID + " met"
		}
		reqs = append(reqs, s)
	}
	fmt.Fprintf(w, "    requirements: %s\n", strings.Join(reqs, ", "))
	for _, c := range r.Checks {
		// The MCP probe's receipt (package mcpprobe), on mcp_discovery.
		if m := c.Receipt.MCP; m != nil {
			fmt.Fprintf(w, "    mcp: %s %s, offered %s, negotiated %s, %s listed without a token, sign-in %s\n",
				m.Endpoint, m.Outcome, m.Protocol.Offered, cmp.Or(m.Protocol.Negotiated, "none"), count(m.Tools.ListedWithoutToken, "tool"), m.Auth.Mode)
		}
	}
	var off []string
	for _, c := range r.Checks {
		if c.Verdict == readiness.VerdictFail || c.Verdict == readiness.VerdictPartial {
			off = append(off, c.ID+" "+string(c.Verdict))
		}
	}
	if len(off) > 0 {
		fmt.Fprintf(w, "    failing: %s\n", strings.Join(off, ", "))
	}
	if len(r.Unverified) > 0 {
		fmt.Fprintf(w, "    unverified (never a pass, never a fail): %s\n", strings.Join(r.Unverified, ", "))
	}
	// The observations beyond the method, which change no score.
	var obs []string
	for _, o := range r.Observations {
		obs = append(obs, o.ID+" "+string(o.Status))
	}
	if len(obs) > 0 {
		fmt.Fprintf(w, "    observations (never scored): %s\n", strings.Join(obs, ", "))
	}
}

// difference prints what the broken site lost against the well-made one.
func difference(w io.Writer, good, bad *outcome) {
	fmt.Fprintf(w, "\n  difference from the well-made site:\n")
	if good.report != nil && bad.report != nil {
		fmt.Fprintf(w, "    readiness %.1f -> %.1f\n", good.report.Score, bad.report.Score)
		was := map[string]readiness.CheckResult{}
		for _, c := range good.report.Checks {
			was[c.ID] = c
		}
		for _, c := range bad.report.Checks {
			before := was[c.ID]
			switch {
			case before.Verdict != c.Verdict:
				fmt.Fprintf(w, "    %-26s %s -> %s: %s\n", c.ID, before.Verdict, c.Verdict, clip(c.Receipt.Received, 90))
			case c.Verdict == readiness.VerdictOptional && before.Receipt.Received != c.Receipt.Received:
				// Optional conventions weigh nothing; their receipts still tell.
				fmt.Fprintf(w, "    %-26s (optional, not scored): %s\n", c.ID, clip(c.Receipt.Received, 90))
			}
		}
	}
	gv, gn := verified(good.artefacts)
	bv, bn := verified(bad.artefacts)
	if gv != bv || gn != bn {
		fmt.Fprintf(w, "    %-26s %d/%d -> %d/%d verified\n", "linkset digests", gv, gn, bv, bn)
	}
	if (good.signup != nil && good.signup.Document != nil) != (bad.signup != nil && bad.signup.Document != nil) {
		fmt.Fprintf(w, "    %-26s conforms -> %s\n", "agent-signup.json", clip(fmt.Sprint(bad.signupErr), 90))
	}
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}

// write puts every form of the report into dir, and the agentic
// directory. The forms are the three report forms, SARIF, JUnit XML,
// the job summary, the prompt for a coding agent, the badge, the
// summary and a history of the runs shown.
func write(dir string, o *outcome) ([]string, error) {
	var files []string
	if r := o.report; r != nil {
		js, err := r.JSON()
		if err != nil {
			return nil, err
		}
		sarif, err := r.SARIF()
		if err != nil {
			return nil, err
		}
		junit, err := r.JUnit()
		if err != nil {
			return nil, err
		}
		var history []byte
		for _, s := range append(append([]readiness.Summary{}, r.Trend...), *r.Summary()) {
			line, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			history = append(append(history, line...), '\n')
		}
		summary, err := json.Marshal(r.Summary())
		if err != nil {
			return nil, err
		}
		forms := []struct {
			name string
			body []byte
		}{
			{"readiness.html", r.HTML()}, {"readiness.md", r.Markdown()}, {"readiness.json", js},
			{"readiness.sarif", sarif}, {"readiness.junit.xml", junit}, {"readiness-job-summary.md", r.JobSummary()},
			{"readiness-prompt.md", r.Prompt()}, {"readiness-badge.svg", r.Badge()},
			{"readiness-summary.json", append(summary, '\n')}, {"readiness-history.jsonl", history},
		}
		for _, f := range forms {
			if err := os.WriteFile(filepath.Join(dir, f.name), f.body, 0o644); err != nil {
				return nil, err
			}
			files = append(files, f.name)
		}
	}
	if o.discovery != nil {
		if err := o.discovery.WriteDir(filepath.Join(dir, "agentic")); err != nil {
			return files, err
		}
		files = append(files, "agentic/")
	}
	return files, nil
}

// count writes n with its noun in English: "1 node", "2 nodes".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
