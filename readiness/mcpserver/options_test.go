package mcpserver_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/mcpserver"
)

func TestNewRefusesNegativeLimits(t *testing.T) {
	for _, o := range []mcpserver.Options{
		{MaxConcurrent: -1}, {CallTimeout: -1}, {MaxRequestBytes: -1}, {CallerBurst: -1}, {SessionTimeout: -1},
	} {
		_, err := mcpserver.New(&o)
		assert.ErrorIs(t, err, mcpserver.ErrOptions, "%+v", o)
	}
	for _, o := range []mcpserver.Options{{MaxQueued: -1}, {CallerRate: -1}, {TargetPerMinute: -1}} {
		_, err := mcpserver.New(&o)
		assert.NoError(t, err, "a negative %+v means none", o)
	}
}

// The zero Options hold one target site to DefaultTargetPerMinute calls
// that fetch from it, over HTTP, and not over stdio.
func TestDefaultTargetLimit(t *testing.T) {
	n := world(t)
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client()})
	require.NoError(t, err)
	cs := connectHTTP(t, srv)
	args := map[string]any{"kind": "agents_json", "url": "https://tea.example/.well-known/agents.json"}
	for range mcpserver.DefaultTargetPerMinute {
		assert.False(t, callTool(t, cs, "validate_document", args).IsError)
	}
	r := callTool(t, cs, "validate_document", args)
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "busy: tea.example has had 3 calls")

	stdio := connectStdio(t, srv)
	for range mcpserver.DefaultTargetPerMinute + 2 {
		assert.False(t, callTool(t, stdio, "validate_document", args).IsError, "stdio has no per-target limit")
	}
}
