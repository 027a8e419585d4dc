package safefetch

import (
	"context"
	"net"
	"net/netip"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pinned dialer is the last line: it refuses to dial without a pin, for
// another host, or (through the default dialer's Control hook) to an
// address that does not classify, before any packet is sent.
func TestPinnedDialerRefuses(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan struct{}, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	loop := netip.MustParseAddr("127.0.0.1")
	addr := net.JoinHostPort("h.example", strconv.Itoa(port))
	tr := newTransport(&Options{}) // the default dialer, no development mode
	dial := tr.DialContext
	pinned := func(host string) context.Context {
		return context.WithValue(t.Context(), pinKey{}, &pin{host: host, addrs: []netip.Addr{loop}})
	}

	_, err = dial(t.Context(), "tcp", addr)
	require.ErrorIs(t, err, ErrForbiddenAddress, "no pin")
	_, err = dial(pinned("other.example"), "tcp", addr)
	require.ErrorIs(t, err, ErrForbiddenAddress, "pin for another host")
	_, err = dial(pinned("h.example"), "tcp", addr)
	require.ErrorIs(t, err, ErrForbiddenAddress, "the Control hook classifies the socket address")
	assert.Empty(t, accepted, "nothing reached the listener")

	dev := newTransport(&Options{AllowLoopback: true})
	c, err := dev.DialContext(pinned("h.example"), "tcp", addr)
	require.NoError(t, err, "development mode reaches loopback")
	c.Close()
	<-accepted
}
