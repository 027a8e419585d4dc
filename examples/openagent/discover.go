package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch"
)

// discover finds the OpenAgent descriptors PAGE advertises with
// openagent.DiscoverAll. It exits 1 when none was found and every failure
// was an HTTP status. It exits 3 when the page could not be read, or none
// was found and some failure was not an HTTP status.
func discover(ctx context.Context, args []string, o cli.Output, client *safefetch.Client) int {
	pos, ok := o.Args(nil, args, 1)
	if !ok {
		return exitUsage
	}
	d, err := openagent.Discover(ctx, pos[0], &openagent.FetchOptions{Client: client})
	if d == nil {
		fmt.Fprintln(o.Stderr, err)
		return exitNetwork
	}
	code := exitOK
	if len(d.Descriptors) == 0 {
		code = exitInvalid
		for _, f := range d.Failures {
			if !errors.Is(f.Err(), safefetch.ErrStatus) {
				code = exitNetwork
			}
		}
	}
	return o.JSON(d, code)
}
