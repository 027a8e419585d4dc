package mcpserver

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The limits remember at most maxTracked callers and targets. When the
// table is full, the entries that no longer limit anything are dropped
// first; while every entry still limits, a new key is refused for a second.
func TestTrackedBound(t *testing.T) {
	now := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }

	callers := newCallerLimits(1, 1, clock)
	targets := newTargetLimits(1, clock)
	for i := range maxTracked {
		_, ok := callers.allow(fmt.Sprintf("198.51.%d.%d", i/256, i%256))
		assert.True(t, ok)
		_, ok = targets.allow(fmt.Sprintf("site%d.example", i))
		assert.True(t, ok)
	}
	wait, ok := callers.allow("203.0.113.1")
	assert.False(t, ok, "every caller still limits: no room for a new one")
	assert.Equal(t, time.Second, wait)
	wait, ok = targets.allow("new.example")
	assert.False(t, ok, "every target still limits: no room for a new one")
	assert.Equal(t, time.Second, wait)
	assert.Len(t, callers.m, maxTracked)
	assert.Len(t, targets.m, maxTracked)

	// A minute later no entry limits anything: they are dropped, and the
	// new keys are remembered in their place.
	now = now.Add(time.Minute + time.Second)
	_, ok = callers.allow("203.0.113.1")
	assert.True(t, ok)
	_, ok = targets.allow("new.example")
	assert.True(t, ok)
	assert.Len(t, callers.m, 1)
	assert.Len(t, targets.m, 1)
}
