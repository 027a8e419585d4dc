package safefetch

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestZeroOptionsTakeEveryDefault holds the Options doc's "0 means
// DefaultX" for every field, nil Options and the zero value alike.
func TestZeroOptionsTakeEveryDefault(t *testing.T) {
	for name, o := range map[string]*Options{"nil": nil, "zero": {}} {
		n := o.normalized()
		assert.Equal(t, DefaultMaxRedirects, n.MaxRedirects, name)
		assert.Equal(t, DefaultMaxBodyBytes, n.MaxBodyBytes, name)
		assert.Equal(t, DefaultMaxHeaderBytes, n.MaxHeaderBytes, name)
		assert.Equal(t, DefaultTimeout, n.Timeout, name)
		assert.Equal(t, DefaultDNSTimeout, n.DNSTimeout, name)
		assert.Equal(t, DefaultUserAgent, n.UserAgent, name)
		assert.Equal(t, DefaultMaxConnsPerHost, n.MaxConnsPerHost, name)
		assert.Equal(t, DefaultIdleConnTimeout, n.IdleConnTimeout, name)
	}
	assert.Equal(t, DefaultDNSGrace, NewBudget(BudgetLimits{}).Limits().DNSGrace,
		"a zero DNSGrace means DefaultDNSGrace")
}

// TestTransportPoolFollowsOptions holds the pool rule of
// [Options.MaxConnsPerHost]: no total idle cap, and every connection of a
// host may stay idle until IdleConnTimeout.
func TestTransportPoolFollowsOptions(t *testing.T) {
	n := (&Options{MaxConnsPerHost: 7, IdleConnTimeout: 3 * time.Second}).normalized()
	tr := newTransport(&n)
	assert.Zero(t, tr.MaxIdleConns, "no total cap on idle connections")
	assert.Equal(t, 7, tr.MaxConnsPerHost)
	assert.Equal(t, 7, tr.MaxIdleConnsPerHost, "every connection of a host may stay idle")
	assert.Equal(t, n.IdleConnTimeout, tr.IdleConnTimeout)
	assert.Equal(t, n.MaxHeaderBytes, tr.MaxResponseHeaderBytes)
	assert.Nil(t, tr.Proxy, "the environment's proxy variables are never read")
	assert.True(t, tr.DisableCompression, "no transparent decompression")
}
