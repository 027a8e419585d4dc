package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness"
)

// maxBaseline bounds a baseline report written by -json, read whole.
const maxBaseline = 16 << 20

// readBaseline reads the baseline of site as a summary. It is a report
// written by -json, or a JSON Lines file written by -list -out, -summary
// or -history. Of such a file, the last line whose site is site (as given,
// or as the report names it) is used. A file whose reports are all of one
// other site is that site's baseline: production's report for a preview
// deployment at another origin. A JSON Lines file is read a line at a
// time, each line at most maxOutLine bytes.
func readBaseline(path, site string) (*readiness.Summary, error) {
	want := map[string]bool{site: true, pageURL(site): true}
	var found, last *readiness.Summary
	sites := map[string]bool{}
	_, reports, err := eachBaseline(path, func(where string, s *readiness.Summary) {
		sites[s.Site] = true
		last = s
		if want[s.Site] {
			found = s
		}
	})
	if err != nil {
		return nil, err
	}
	if found == nil && len(sites) == 1 {
		found = last
	}
	if found == nil {
		return nil, fmt.Errorf("baseline %s: JSON Lines with %s of %s, none of them of %s", path, count(reports, "report", "reports"), count(len(sites), "site", "sites"), site)
	}
	return found, nil
}

// readBaselines reads every site's summary of a baseline file (see
// readBaseline), the last line of each site winning, for -list -baseline.
func readBaselines(path string) (map[string]*readiness.Summary, error) {
	all := map[string]*readiness.Summary{}
	_, _, err := eachBaseline(path, func(_ string, s *readiness.Summary) { all[s.Site] = s })
	return all, err
}

// eachBaseline calls f with the summary of every report or summary in path.
// The file is one report as -json writes it (indented), or JSON Lines of
// reports, summaries and error lines (skipped). It returns the lines read
// and the reports found.
func eachBaseline(path string, f func(where string, s *readiness.Summary)) (lines, reports int, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("baseline: %w", err)
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 64<<10)
	first, err := readLine(br, maxOutLine)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, fmt.Errorf("baseline %s: %w", path, err)
	}
	if !json.Valid(bytes.TrimSpace(first)) {
		// Not one JSON value a line: a report as -json writes it, indented.
		data, err := cli.ReadFile(path, maxBaseline)
		if err != nil {
			return 0, 0, fmt.Errorf("baseline: %w", err)
		}
		s, err := decodeBaseline(path, data)
		if err != nil {
			return 0, 0, err
		}
		f(path, s)
		return 1, 1, nil
	}
	for line := first; len(bytes.TrimSpace(line)) > 0 || err == nil; {
		lines++
		if len(bytes.TrimSpace(line)) > 0 {
			var head struct {
				Error string `json:"error"`
			}
			where := fmt.Sprintf("%s line %d", path, lines)
			if jerr := json.Unmarshal(line, &head); jerr != nil {
				return 0, 0, fmt.Errorf("baseline %s: line %d is not JSON: %w", path, lines, jerr)
			}
			if head.Error == "" {
				s, derr := decodeBaseline(where, line)
				if derr != nil {
					return 0, 0, derr
				}
				reports++
				f(where, s)
			}
		}
		if err != nil {
			break
		}
		line, err = readLine(br, maxOutLine)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, fmt.Errorf("baseline %s: %w", path, err)
		}
	}
	return lines, reports, nil
}

// readLine returns the next line of r with its newline, at most max bytes;
// io.EOF with the last, unterminated line.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("a line is longer than %d bytes", max)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// decodeBaseline reads one report (its checks a list) or one summary (its
// checks an object) as a summary.
func decodeBaseline(where string, data []byte) (*readiness.Summary, error) {
	var probe struct {
		Checks json.RawMessage `json:"checks"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("baseline %s: not a readiness report (one written by -json, or JSON Lines written by -list -out, -summary or -history): %w", where, err)
	}
	if t := bytes.TrimSpace(probe.Checks); len(t) > 0 && t[0] == '{' {
		var s readiness.Summary
		if err := json.Unmarshal(data, &s); err != nil || len(s.Checks) == 0 {
			return nil, fmt.Errorf("baseline %s: a summary without checks", where)
		}
		return &s, nil
	}
	var r readiness.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("baseline %s: not a readiness report (one written by -json, or JSON Lines written by -list -out, -summary or -history): %w", where, err)
	}
	if len(r.Checks) == 0 {
		return nil, fmt.Errorf("baseline %s: the report has no checks", where)
	}
	return r.Summary(), nil
}

// gate applies -fail-under and the baseline comparison (rep.Baseline) to
// rep and returns the exit code. It is ExitInvalid when the score is under
// the bar or any check got worse than in the baseline, each listed on out.
// It is ExitOK otherwise. readiness.Compare tells pass, not applicable and
// an optional document's presence apart; only a change for the worse
// fails.
func gate(c *config, rep *readiness.Report, out io.Writer) int {
	code := cli.ExitOK
	if c.gate && rep.Score < c.failUnder {
		fmt.Fprintf(out, "gate: score %.1f is under %.1f\n", rep.Score, c.failUnder)
		code = cli.ExitInvalid
	}
	if b := rep.Baseline; b != nil {
		fmt.Fprintf(out, "baseline: %.1f -> %.1f (%+.1f), %s changed\n", b.Before, b.After, b.Delta, count(len(b.Changes), "check", "checks"))
		for _, ch := range b.Changes {
			if ch.Direction == "worse" {
				fmt.Fprintf(out, "gate: %s got worse: %s -> %s\n", ch.Check, ch.From, ch.To)
				code = cli.ExitInvalid
			} else {
				fmt.Fprintf(out, "  %s %s: %s -> %s\n", ch.Check, ch.Direction, ch.From, ch.To)
			}
		}
	}
	if code == cli.ExitOK {
		fmt.Fprintln(out, "gate: passed")
	}
	return code
}

// count writes n with its noun: 1 check, 2 checks.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
