package safefetch

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNAT64EmbeddedRFC6052 decodes the examples of RFC 6052 Section 2.4, the
// address 192.0.2.33 translated with a prefix of every length.
func TestNAT64EmbeddedRFC6052(t *testing.T) {
	for _, c := range []struct {
		prefix, addr string
	}{
		{"2001:db8::/32", "2001:db8:c000:221::"},
		{"2001:db8:100::/40", "2001:db8:1c0:2:21::"},
		{"2001:db8:122::/48", "2001:db8:122:c000:2:2100::"},
		{"2001:db8:122:300::/56", "2001:db8:122:3c0:0:221::"},
		{"2001:db8:122:344::/64", "2001:db8:122:344:c0:2:2100:0"},
		{"2001:db8:122:344::/96", "2001:db8:122:344::192.0.2.33"},
		{"64:ff9b::/96", "64:ff9b::192.0.2.33"},
	} {
		p := netip.MustParsePrefix(c.prefix)
		a := netip.MustParseAddr(c.addr)
		require.True(t, p.Contains(a))
		assert.Equal(t, "192.0.2.33", nat64Embedded(a.As16(), p.Bits()).String(), c.prefix)
	}
}

// nsp builds the address that translates v4 with the network-specific
// prefix p, by the layout of RFC 6052 Section 2.2 (u octet zero).
func nsp(p netip.Prefix, v4 string) netip.Addr {
	b := p.Addr().As16()
	v := netip.MustParseAddr(v4).As4()
	pos := p.Bits() / 8
	for _, x := range v {
		if pos == 8 {
			pos++ // the u octet
		}
		b[pos] = x
		pos++
	}
	return netip.AddrFrom16(b)
}

func TestNAT64Prefixes(t *testing.T) {
	// Global unicast prefixes, so that CheckAddr alone accepts every
	// address in them: the option is what refuses.
	lengths := []string{"2a00:1450::/32", "2a00:1450:4000::/40", "2a00:1450:4001::/48", "2a00:1450:4001:100::/56", "2a00:1450:4001:812::/64", "2a00:1450:4001:812::/96"}
	for _, ps := range lengths {
		p := netip.MustParsePrefix(ps).Masked()
		c := New(&Options{NAT64Prefixes: []netip.Prefix{p}})
		t.Run(ps, func(t *testing.T) {
			for _, v4 := range []string{"10.0.0.1", "127.0.0.1", "169.254.169.254", "192.168.1.1", "0.0.0.0", "255.255.255.255", "100.64.0.1"} {
				a := nsp(p, v4)
				require.NoError(t, CheckAddr(a), "CheckAddr alone accepts %s", a)
				err := c.classify("nat64.example", a)
				var ae *AddrError
				require.ErrorAs(t, err, &ae, "%s embeds %s", a, v4)
				assert.ErrorIs(t, err, ErrForbiddenAddress)
				assert.Equal(t, p, ae.Block)
				assert.Equal(t, "nat64.example", ae.Host)
				assert.Contains(t, ae.Reason, v4)
			}
			for _, v4 := range []string{"8.8.8.8", "1.0.0.0", "223.255.255.255", "93.184.216.34"} {
				assert.NoError(t, c.classify("nat64.example", nsp(p, v4)), v4)
			}
			// Both edges of the prefix: its first address embeds 0.0.0.0;
			// its last has a non-zero u octet (or, for /96, embeds
			// 255.255.255.255). Just outside, the address is not decoded.
			assert.Error(t, c.classify("", p.Masked().Addr()))
			assert.Error(t, c.classify("", lastAddrOf(p)))
			assert.NoError(t, c.classify("", p.Masked().Addr().Prev()))
			assert.NoError(t, c.classify("", lastAddrOf(p).Next()))
			// Without the option the same translated private address passes.
			assert.NoError(t, New(nil).classify("", nsp(p, "10.0.0.1")))
		})
	}
	t.Run("non-zero u octet", func(t *testing.T) {
		p := netip.MustParsePrefix("2a00:1450:4001:812::/64")
		c := New(&Options{NAT64Prefixes: []netip.Prefix{p}})
		b := nsp(p, "8.8.8.8").As16()
		b[8] = 1
		err := c.classify("", netip.AddrFrom16(b))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "u octet")
	})
	t.Run("a length RFC 6052 does not define refuses the whole prefix", func(t *testing.T) {
		p := netip.MustParsePrefix("2a00:1450:4001::/50")
		c := New(&Options{NAT64Prefixes: []netip.Prefix{p}})
		assert.Error(t, c.classify("", nsp(netip.MustParsePrefix("2a00:1450:4001::/48"), "8.8.8.8")))
		assert.NoError(t, c.classify("", netip.MustParseAddr("2a00:1450:4002::1")))
	})
	t.Run("the option never accepts what CheckAddr refuses", func(t *testing.T) {
		p := netip.MustParsePrefix("fd00:64::/96")
		c := New(&Options{NAT64Prefixes: []netip.Prefix{p}})
		assert.Error(t, c.classify("", nsp(p, "8.8.8.8")))
	})
	t.Run("entries that are not IPv6 prefixes are ignored", func(t *testing.T) {
		c := New(&Options{NAT64Prefixes: []netip.Prefix{{}, netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2a00:1450:4001:812::1/96")}})
		assert.Equal(t, []netip.Prefix{netip.MustParsePrefix("2a00:1450:4001:812::/96")}, c.opts.NAT64Prefixes)
		assert.NoError(t, c.classify("", netip.MustParseAddr("2a00:1450:4001:812::808:808")))
		assert.Error(t, c.classify("", netip.MustParseAddr("2a00:1450:4001:812::a00:1")))
	})
}

func TestISATAP(t *testing.T) {
	for _, c := range []struct {
		addr string
		ok   bool
	}{
		{"2a00:1450:4001:812:0:5efe:10.0.0.1", false},
		{"2a00:1450:4001:812:200:5efe:10.0.0.1", false},
		{"2a00:1450:4001:812:200:5efe:192.168.0.1", false},
		{"2a00:1450:4001:812:0:5efe:127.0.0.1", false},
		{"2a00:1450:4001:812:0:5efe:169.254.169.254", false},
		{"2a00:1450:4001:812:100:5efe:10.0.0.1", false}, // the g bit is not looked at
		{"2a00:1450:4001:812:300:5efe:10.0.0.1", false},
		// Both edges of the IPv4 space.
		{"2a00:1450:4001:812:0:5efe:0.0.0.0", false},
		{"2a00:1450:4001:812:0:5efe:255.255.255.255", false},
		{"2a00:1450:4001:812:200:5efe:1.0.0.0", true},
		{"2a00:1450:4001:812:200:5efe:223.255.255.255", true},
		{"2a00:1450:4001:812:200:5efe:8.8.8.8", true},
		// Not ISATAP identifiers: judged as plain global unicast.
		{"2a00:1450:4001:812:400:5efe:10.0.0.1", true},
		{"2a00:1450:4001:812:0:5eff:10.0.0.1", true},
		{"2a00:1450:4001:812:0:5efd:10.0.0.1", true},
		{"2a00:1450:4001:812:1:5efe:10.0.0.1", true},
		// In a refused block anyway.
		{"fe80::5efe:8.8.8.8", false},
		{"2001:db8::200:5efe:8.8.8.8", false},
	} {
		err := CheckAddr(netip.MustParseAddr(c.addr))
		assert.Equal(t, c.ok, err == nil, "%s: %v", c.addr, err)
		var ae *AddrError
		if err != nil && errors.As(err, &ae) && !c.ok && c.addr[:4] == "2a00" {
			assert.Contains(t, ae.Reason, "ISATAP", c.addr)
		}
	}
}
