package main

import (
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// hash prints agentsignup.TermsHash of the exact bytes of TERMS-FILE.
func hash(args []string, o cli.Output) int {
	pos, ok := cli.Args(nil, args, 1, o.Stderr, usage)
	if !ok {
		return exitUsage
	}
	data, err := cli.ReadFile(pos[0], maxFileBytes)
	if err != nil {
		return o.Fail(exitUsage, err)
	}
	return o.JSON(map[string]any{"file": pos[0], "bytes": len(data), "sha256": agentsignup.TermsHash(string(data))}, exitOK)
}
