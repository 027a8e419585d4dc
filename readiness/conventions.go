package readiness

import (
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/strictjson"
)

var errNotObject = errors.New("not a JSON object")

// maxProblemNotes bounds the validation problems a receipt lists.
const maxProblemNotes = 20

// problemNote is one validation problem as a receipt note: its JSON
// Pointer ("/" for the whole document), its rule and its message.
func problemNote(p problem.Problem) string {
	pointer := p.Pointer
	if pointer == "" {
		pointer = "/"
	}
	return shorten.Runes(clean(fmt.Sprintf("%s [%s] %s", pointer, p.Rule, p.Message)), 240)
}

// problemNotes is the one reading of a validator's error for every spec
// package: agentic, linkset, openagent, agentsignup. A *problem.ValidationError
// gives one note per problem. Any other error gives its text, and nil no note.
func problemNotes(err error) []string {
	if err == nil {
		return nil
	}
	ps, ok := validationProblems(err)
	if !ok {
		return []string{clean(err.Error())}
	}
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, problemNote(p))
	}
	return out
}

// validationProblems returns the problems of the validation error in err's
// chain, if there is one.
func validationProblems(err error) ([]problem.Problem, bool) {
	if ve := problem.As(err); ve != nil {
		return ve.Problems, true
	}
	return nil, false
}

// capNotes keeps at most maxProblemNotes notes and says how many were left
// out.
func capNotes(notes []string) []string {
	if len(notes) <= maxProblemNotes {
		return notes
	}
	return append(notes[:maxProblemNotes:maxProblemNotes], fmt.Sprintf("… and %d more problems", len(notes)-maxProblemNotes))
}

// convention builds the outcome of one of the eight optional conventions. Each
// is recorded as found or absent, with weight 0 and the verdict optional, never
// scored in either direction. A document found but invalid is reported as
// found, with its validation problems in the receipt's notes. The conventions
// this module implements are validated with their own packages: agentic,
// linkset, openagent and agentsignup.
//
// convention builds the outcome of an optional convention from its fetch:
// found (valid or not), absent, or unverified when the request went
// unanswered.
func convention(f *fetched, found bool, what string, problems []string) outcome {
	out := outcome{requests: []*fetched{f}, notes: capNotes(problems)}
	switch {
	case found && len(problems) == 0:
		out.verdict, out.received = VerdictOptional, "found: "+what+" at "+f.url
	case found:
		out.verdict, out.received = VerdictOptional, fmt.Sprintf("found at %s, with %s: %s", f.url, plural.N(len(problems), "validation problem", "validation problems"), what)
	case !f.answered():
		out.verdict, out.received = VerdictUnverified, f.url+": "+f.why()
	default:
		out.verdict, out.received = VerdictOptional, fmt.Sprintf("absent (%s: %d)", f.url, f.status())
	}
	return out
}

// jsonObject reads a 2xx non-HTML answer as a JSON object; found is false
// when the answer is not a document at all (an error status or an HTML
// fallback page).
func jsonObject(f *fetched) (m map[string]any, found bool, problems []string) {
	if !f.ok() || looksLikeHTML(f.body()) {
		return nil, false, nil
	}
	v, err := strictjson.Decode(f.body())
	if err != nil {
		return nil, true, []string{"not valid JSON: " + clean(err.Error())}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, true, []string{"not a JSON object"}
	}
	return m, true, nil
}

var errForeignAgentic = errors.New(`not an Agentic Site Profile: no "agentic" version member`)
