package main

import (
	"errors"
	"flag"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// validateResult is the JSON printed by validate.
type validateResult struct {
	File     string            `json:"file"`
	Valid    bool              `json:"valid"`
	Kind     string            `json:"kind,omitempty"`
	Problems []agentic.Problem `json:"problems,omitempty"`
	Error    string            `json:"error,omitempty"`
}

// validate checks FILE as a site profile, or as an action profile when it
// is one.
func validate(args []string, o cli.Output) int {
	file, data, ok := o.File(flag.NewFlagSet("validate", flag.ContinueOnError), args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	res := validateResult{File: file}
	_, err := agentic.ParseSite(data)
	var ve *agentic.ValidationError
	switch {
	case err == nil:
		res.Valid, res.Kind = true, "site"
	case errors.Is(err, agentic.ErrActionProfile):
		res.Kind = "action"
		if _, aerr := agentic.ParseActionProfile(data); aerr != nil {
			errors.As(aerr, &ve)
		} else {
			res.Valid = true
		}
	default:
		errors.As(err, &ve)
	}
	if ve != nil {
		res.Problems = ve.Problems
	}
	if res.Valid {
		return o.JSON(res, exitOK)
	}
	return o.JSON(res, exitInvalid)
}
