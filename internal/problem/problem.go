package problem

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severity says how much a [Problem] weighs. The zero value is
// [SeverityError], so a Problem built without one breaks conformance.
type Severity uint8

const (
	// SeverityError is a violation of the specification: the document does
	// not conform.
	SeverityError Severity = iota
	// SeverityWarning is something a publisher should fix that does not
	// break conformance (an unknown member, a deprecated form).
	SeverityWarning
	// SeverityNotice reports something a reader ignores, or reads in the
	// most restrictive way, as its specification tells it to; it never
	// affects conformance.
	SeverityNotice
)

var severityNames = [...]string{"error", "warning", "notice"}

// String returns "error", "warning" or "notice".
func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the severity as its String.
func (s Severity) MarshalText() ([]byte, error) {
	if int(s) >= len(severityNames) {
		return nil, fmt.Errorf("problem: unknown severity %d", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "error", "warning" or "notice".
func (s *Severity) UnmarshalText(b []byte) error {
	for i, n := range severityNames {
		if string(b) == n {
			*s = Severity(i)
			return nil
		}
	}
	return fmt.Errorf("problem: unknown severity %q", b)
}

// Problem is one finding about a document.
type Problem struct {
	// Pointer is the RFC 6901 JSON Pointer of the offending value; "" is the
	// whole document, and for a missing member it is the pointer the member
	// would have.
	Pointer string `json:"pointer"`
	// Rule is a stable, machine-readable rule name, one of its package's
	// Rule constants.
	Rule string `json:"rule"`
	// Message says what is wrong in words a person understands.
	Message string `json:"message"`
	// Section is the section of the specification that states the rule,
	// such as "4.3.1", or "" when the package does not cite one per rule.
	Section string `json:"section,omitempty"`
	// Severity is SeverityError unless the finding is only a warning or a
	// notice.
	Severity Severity `json:"severity"`
}

// String formats the problem as "pointer: message [rule]", or
// "pointer: message [rule, section S]" when it cites a section; the whole
// document is "(document)".
func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(document)"
	}
	if p.Section != "" {
		return ptr + ": " + p.Message + " [" + p.Rule + ", section " + p.Section + "]"
	}
	return ptr + ": " + p.Message + " [" + p.Rule + "]"
}

// Compare orders problems by pointer, then rule, then message.
func Compare(a, b Problem) int {
	return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message))
}

// Sort sorts ps by [Compare] and removes exact duplicates.
func Sort(ps []Problem) []Problem {
	slices.SortStableFunc(ps, Compare)
	return slices.Compact(ps)
}

// shown is how many problems [ValidationError.Error] lists before "and N more".
const shown = 5

// ValidationError lists every problem that made a document unreadable or
// non-conformant, never only the first. Build one with [New], which records
// the sentinels it unwraps to.
type ValidationError struct {
	// Source is the URL the document was fetched from, or "" when it was
	// parsed from bytes.
	Source string `json:"source,omitempty"`
	// Problems are the findings of severity error, in a stable order.
	Problems []Problem `json:"problems"`
	// Warnings are findings of the same pass that do not break conformance
	// on their own (unknown members, notices).
	Warnings []Problem `json:"warnings,omitempty"`

	sentinels []error
}

// New returns a ValidationError over ps that unwraps to every sentinel
// given; the first sentinel's text starts its message. The caller keeps
// the order of ps.
func New(ps []Problem, sentinels ...error) *ValidationError {
	return &ValidationError{Problems: ps, sentinels: sentinels}
}

// WithSource returns e with Source set to url, for a document fetched over
// the network.
func (e *ValidationError) WithSource(url string) *ValidationError {
	e.Source = url
	return e
}

// Error returns one line: the package's sentinel text, the source when
// there is one, the count, then the first five problems and "and N more".
func (e *ValidationError) Error() string {
	var b strings.Builder
	if len(e.sentinels) > 0 {
		b.WriteString(e.sentinels[0].Error())
	} else {
		b.WriteString("invalid document")
	}
	if e.Source != "" {
		b.WriteString(": ")
		b.WriteString(e.Source)
	}
	b.WriteString(": ")
	b.WriteString(strconv.Itoa(len(e.Problems)))
	b.WriteString(" problem")
	if len(e.Problems) != 1 {
		b.WriteByte('s')
	}
	for i, p := range e.Problems {
		if i == shown {
			fmt.Fprintf(&b, "; and %d more", len(e.Problems)-shown)
			break
		}
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Unwrap returns the sentinels the package recorded with [New], so that
// errors.Is(err, pkg.ErrInvalid) holds.
func (e *ValidationError) Unwrap() []error { return e.sentinels }

// Has reports whether some problem has the given rule.
func (e *ValidationError) Has(rule string) bool {
	for _, p := range e.Problems {
		if p.Rule == rule {
			return true
		}
	}
	return false
}

// Rules returns the distinct rule names of the problems, sorted.
func (e *ValidationError) Rules() []string {
	out := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		out = append(out, p.Rule)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// As returns the *ValidationError in err's chain, or nil.
func As(err error) *ValidationError {
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ve
	}
	return nil
}

// Cite fills the Section of every problem that has none from sections.
// That is a package's table of the specification section that states each
// rule. A rule is looked up by its exact name, else by the longest key
// ending in "-" that prefixes it ("schema-" for every schema keyword). It
// returns ps.
func Cite(ps []Problem, sections map[string]string) []Problem {
	for i := range ps {
		if ps[i].Section != "" {
			continue
		}
		if s, ok := sections[ps[i].Rule]; ok {
			ps[i].Section = s
			continue
		}
		best := ""
		for k, s := range sections {
			if strings.HasSuffix(k, "-") && strings.HasPrefix(ps[i].Rule, k) && len(k) > len(best) {
				best, ps[i].Section = k, s
			}
		}
	}
	return ps
}
