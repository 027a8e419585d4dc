package main

import (
	"flag"

	"github.com/agentweb/agentweb/examples/internal/cli"
)

// validateResult is the JSON printed by validate.
func validate(args []string, o cli.Output) int {
	file, data, ok := o.File(flag.NewFlagSet("validate", flag.ContinueOnError), args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	// The one shape every validator program prints: an Action Profile is
	// kind agentic_action.
	v := cli.Validate(file, cli.KindAgenticSite, data)
	return o.JSON(v, v.Code())
}
