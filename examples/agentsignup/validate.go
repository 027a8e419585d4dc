package main

import (
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// validate parses the discovery document FILE and prints its problems and
// warnings.
func validate(args []string, o cli.Output) int {
	pos, ok := cli.Args(nil, args, 1, o.Stderr, usage)
	if !ok {
		return exitUsage
	}
	data, err := cli.ReadFile(pos[0], maxFileBytes)
	if err != nil {
		return o.Fail(exitUsage, err)
	}
	doc, err := agentsignup.Parse(data)
	r := &report{File: pos[0]}
	r.fill(doc, err)
	return r.emit(o)
}
