package safefetch_test

import (
	"net/netip"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHyphenHosts fetches hosts with "--" in the third and fourth
// characters of a label, which the URL Standard accepts (CheckHyphens
// false), over real TLS; the address rules still apply to them.
func TestHyphenHosts(t *testing.T) {
	n := newNetwork(t)
	n.Site("r3---sn-4g5e6nsz.googlevideo.com", text("video"))
	c := n.Client()
	resp, err := c.Get(t.Context(), "https://R3---sn-4g5e6nsz.googlevideo.com/videoplayback", nil)
	require.NoError(t, err)
	assert.Equal(t, "video", string(resp.Body))
	assert.Equal(t, "https://r3---sn-4g5e6nsz.googlevideo.com/videoplayback", resp.FinalURL)

	for _, private := range []string{"10.0.0.7", "169.254.169.254", "::1", "fd00::1", "64:ff9b::a9fe:a9fe"} {
		n.Host("r4---sn-private.googlevideo.com", private)
		_, err = c.Get(t.Context(), "https://r4---sn-private.googlevideo.com/", nil)
		assert.ErrorIs(t, err, safefetch.ErrForbiddenAddress, private)
	}
}

// TestNAT64PrefixesOption: with the local network's NAT64 prefix named, a
// host that resolves to a translated private address is refused before any
// connection; the site itself stays reachable.
func TestNAT64PrefixesOption(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", text("ok"))
	opts := n.Options()
	opts.NAT64Prefixes = []netip.Prefix{netip.MustParsePrefix("2a00:1450:4001:812::/96")}
	c := safefetch.New(opts)
	n.Host("translated.example", "2a00:1450:4001:812::a9fe:a9fe") // 169.254.169.254
	_, err := c.Get(t.Context(), "https://translated.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
	var ae *safefetch.AddrError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "NAT64 network-specific prefix", ae.Name)
	assert.Contains(t, ae.Reason, "169.254.169.254")
	assert.Zero(t, n.Dials(netip.MustParseAddr("2a00:1450:4001:812::a9fe:a9fe")))
	resp, err := c.Get(t.Context(), "https://shop.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", string(resp.Body))
	// The literal form is judged the same way.
	_, err = c.Get(t.Context(), "https://[2a00:1450:4001:812::a00:1]/", nil)
	require.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
}
