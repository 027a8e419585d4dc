package problem_test

import (
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/internal/problem"
)

func ExampleValidationError() {
	errInvalid := errors.New("demo: invalid document")
	err := error(problem.New([]problem.Problem{
		{Pointer: "/url", Rule: problem.RuleURLUserinfo, Message: "the URL carries user information"},
		{Pointer: "/name", Rule: "schema-required", Message: "missing member"},
	}, errInvalid))
	fmt.Println(err)
	fmt.Println(errors.Is(err, errInvalid), problem.As(err).Has(problem.RuleURLUserinfo))
	// Output:
	// demo: invalid document: 2 problems: /url: the URL carries user information [url-userinfo]; /name: missing member [schema-required]
	// true true
}
