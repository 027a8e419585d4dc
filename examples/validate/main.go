// Command validate validates any of the five documents agentweb knows from
// a file. They are an Agentic Site Profile (or Action Profile), an
// OpenAgent profile and a knowledge linkset. Then an agent-signup
// document, or an agents.json capability card. It detects the kind from
// the document's own members (-kind names it instead) and prints the one
// JSON shape every validator program of this module prints:
//
//	{"source": FILE, "kind": KIND, "valid": BOOL, "problems": [...], "details": {...}}
//
//	validate [-kind agentic_site|openagent|knowledge_linkset|agent_signup|agents_json] FILE
//
// It exits 0 when the document is valid, 1 when it is not, and 2 on a
// usage error or a file it cannot read.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/agentweb/agentweb/examples/internal/cli"
)

// maxFileBytes bounds the file read: the largest document of the five
// kinds (a knowledge linkset) is at most one mebibyte.
const maxFileBytes = 1 << 20

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	o := cli.Output{Name: "validate", Usage: "usage: validate [-kind KIND] FILE\n", Stdout: stdout, Stderr: stderr}
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	kind := fs.String("kind", "", "the document's kind, detected when empty: one of agentic_site, openagent, knowledge_linkset, agent_signup, agents_json")
	file, data, ok := o.File(fs, args, maxFileBytes)
	if !ok {
		return cli.ExitUsage
	}
	k := *kind
	if k == "" {
		var err error
		if k, err = cli.DetectKind(data); err != nil {
			return o.Fail(cli.ExitUsage, fmt.Errorf("%s: %w", file, err))
		}
	} else if !slices.Contains(cli.Kinds, k) {
		return o.Fail(cli.ExitUsage, fmt.Errorf("-kind %q is none of %v", k, cli.Kinds))
	}
	v := cli.Validate(file, k, data)
	return o.JSON(v, v.Code())
}
