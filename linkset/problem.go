package linkset

import (
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/internal/problem"
)

// ErrInvalid is wrapped by every *ValidationError of this package, so that
// callers can test errors.Is(err, linkset.ErrInvalid).
var ErrInvalid = errors.New("linkset: invalid document")

// Problem is one finding about a document. It holds the JSON Pointer
// of the offending value, a stable rule name (one of the Rule
// constants) and a message. It also holds the section of the
// knowledge-linkset draft that states the rule, and its severity. It
// is the one Problem type of the module.
//
// Problem is an alias of the module's one Problem type; go doc does not
// show an alias's fields and methods, so here they are:
//
//	type Problem struct {
//		Pointer  string   // JSON Pointer (RFC 6901) of the offending value; "" is the whole document
//		Rule     string   // stable, machine-readable rule name, one of the Rule constants
//		Message  string   // what is wrong, in words a person understands
//		Section  string   // the section of the specification that states the rule, or ""
//		Severity Severity // SeverityError unless the finding is only a warning or a notice
//	}
//
//	func (p Problem) String() string // "pointer: message [rule]", or "... [rule, section S]"
type Problem = problem.Problem

// ValidationError lists every problem that made a document unreadable or
// non-conformant, never only the first. It wraps [ErrInvalid].
//
// ValidationError is an alias of the module's one ValidationError type;
// go doc does not show an alias's fields and methods, so here they are:
//
//	type ValidationError struct {
//		Source   string    // the URL the document was fetched from, or "" when parsed from bytes
//		Problems []Problem // the findings of severity error, in a stable order
//		Warnings []Problem // findings that do not break conformance on their own
//	}
//
//	func (e *ValidationError) Error() string                          // one line: the count, the first five problems, "and N more"
//	func (e *ValidationError) Has(rule string) bool                   // whether some problem has the rule
//	func (e *ValidationError) Rules() []string                        // the distinct rule names, sorted
//	func (e *ValidationError) Unwrap() []error                        // the package's sentinels: errors.Is(err, ErrInvalid)
//	func (e *ValidationError) WithSource(url string) *ValidationError // e with Source set to url
type ValidationError = problem.ValidationError

// Severity says whether a [Problem] breaks conformance.
//
// Severity is an alias of the module's one Severity type (a uint8 whose
// zero value is SeverityError); go doc does not show an alias's methods,
// so here they are:
//
//	func (s Severity) String() string               // "error", "warning" or "notice"
//	func (s Severity) MarshalText() ([]byte, error) // its String, in JSON
//	func (s *Severity) UnmarshalText(b []byte) error // reads "error", "warning" or "notice"
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
