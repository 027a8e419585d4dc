package readiness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/agentweb/agentweb/internal/plural"
)

// JSON renders the report in its canonical form: indented UTF-8 JSON, ending in
// a newline. It has the snake_case field names of [Report], in the order of its
// fields. Maps have sorted keys, numbers are exact and HTML characters are not
// escaped.
func (r *Report) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("readiness: encode report: %w", err)
	}
	return buf.Bytes(), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// clean removes control characters (a receipt line is one line) so that
// remote text cannot break the layout of a rendering.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return -1
		}
		return r
	}, s)
}

func (r *Report) checksOf(sec SectionID) []CheckResult {
	var out []CheckResult
	for _, c := range r.Checks {
		if c.Section == sec {
			out = append(out, c)
		}
	}
	return out
}

func verdictLabel(v Verdict) string {
	switch v {
	case VerdictNotApplicable:
		return "n/a"
	}
	return string(v)
}

func readyWord(ready bool) string {
	if ready {
		return "ready"
	}
	return "not ready"
}

// scoreBasis says what the score is a share of, in the sections' points (the
// scoring method, Section 02). It reads "60.0 of the 80 points that apply
// (Connect does not apply, so its 20 points leave the denominator)". When every
// section applies, it reads "93.5 of 100 points".
func (r *Report) scoreBasis() string {
	if r.Applicable >= r.Possible {
		return oneDecimal(r.Earned) + " of " + points(r.Applicable) + " points"
	}
	var out []string
	var left float64
	for _, s := range r.Sections {
		if !s.Scored {
			out = append(out, s.Title)
			left += s.Points
		}
	}
	verb := "does"
	if len(out) > 1 {
		verb = "do"
	}
	return fmt.Sprintf("%s of the %s points that apply (%s %s not apply, so %s points leave the denominator)",
		oneDecimal(r.Earned), points(r.Applicable), strings.Join(out, ", "), verb, points(left))
}

// sectionBasis says how a section entered the score.
func sectionBasis(s SectionResult) string {
	if !s.Scored {
		return "does not apply: none of its checks applies, so its " + points(s.Points) + " points leave the denominator"
	}
	return oneDecimal(s.Score) + " of " + points(s.Points) + " points"
}

// overCapNotice is what every form of a report says at its top when an
// answer was over the per-response cap, or "".
func (r *Report) overCapNotice() string {
	if len(r.Scope.OverCap) == 0 {
		return ""
	}
	what := r.Scope.OverCap[0]
	if len(r.Scope.OverCap) > 1 {
		what += fmt.Sprintf(" and %d more", len(r.Scope.OverCap)-1)
	}
	return fmt.Sprintf("Over the cap: %s answered more than the scan's cap of %s per response, so %s could not be answered. Serve a smaller page, or scan again with a larger cap (readiness.Options.MaxBodyBytes; the command's -max-body flag).",
		what, byteSize(r.Scope.Budget.MaxBodyBytes), plural.N(len(r.Unverified), "check", "checks"))
}
