package main

import (
	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/openagent"
)

// validateResult is the JSON printed by validate.
type validateResult struct {
	File     string              `json:"file"`
	Valid    bool                `json:"valid"`
	Problems []problemJSON       `json:"problems,omitempty"`
	Profile  *openagent.Profile  `json:"profile,omitempty"`
	Pricing  string              `json:"pricing,omitempty"`
	Findings []openagent.Problem `json:"public_findings,omitempty"`
}

// validate parses the profile FILE and, when it is valid, reports what it
// would publish (openagent.CheckPublic).
func validate(args []string, o cli.Output) int {
	file, data, ok := o.File(nil, args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	res := validateResult{File: file}
	p, err := openagent.Parse(data)
	code := exitOK
	if err != nil {
		res.Problems = problems(err)
		code = exitInvalid
	} else {
		res.Valid = true
		res.Profile = p
		res.Findings = openagent.CheckPublic(p, nil)
		if p.Pricing != nil {
			res.Pricing = p.Pricing.String()
		}
	}
	return o.JSON(res, code)
}
