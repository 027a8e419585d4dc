package main

import (
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// validate parses the discovery document FILE and prints its problems and
// warnings.
func validate(args []string, o cli.Output) int {
	file, data, ok := o.File(nil, args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	doc, err := agentsignup.Parse(data)
	r := &report{File: file}
	r.fill(doc, err)
	return r.emit(o)
}
