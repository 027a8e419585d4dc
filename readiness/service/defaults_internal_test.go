package service

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOptionDefaults: every zero field of Options takes the default its
// doc comment names, and a negative Count or CacheTTL stays off.
func TestOptionDefaults(t *testing.T) {
	st, err := OpenSQLite(":memory:")
	require.NoError(t, err)
	defer st.Close()
	svc, err := New(context.Background(), &Options{Store: st})
	require.NoError(t, err)
	defer svc.Close()
	o := svc.o
	assert.Equal(t, "http://127.0.0.1:8080", o.Origin)
	assert.Equal(t, "Agent readiness scanner", o.Name)
	assert.Equal(t, DefaultWorkers, o.Workers)
	assert.Equal(t, DefaultQueueSize, o.QueueSize)
	assert.Equal(t, Limit{Count: 20, Window: time.Hour}, o.CallerLimit)
	assert.Equal(t, Limit{Count: 6, Window: time.Hour}, o.TargetLimit)
	assert.Equal(t, Limit{Count: 120, Window: time.Minute}, o.MCPLimit)
	assert.Equal(t, DefaultCacheTTL, o.CacheTTL)
	assert.Equal(t, DefaultLeaseTTL, o.LeaseTTL)
	assert.Equal(t, time.Second, o.PollInterval)
	assert.Equal(t, 10*time.Second, o.ShutdownGrace)

	// A zero Window takes the default one, whatever the Count.
	off, err := New(context.Background(), &Options{Store: st, CacheTTL: -1,
		CallerLimit: Limit{Count: -1}, TargetLimit: Limit{Count: 3}})
	require.NoError(t, err)
	defer off.Close()
	assert.Equal(t, Limit{Count: -1, Window: time.Hour}, off.o.CallerLimit)
	assert.Equal(t, Limit{Count: 3, Window: time.Hour}, off.o.TargetLimit)
	assert.Negative(t, off.o.CacheTTL)
}
