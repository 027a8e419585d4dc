package main

import (
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// hash prints agentsignup.TermsHash of the exact bytes of TERMS-FILE.
func hash(args []string, o cli.Output) int {
	file, data, ok := o.File(nil, args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	return o.JSON(map[string]any{"file": file, "bytes": len(data), "sha256": agentsignup.TermsHash(string(data))}, exitOK)
}
