package fetchtest_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func hello(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, name) })
}

func TestSitesAndRecords(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("a.example", hello("a"))
	n.Site("B.Example.", hello("b")) // names are case-insensitive, one trailing dot dropped
	assert.Equal(t, fetchtest.FirstAddr, n.Addr("a.example"))
	assert.Equal(t, fetchtest.FirstAddr.Next(), n.Addr("b.example"))
	assert.False(t, n.Addr("none.example").IsValid())
	require.NoError(t, safefetch.CheckAddr(n.Addr("a.example")), "site addresses pass the production check")

	c := n.Client()
	resp, err := c.Get(t.Context(), "https://b.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "b", string(resp.Body))
	assert.Equal(t, netip.AddrPortFrom(n.Addr("b.example"), 443), resp.RemoteAddr)

	n.Site("a.example", hello("a2")) // a new handler, same address
	resp, err = c.Get(t.Context(), "https://a.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "a2", string(resp.Body))
	assert.Equal(t, fetchtest.FirstAddr, resp.RemoteAddr.Addr())

	r := n.Options().Resolver
	t.Run("records", func(t *testing.T) {
		n.Host("alias.example", n.Addr("a.example").String(), "2001:4860::1")
		got, err := r.LookupNetIP(t.Context(), "ip", "alias.example")
		require.NoError(t, err)
		assert.Equal(t, []netip.Addr{n.Addr("a.example"), netip.MustParseAddr("2001:4860::1")}, got)
		got, err = r.LookupNetIP(t.Context(), "ip6", "alias.example")
		require.NoError(t, err)
		assert.Equal(t, []netip.Addr{netip.MustParseAddr("2001:4860::1")}, got)
		got, err = r.LookupNetIP(t.Context(), "ip4", "alias.example")
		require.NoError(t, err)
		assert.Equal(t, []netip.Addr{n.Addr("a.example")}, got)
	})
	t.Run("nxdomain", func(t *testing.T) {
		n.Host("gone.example")
		for _, h := range []string{"gone.example", "never.example"} {
			_, err := r.LookupNetIP(t.Context(), "ip", h)
			var dnsErr *net.DNSError
			require.ErrorAs(t, err, &dnsErr)
			assert.True(t, dnsErr.IsNotFound)
		}
		_, err := c.Get(t.Context(), "https://gone.example/", nil)
		require.ErrorIs(t, err, safefetch.ErrDNS)
	})
	t.Run("a canceled lookup", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := r.LookupNetIP(ctx, "ip", "a.example")
		require.Error(t, err)
	})
	t.Run("Site panics on a host that is not a name", func(t *testing.T) {
		for _, h := range []string{"", "a.example:8443", "[::1]", "a.example/x", "93.184.215.77"} {
			assert.Panics(t, func() { n.Site(h, hello("x")) }, h)
		}
	})
	t.Run("Host panics on a bad address", func(t *testing.T) {
		assert.Panics(t, func() { n.Host("bad.example", "not-an-ip") })
	})
}

func TestDial(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("a.example", hello("a"))
	dial := n.Options().Dial
	a := n.Addr("a.example")

	conn, err := dial(t.Context(), "tcp", netip.AddrPortFrom(a, 443).String())
	require.NoError(t, err)
	assert.Equal(t, netip.AddrPortFrom(a, 443).String(), conn.RemoteAddr().String(), "the connection reports the public-looking address")
	require.NoError(t, conn.Close())

	for _, addr := range []string{
		netip.AddrPortFrom(a, 8443).String(), // nothing on another port
		"93.184.216.34:443",                  // no site there
		"10.0.0.1:443",
		"a.example:443", // names are never dialed
	} {
		_, err := dial(t.Context(), "tcp", addr)
		require.Error(t, err, addr)
		var opErr *net.OpError
		assert.True(t, errors.As(err, &opErr), "a *net.OpError, as a real dial gives: %v", err)
	}
	assert.Equal(t, 2, n.Dials(a))
	assert.Equal(t, 1, n.Dials(netip.MustParseAddr("10.0.0.1")))
	n.ResetRequests()
	assert.Zero(t, n.Dials(a))
}

func TestLatencyAndCounts(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("slow.example", hello("slow"))
	n.Site("fast.example", hello("fast"))
	n.SetLatency("slow.example", time.Second)
	c := n.Client()

	start := time.Now()
	_, err := c.Get(t.Context(), "https://slow.example/", nil)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), time.Second)

	start = time.Now()
	_, err = c.Get(t.Context(), "https://fast.example/", nil)
	require.NoError(t, err)
	assert.Less(t, time.Since(start), time.Second, "latency is per host")

	n.SetLatency("slow.example", 0)
	start = time.Now()
	_, err = c.Get(t.Context(), "https://slow.example/", nil)
	require.NoError(t, err)
	assert.Less(t, time.Since(start), time.Second)

	assert.Equal(t, 2, n.Requests("slow.example"))
	assert.Equal(t, 1, n.Requests("FAST.example"))
	assert.Equal(t, 2, n.Lookups("slow.example"))
	n.ResetRequests()
	assert.Zero(t, n.Requests("slow.example"))
	assert.Zero(t, n.Lookups("slow.example"))
}

func TestConcurrentUse(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	c := n.Client()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			host := fmt.Sprintf("s%d.example", i%4)
			n.Site(host, hello(host))
			resp, err := c.Get(context.Background(), "https://"+host+"/", nil)
			if assert.NoError(t, err) {
				assert.Equal(t, host, string(resp.Body))
			}
			n.SetLatency(host, time.Millisecond)
			_ = n.Requests(host)
		})
	}
	wg.Wait()
	total := 0
	for i := range 4 {
		total += n.Requests(fmt.Sprintf("s%d.example", i))
	}
	assert.Equal(t, 8, total)
}

func TestClose(t *testing.T) {
	n := fetchtest.New()
	n.Site("a.example", hello("a"))
	c := n.Client()
	_, err := c.Get(t.Context(), "https://a.example/", nil)
	require.NoError(t, err)
	n.Close()
	n.Close() // idempotent
	c.CloseIdleConnections()
	_, err = c.Get(t.Context(), "https://a.example/", nil)
	require.Error(t, err)
	assert.Panics(t, func() { n.Site("b.example", hello("b")) })
}

func TestOptionsAreFresh(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	o1 := n.Options()
	o1.AllowLoopback = true
	o1.MaxRedirects = 7
	o2 := n.Options()
	assert.False(t, o2.AllowLoopback)
	assert.Zero(t, o2.MaxRedirects)
	assert.NotNil(t, o2.Resolver)
	assert.NotNil(t, o2.Dial)
	assert.NotNil(t, o2.RootCAs)
}

func TestCertificates(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	cert := n.Certificate(time.Now().Add(-time.Hour), time.Now().Add(time.Hour), "a.example", "93.184.215.9")
	require.NotNil(t, cert.Leaf)
	assert.Equal(t, []string{"a.example"}, cert.Leaf.DNSNames)
	require.Len(t, cert.Leaf.IPAddresses, 1)
	assert.Equal(t, "93.184.215.9", cert.Leaf.IPAddresses[0].String())
	_, err := cert.Leaf.Verify(x509VerifyOptions(n, "a.example"))
	require.NoError(t, err, "issued by the Network's authority")

	other := fetchtest.New()
	t.Cleanup(other.Close)
	_, err = cert.Leaf.Verify(x509VerifyOptions(other, "a.example"))
	require.Error(t, err, "each Network has its own authority")
}

func TestSiteHTTP2(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	proto := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, r.Proto) })
	n.Site("one.example", proto)
	n.SiteHTTP2("two.example", proto)
	c := n.Client()
	tests := []struct{ host, want string }{
		{"one.example", "HTTP/1.1"},
		{"two.example", "HTTP/2.0"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			for range 3 {
				resp, err := c.Get(t.Context(), "https://"+tt.host+"/", nil)
				require.NoError(t, err)
				assert.Equal(t, tt.want, string(resp.Body), "the protocol the server saw")
			}
		})
	}
	// Three calls in turn, one connection each way: HTTP/2 is pooled too.
	assert.Equal(t, 1, n.Dials(n.Addr("one.example")))
	assert.Equal(t, 1, n.Dials(n.Addr("two.example")))

	n.SiteHTTP2("two.example", hello("replaced"))
	resp, err := c.Get(t.Context(), "https://two.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "replaced", string(resp.Body))
}
