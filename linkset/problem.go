package linkset

import (
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/internal/problem"
)

// ErrInvalid is wrapped by every *ValidationError of this package, so that
// callers can test errors.Is(err, linkset.ErrInvalid).
var ErrInvalid = errors.New("linkset: invalid document")

// Problem is one finding about a document: the JSON Pointer of the
// offending value, a stable rule name (one of the Rule constants), a
// message, the section of the knowledge-linkset draft that states the
// rule, and its severity. It is the one Problem type of the module.
type Problem = problem.Problem

// ValidationError lists every problem that made a document unreadable or
// non-conformant, never only the first. It wraps [ErrInvalid].
type ValidationError = problem.ValidationError

// Severity says whether a [Problem] breaks conformance.
type Severity = problem.Severity

const (
	// SeverityError is a violation of the draft: the document does not
	// conform.
	SeverityError = problem.SeverityError
	// SeverityNotice reports something a client ignores or reads as most
	// restrictive, as the draft tells it to (Sections 4.1, 4.2, 4.3 and
	// 4.3.3); it never affects conformance.
	SeverityNotice = problem.SeverityNotice
)

// problems collects findings.
type problems struct {
	errs  []Problem
	notes []Problem
}

func (ps *problems) add(ptr, rule, section, format string, args ...any) {
	ps.errs = append(ps.errs, Problem{Pointer: ptr, Rule: rule, Section: section, Message: fmt.Sprintf(format, args...)})
}

func (ps *problems) note(ptr, rule, section, format string, args ...any) {
	ps.notes = append(ps.notes, Problem{Pointer: ptr, Rule: rule, Section: section, Message: fmt.Sprintf(format, args...), Severity: SeverityNotice})
}

// invalid wraps problems in a *ValidationError that wraps ErrInvalid.
func invalid(ps []Problem) *ValidationError { return problem.New(ps, ErrInvalid) }

// problem1 is a *ValidationError with one problem, wrapping sentinel.
func problem1(sentinel error, p Problem) *ValidationError {
	return problem.New([]Problem{p}, sentinel)
}

// asValidationError returns the *ValidationError in err's chain, or nil.
func asValidationError(err error) *ValidationError { return problem.As(err) }
