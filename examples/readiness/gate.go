package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness"
)

// maxBaseline bounds the baseline report read from disk.
const maxBaseline = 16 << 20

// readBaseline reads a report written by --json (or one line of -out).
func readBaseline(path string) (*readiness.Report, error) {
	data, err := cli.ReadFile(path, maxBaseline)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	var r readiness.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("baseline %s: not a readiness report: %w", path, err)
	}
	if len(r.Checks) == 0 {
		return nil, fmt.Errorf("baseline %s: the report has no checks", path)
	}
	return &r, nil
}

// rank orders verdicts from worst to best for the baseline gate: a check
// got worse when its rank went down. Verdicts that meet a requirement
// (pass, not_applicable) and optional conventions rank highest; a check
// that could not be verified ranks above one that failed, because it may
// still pass.
func rank(v readiness.Verdict) int {
	switch v {
	case readiness.VerdictPass, readiness.VerdictNotApplicable, readiness.VerdictOptional:
		return 3
	case readiness.VerdictPartial:
		return 2
	case readiness.VerdictUnverified:
		return 1
	}
	return 0
}

// gate applies -fail-under and -baseline to rep and returns the exit
// code: ExitInvalid when the score is under the bar or any check got
// worse than in old, each listed on out, ExitOK otherwise.
func gate(c *config, old, rep *readiness.Report, out io.Writer) int {
	code := cli.ExitOK
	if c.gate && rep.Score < c.failUnder {
		fmt.Fprintf(out, "gate: score %.1f is under %.1f\n", rep.Score, c.failUnder)
		code = cli.ExitInvalid
	}
	if old != nil {
		before := map[string]readiness.Verdict{}
		for _, ch := range old.Checks {
			before[ch.ID] = ch.Verdict
		}
		for _, ch := range rep.Checks {
			was, ok := before[ch.ID]
			if ok && rank(ch.Verdict) < rank(was) {
				fmt.Fprintf(out, "gate: %s got worse: %s -> %s\n", ch.ID, was, ch.Verdict)
				code = cli.ExitInvalid
			}
		}
	}
	if code == cli.ExitOK {
		fmt.Fprintln(out, "gate: passed")
	}
	return code
}
