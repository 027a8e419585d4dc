package readiness

import (
	"errors"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
)

// This file bridges the spec packages' own Problem and ValidationError types
// to internal/problem's until each package makes them aliases of those; once
// all four do, problem.As finds every validation error, each function here is
// the identity, and the file goes.

// legacyValidationProblems finds a spec package's own ValidationError in
// err's chain.
func legacyValidationProblems(err error) ([]problem.Problem, bool) {
	var (
		a *agentic.ValidationError
		l *linkset.ValidationError
		o *openagent.ValidationError
		s *agentsignup.ValidationError
	)
	switch {
	case errors.As(err, &a):
		return toProblems(a.Problems, func(p agentic.Problem) problem.Problem {
			return problem.Problem{Pointer: p.Pointer, Rule: p.Rule, Message: p.Message}
		}), true
	case errors.As(err, &l):
		return linksetProblems(l.Problems), true
	case errors.As(err, &o):
		return toProblems(o.Problems, func(p openagent.Problem) problem.Problem {
			return problem.Problem{Pointer: p.Pointer, Rule: p.Rule, Message: p.Message}
		}), true
	case errors.As(err, &s):
		return signupWarnings(s.Problems), true
	}
	return nil, false
}

// linksetProblems reads linkset problems (Document.Check's) as problem.Problem.
func linksetProblems(ps []linkset.Problem) []problem.Problem {
	return toProblems(ps, func(p linkset.Problem) problem.Problem {
		return problem.Problem{Pointer: p.Pointer, Rule: p.Rule, Message: p.Message}
	})
}

// signupWarnings reads agentsignup problems (a document's warnings) as
// problem.Problem.
func signupWarnings(ps []agentsignup.Problem) []problem.Problem {
	return toProblems(ps, func(p agentsignup.Problem) problem.Problem {
		return problem.Problem{Pointer: p.Pointer, Rule: p.Rule, Message: p.Message}
	})
}

func toProblems[P any](ps []P, f func(P) problem.Problem) []problem.Problem {
	out := make([]problem.Problem, len(ps))
	for i, p := range ps {
		out[i] = f(p)
	}
	return out
}
