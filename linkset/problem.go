package linkset

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is wrapped by every *ValidationError, so that callers can test
// errors.Is(err, linkset.ErrInvalid).
var ErrInvalid = errors.New("linkset: invalid document")

// Severity says whether a [Problem] breaks conformance.
type Severity uint8

const (
	// Error is a violation of the draft: the document does not conform.
	Error Severity = iota
	// Notice reports something a client ignores or reads as most
	// restrictive, as the draft tells it to (Sections 4.1, 4.2, 4.3, 4.3.3);
	// it never affects conformance.
	Notice
)

// String returns "error" or "notice".
func (s Severity) String() string {
	if s == Notice {
		return "notice"
	}
	return "error"
}

// MarshalText writes the severity as its String.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Problem is one finding about a document.
type Problem struct {
	// Pointer is the RFC 6901 JSON Pointer of the offending value ("" is the
	// whole document).
	Pointer string `json:"pointer"`
	// Rule is a stable, machine-readable rule name such as "href-order".
	Rule string `json:"rule"`
	// Section is the section of draft-besleaga-agentic-knowledge-wellknown-00
	// that states the rule, such as "4.3.1".
	Section string `json:"section"`
	// Message says what is wrong in words a person understands.
	Message string `json:"message"`
	// Severity is Error unless the finding is only a Notice.
	Severity Severity `json:"severity"`
}

// String formats the problem as "pointer: message [rule, section N]".
func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(document)"
	}
	return fmt.Sprintf("%s: %s [%s, section %s]", ptr, p.Message, p.Rule, p.Section)
}

// ValidationError lists every problem that made a document unreadable or
// non-conformant, never only the first.
type ValidationError struct {
	Problems []Problem
}

// Error summarises the problems.
func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "linkset: %d problem(s)", len(e.Problems))
	for i, p := range e.Problems {
		if i == 5 {
			fmt.Fprintf(&b, "; and %d more", len(e.Problems)-5)
			break
		}
		b.WriteString("; ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Unwrap returns ErrInvalid.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// problems collects findings.
type problems struct {
	errs  []Problem
	notes []Problem
}

func (ps *problems) add(ptr, rule, section, format string, args ...any) {
	ps.errs = append(ps.errs, Problem{Pointer: ptr, Rule: rule, Section: section, Message: fmt.Sprintf(format, args...)})
}

func (ps *problems) note(ptr, rule, section, format string, args ...any) {
	ps.notes = append(ps.notes, Problem{Pointer: ptr, Rule: rule, Section: section, Message: fmt.Sprintf(format, args...), Severity: Notice})
}
