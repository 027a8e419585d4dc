package agentweb_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch"
)

// A password in a URL given to any entry point never reaches its error:
// every package wraps the fetcher's refusal with the URL through one
// redaction, and the batch's results name the site redacted too.
func TestCredentialsInURLsNeverLeak(t *testing.T) {
	const secret = "s3cret-pw"
	ctx := context.Background()
	base := "https://user:" + secret + "@shop.example"
	calls := map[string]func() error{
		"linkset.Fetch": func() error {
			_, err := linkset.Fetch(ctx, base+linkset.WellKnownPath, nil)
			return err
		},
		"linkset.Discover": func() error {
			_, err := linkset.Discover(ctx, base+"/", nil)
			return err
		},
		"agentic.Audit": func() error {
			_, err := agentic.Audit(ctx, base+"/agentic.json", nil)
			return err
		},
		"agentic.Discover": func() error {
			_, err := agentic.Discover(ctx, base, nil)
			return err
		},
		"agentsignup.Fetch": func() error {
			_, err := agentsignup.Fetch(ctx, base, nil)
			return err
		},
		"openagent.Fetch": func() error {
			_, err := openagent.Fetch(ctx, base+openagent.WellKnownPath, nil)
			return err
		},
		"mcpprobe.Probe": func() error {
			_, err := mcpprobe.Probe(ctx, base+"/mcp", nil)
			return err
		},
		"readiness.Scan": func() error {
			_, err := readiness.Scan(ctx, base+"/", nil)
			return err
		},
		"safefetch.Client.Get": func() error {
			_, err := safefetch.Default().Get(ctx, base+"/", nil)
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.Error(t, err, "a URL with credentials is refused")
			assert.NotContains(t, err.Error(), secret)
		})
	}
	t.Run("readiness.ScanAll", func(t *testing.T) {
		for r := range readiness.ScanAll(ctx, slices.Values([]string{base + "/"}), nil) {
			require.Error(t, r.Err)
			assert.NotContains(t, r.Err.Error(), secret)
			assert.NotContains(t, r.Site, secret)
			assert.Equal(t, "https://redacted@shop.example/", r.Site)
		}
	})
}
