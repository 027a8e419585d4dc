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

// readBaseline reads the baseline of site: a report written by -json, or
// a JSON Lines file written by -list -out, of which the report whose site
// is site (as given, or as the report names it) is used. A JSON Lines file
// is read a line at a time, each line at most maxOutLine bytes.
func readBaseline(path, site string) (*readiness.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	first, err := readLine(br, maxOutLine)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	if !json.Valid(bytes.TrimSpace(first)) {
		// Not one JSON value a line: a report as -json writes it, indented.
		data, err := cli.ReadFile(path, maxBaseline)
		if err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		return decodeBaseline(path, data)
	}
	want := map[string]bool{site: true, pageURL(site): true}
	lines, reports := 0, 0
	for line := first; len(bytes.TrimSpace(line)) > 0 || err == nil; {
		lines++
		if len(bytes.TrimSpace(line)) > 0 {
			var head struct {
				Site  string `json:"site"`
				Error string `json:"error"`
			}
			if jerr := json.Unmarshal(line, &head); jerr != nil {
				return nil, fmt.Errorf("baseline %s: line %d is not JSON: %w", path, lines, jerr)
			}
			if head.Error == "" {
				reports++
				if want[head.Site] {
					return decodeBaseline(fmt.Sprintf("%s line %d", path, lines), line)
				}
			}
		}
		if err != nil {
			break
		}
		line, err = readLine(br, maxOutLine)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("baseline %s: %w", path, err)
		}
	}
	return nil, fmt.Errorf("baseline %s: JSON Lines with %d reports, none of them of %s", path, reports, site)
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

// decodeBaseline reads one report.
func decodeBaseline(where string, data []byte) (*readiness.Report, error) {
	var r readiness.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("baseline %s: not a readiness report (one written by -json, or JSON Lines written by -list -out): %w", where, err)
	}
	if len(r.Checks) == 0 {
		return nil, fmt.Errorf("baseline %s: the report has no checks", where)
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
