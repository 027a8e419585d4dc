// Command conformanceclient runs mcpprobe.Probe on the URL it is given and
// prints the receipt as JSON. It is the client command the official MCP
// conformance suite starts against each of its client scenarios. Loopback
// and plain http are allowed, as the suite's servers listen there.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformanceclient URL")
		os.Exit(2)
	}
	c := safefetch.New(&safefetch.Options{AllowLoopback: true})
	r, err := mcpprobe.Probe(context.Background(), os.Args[len(os.Args)-1], &mcpprobe.Options{Client: c})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	fmt.Println(string(b))
	if !r.Outcome.IsMCP() {
		os.Exit(1)
	}
}
