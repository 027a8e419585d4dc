package agentic

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPublicAddr(t *testing.T) {
	tests := map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true, "1.1.1.1": true,
		"10.1.2.3": false, "127.0.0.1": false, "169.254.169.254": false, "100.64.0.1": false,
		"192.0.2.1": false, "198.18.0.1": false, "224.0.0.1": false, "255.255.255.255": false, "0.0.0.0": false,
		"::1": false, "::": false, "::ffff:10.0.0.1": false, "::ffff:8.8.8.8": true, "fe80::1": false,
		"fc00::1": false, "2001:db8::1": false, "ff02::1": false, "64:ff9b::a00:1": false, "2002:a00:1::": false,
		"4000::1": false,
	}
	for s, want := range tests {
		t.Run(s, func(t *testing.T) {
			assert.Equal(t, want, publicAddr(netip.MustParseAddr(s)))
		})
	}
	assert.False(t, publicAddr(netip.MustParseAddr("fe80::1%eth0")))
}
