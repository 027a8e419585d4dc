package linkset

import (
	"errors"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// strictProblem reports a refusal of internal/strictjson, which reads JSON
// strictly (RFC 8259 with the I-JSON rules). It refuses a duplicate member
// name, invalid UTF-8, a lone surrogate, a byte-order mark, trailing data,
// excessive depth or an out-of-range number (Section 4.1).
func strictProblem(err error) Problem {
	var se *strictjson.Error
	if errors.As(err, &se) {
		return Problem{Pointer: se.Pointer, Rule: se.Rule, Section: "4.1", Message: se.Message}
	}
	return Problem{Rule: strictjson.RuleSyntax, Section: "4.1", Message: err.Error()}
}
