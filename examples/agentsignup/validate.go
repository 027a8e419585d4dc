package main

import (
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// validate parses the discovery document FILE and prints its problems and
// warnings.
func validate(args []string, o cli.Output) int {
	file, data, ok := o.File(nil, args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	// The one shape every validator program prints; details holds the
	// terms hash, problems the warnings too.
	v := cli.Validate(file, cli.KindAgentSignup, data)
	return o.JSON(v, v.Code())
}
