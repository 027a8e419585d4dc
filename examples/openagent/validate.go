package main

import (
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// validateResult is the JSON printed by validate.
func validate(args []string, o cli.Output) int {
	file, data, ok := o.File(nil, args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	// The one shape every validator program prints; details holds the
	// profile and its pricing, problems the public-file findings too.
	v := cli.Validate(file, cli.KindOpenAgent, data)
	return o.JSON(v, v.Code())
}
