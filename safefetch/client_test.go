package safefetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

func TestGetRecordsEvidence(t *testing.T) {
	n := newNetwork(t)
	var seen atomic.Pointer[http.Header]
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Clone()
		seen.Store(&h)
		w.Header().Set("X-Shop", "yes")
		_, _ = w.Write([]byte("hello"))
	}))
	c := n.Client()
	before := time.Now()
	resp, err := c.Get(t.Context(), "https://shop.example/", http.Header{
		"Accept":        {"text/plain"},
		"Authorization": {"Bearer secret"},
		"cookie":        {"a=b", "c=d"}, // a non-canonical key is redacted too
	})
	require.NoError(t, err)
	assert.Equal(t, "GET", resp.Method)
	assert.Equal(t, "https://shop.example/", resp.URL)
	assert.Equal(t, "https://shop.example/", resp.FinalURL)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "yes", resp.Header.Get("X-Shop"))
	assert.Equal(t, "hello", string(resp.Body))
	want := netip.AddrPortFrom(n.Addr("shop.example"), 443)
	assert.Equal(t, want, resp.RemoteAddr)
	assert.Empty(t, resp.Redirects)
	assert.Equal(t, []safefetch.Hop{{URL: "https://shop.example/", StatusCode: 200, RemoteAddr: want}}, resp.Hops)
	assert.Equal(t, []string{"text/plain"}, resp.RequestHeader["Accept"])
	assert.Equal(t, []string{"[redacted]"}, resp.RequestHeader["Authorization"])
	assert.Equal(t, []string{"[redacted]", "[redacted]"}, resp.RequestHeader["cookie"])
	assert.False(t, resp.Started.Before(before))
	assert.Positive(t, resp.Elapsed)

	got := *seen.Load()
	assert.Equal(t, "Bearer secret", got.Get("Authorization"), "the credential itself is sent")
	assert.Equal(t, "identity", got.Get("Accept-Encoding"))
	assert.Equal(t, safefetch.DefaultUserAgent, got.Get("User-Agent"))
}

func TestStatusesAndMethods(t *testing.T) {
	n := newNetwork(t)
	var lastMethod, lastBody atomic.Value
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lastMethod.Store(r.Method)
		b := make([]byte, 64)
		k, _ := r.Body.Read(b)
		lastBody.Store(string(b[:k]))
		switch r.URL.Path {
		case "/missing":
			http.Error(w, "no", http.StatusNotFound)
		case "/307":
			http.Redirect(w, r, "/echo", http.StatusTemporaryRedirect)
		case "/303":
			http.Redirect(w, r, "/echo", http.StatusSeeOther)
		case "/no-location":
			w.WriteHeader(http.StatusFound)
		default:
			w.Header().Set("X-Path", r.URL.Path)
			_, _ = w.Write([]byte("body"))
		}
	}))
	c := n.Client()
	ctx := t.Context()

	t.Run("non-2xx is not an error", func(t *testing.T) {
		resp, err := c.Get(ctx, "https://shop.example/missing", nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	})
	t.Run("HEAD has no body", func(t *testing.T) {
		resp, err := c.Head(ctx, "https://shop.example/x", nil)
		require.NoError(t, err)
		assert.Equal(t, "HEAD", resp.Method)
		assert.Equal(t, "/x", resp.Header.Get("X-Path"))
		assert.Empty(t, resp.Body)
	})
	t.Run("307 resends method and body", func(t *testing.T) {
		resp, err := c.Do(ctx, &safefetch.Request{Method: "POST", URL: "https://shop.example/307", Body: []byte("payload")})
		require.NoError(t, err)
		assert.Equal(t, "https://shop.example/echo", resp.FinalURL)
		assert.Equal(t, "POST", lastMethod.Load())
		assert.Equal(t, "payload", lastBody.Load())
	})
	t.Run("303 turns POST into GET", func(t *testing.T) {
		_, err := c.Do(ctx, &safefetch.Request{Method: "POST", URL: "https://shop.example/303", Body: []byte("payload")})
		require.NoError(t, err)
		assert.Equal(t, "GET", lastMethod.Load())
		assert.Equal(t, "", lastBody.Load())
	})
	t.Run("a redirect without Location is the response", func(t *testing.T) {
		resp, err := c.Get(ctx, "https://shop.example/no-location", nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusFound, resp.StatusCode)
	})
	t.Run("per-request body cap", func(t *testing.T) {
		resp, err := c.Do(ctx, &safefetch.Request{URL: "https://shop.example/x", MaxBodyBytes: 3})
		require.ErrorIs(t, err, safefetch.ErrTooLarge)
		require.NotNil(t, resp)
		assert.Nil(t, resp.Body)
	})
	t.Run("caller's User-Agent wins", func(t *testing.T) {
		var ua atomic.Value
		n.Site("ua.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ua.Store(r.UserAgent()) }))
		_, err := c.Get(ctx, "https://ua.example/", http.Header{"User-Agent": {"tester/1"}})
		require.NoError(t, err)
		assert.Equal(t, "tester/1", ua.Load())
	})
}

func TestRefusedURLsNeverConnect(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", text("ok"))
	opts := n.Options()
	res := &countingResolver{next: opts.Resolver}
	dial := &countingDial{next: opts.Dial}
	opts.Resolver, opts.Dial = res, dial.Dial
	c := safefetch.New(opts)
	for _, u := range []string{
		// Non-canonical IPv4 literals: never a name to resolve, never a connection.
		"https://127.1/", "https://0x7f.1/", "https://2130706433/", "https://0177.0.0.1/",
		"https://127.000.000.001/", "https://127.0.0.1./", "https://0x7f000001/",
		// Canonical literals of refused addresses: classified without DNS.
		"https://127.0.0.1/", "https://10.0.0.1/", "https://169.254.169.254/latest/meta-data/",
		"https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:a9fe:a9fe]/", "https://[fe80::1%25eth0]/",
		"https://0.0.0.0/", "https://[::]/", "https://[64:ff9b::a00:1]/",
		// Other URL refusals.
		"http://shop.example/", "file:///etc/passwd", "ftp://shop.example/", "//shop.example/", "/relative",
		"https://user@shop.example/", "https://a@b@shop.example/", "HTTP://shop.example/", "https://shop.example:0/",
	} {
		t.Run(u, func(t *testing.T) {
			resp, err := c.Get(t.Context(), u, nil)
			require.Error(t, err)
			assert.Nil(t, resp)
			assert.True(t, errors.Is(err, safefetch.ErrForbiddenURL) || errors.Is(err, safefetch.ErrForbiddenAddress),
				"want a URL or address refusal, got %v", err)
			assert.True(t, strings.HasPrefix(err.Error(), "safefetch: "), err.Error())
		})
	}
	assert.Zero(t, dial.calls.Load(), "no refused URL may reach a connection")
	for _, h := range []string{"127.1", "0x7f.1", "2130706433", "0177.0.0.1", "127.0.0.1.", "127.0.0.1"} {
		assert.Zero(t, res.count(h), "no lookup for %s", h)
	}
}

func TestAddressRefusals(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", text("ok"))
	public := n.Addr("shop.example").String()
	cases := []struct {
		name  string
		addrs []string
		ok    bool
	}{
		{"public only", []string{public}, true},
		{"public then private", []string{public, "10.0.0.1"}, false},
		{"private then public", []string{"192.168.1.1", public}, false},
		{"public and loopback v6", []string{public, "::1"}, false},
		{"public and mapped private", []string{public, "::ffff:10.0.0.1"}, false},
		{"mapped public", []string{"::ffff:" + public}, true},
		{"metadata", []string{"169.254.169.254"}, false},
		{"cgnat", []string{"100.64.0.1"}, false},
		{"documentation", []string{"203.0.113.9"}, false},
		{"ula", []string{"fd00::1"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n.ResetRequests()
			n.Host("shop.example", tc.addrs...)
			resp, err := n.Client().Get(t.Context(), "https://shop.example/", nil)
			if tc.ok {
				require.NoError(t, err)
				assert.Equal(t, "ok", string(resp.Body))
				return
			}
			require.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
			var ae *safefetch.AddrError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, "shop.example", ae.Host)
			assert.Zero(t, n.Requests("shop.example"))
			assert.Zero(t, n.Dials(n.Addr("shop.example")), "a host with one refused answer is refused whole")
		})
	}
}

func TestDNSFailsClosed(t *testing.T) {
	n := newNetwork(t)
	n.Host("gone.example") // NXDOMAIN
	cases := []struct {
		name   string
		host   string
		answer func() ([]netip.Addr, error)
	}{
		{"nxdomain record", "gone.example", nil},
		{"unknown host", "nowhere.example", nil},
		{"servfail", "servfail.example", func() ([]netip.Addr, error) {
			return nil, &net.DNSError{Err: "server misbehaving", Name: "servfail.example", IsTemporary: true}
		}},
		{"empty answer", "empty.example", func() ([]netip.Addr, error) { return nil, nil }},
		{"invalid answer", "zero.example", func() ([]netip.Addr, error) { return []netip.Addr{{}}, nil }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := n.Options()
			opts.Resolver = &countingResolver{next: opts.Resolver, answer: func(host string, _ int) ([]netip.Addr, error, bool) {
				if tc.answer == nil {
					return nil, nil, false
				}
				a, err := tc.answer()
				return a, err, true
			}}
			_, err := safefetch.New(opts).Get(t.Context(), "https://"+tc.host+"/", nil)
			require.Error(t, err)
			assert.True(t, errors.Is(err, safefetch.ErrDNS) || errors.Is(err, safefetch.ErrForbiddenAddress), err.Error())
		})
	}
	t.Run("timeout", func(t *testing.T) {
		opts := n.Options()
		opts.DNSTimeout = 50 * time.Millisecond
		opts.Resolver = &countingResolver{next: opts.Resolver, answer: func(string, int) ([]netip.Addr, error, bool) {
			time.Sleep(20 * time.Second) // a resolver that ignores its context
			return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil, true
		}}
		start := time.Now()
		_, err := safefetch.New(opts).Get(t.Context(), "https://slow.example/", nil)
		require.ErrorIs(t, err, safefetch.ErrDNS)
		assert.Less(t, time.Since(start), 10*time.Second)
	})
	t.Run("timeout honoured by the resolver", func(t *testing.T) {
		opts := n.Options()
		opts.DNSTimeout = 50 * time.Millisecond
		base := opts.Resolver
		opts.Resolver = &countingResolver{next: base, answer: func(string, int) ([]netip.Addr, error, bool) { return nil, nil, false }}
		opts.Resolver = resolverFunc(func(ctx context.Context, network, host string) ([]netip.Addr, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		start := time.Now()
		_, err := safefetch.New(opts).Get(t.Context(), "https://slow.example/", nil)
		require.ErrorIs(t, err, safefetch.ErrDNS)
		assert.Less(t, time.Since(start), 10*time.Second)
	})
}

type resolverFunc func(ctx context.Context, network, host string) ([]netip.Addr, error)

func (f resolverFunc) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return f(ctx, network, host)
}

func TestDNSRebinding(t *testing.T) {
	n := newNetwork(t)
	n.Site("rebind.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "/final", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	opts := n.Options()
	public := n.Addr("rebind.example")
	res := &countingResolver{next: opts.Resolver, answer: func(host string, k int) ([]netip.Addr, error, bool) {
		// TTL 0 rebinding: public for the first two lookups, private after.
		if k <= 2 {
			return []netip.Addr{public}, nil, true
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil, true
	}}
	dial := &countingDial{next: opts.Dial}
	opts.Resolver, opts.Dial = res, dial.Dial
	c := safefetch.New(opts)

	resp, err := c.Get(t.Context(), "https://rebind.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", string(resp.Body))
	assert.Equal(t, 1, res.count("rebind.example"), "one lookup for one attempt")

	// The redirect hop is a second attempt: it gets its own lookup, and this
	// one answers loopback. The idle connection to the public address must
	// not carry the hop.
	_, err = c.Get(t.Context(), "https://rebind.example/hop", nil)
	require.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
	assert.Equal(t, 3, res.count("rebind.example"), "exactly one lookup per attempt")
	assert.Equal(t, 2, n.Requests("rebind.example"))

	_, err = c.Get(t.Context(), "https://rebind.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
	assert.Equal(t, 4, res.count("rebind.example"))
	assert.Equal(t, 2, n.Requests("rebind.example"))
	assert.LessOrEqual(t, dial.calls.Load(), int64(2))
}

// lyingConn reports a remote address other than the one dialed.
type lyingConn struct {
	net.Conn
	remote net.Addr
	closed *atomic.Bool
}

func (c *lyingConn) RemoteAddr() net.Addr { return c.remote }
func (c *lyingConn) Close() error         { c.closed.Store(true); return c.Conn.Close() }

func TestDialRemoteAddressMismatch(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", text("ok"))
	for _, remote := range []string{"10.0.0.1:443", "93.184.215.99:443", "[::1]:443", "93.184.215.1:8443"} {
		t.Run(remote, func(t *testing.T) {
			opts := n.Options()
			base := opts.Dial
			var closed atomic.Bool
			opts.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := base(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return &lyingConn{Conn: c, remote: net.TCPAddrFromAddrPort(netip.MustParseAddrPort(remote)), closed: &closed}, nil
			}
			_, err := safefetch.New(opts).Get(t.Context(), "https://shop.example/", nil)
			require.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
			assert.True(t, closed.Load(), "the connection is closed on a mismatch")
			assert.Zero(t, n.Requests("shop.example"))
		})
	}
}

func TestProxyEnvironmentIgnored(t *testing.T) {
	var proxied atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		http.Error(w, "proxied", http.StatusBadGateway)
	}))
	t.Cleanup(proxy.Close)
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		t.Setenv(k, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	n := newNetwork(t)
	n.Site("shop.example", text("direct"))
	c := n.Client()
	resp, err := c.Get(t.Context(), "https://shop.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "direct", string(resp.Body))

	hc := c.HTTPClient()
	hr, err := hc.Get("https://shop.example/")
	require.NoError(t, err)
	require.NoError(t, hr.Body.Close())
	assert.Equal(t, http.StatusOK, hr.StatusCode)
	assert.Zero(t, proxied.Load())
}

func TestLoopbackDevelopmentMode(t *testing.T) {
	plain := httptest.NewServer(text("dev"))
	t.Cleanup(plain.Close)
	tlsSrv := httptest.NewTLSServer(text("dev tls"))
	t.Cleanup(tlsSrv.Close)
	roots := tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs

	t.Run("refused without AllowLoopback", func(t *testing.T) {
		c := safefetch.New(&safefetch.Options{RootCAs: roots})
		assert.False(t, c.AllowsLoopback())
		_, err := c.Get(t.Context(), plain.URL, nil)
		require.ErrorIs(t, err, safefetch.ErrForbiddenURL)
		_, err = c.Get(t.Context(), tlsSrv.URL, nil)
		require.ErrorIs(t, err, safefetch.ErrForbiddenURL, "CheckURL classifies the literal")
		var ue *safefetch.URLError
		require.ErrorAs(t, err, &ue)
		assert.Equal(t, safefetch.RuleAddress, ue.Rule)
	})
	t.Run("allowed with AllowLoopback", func(t *testing.T) {
		c := safefetch.New(&safefetch.Options{AllowLoopback: true, RootCAs: roots})
		assert.True(t, c.AllowsLoopback())
		resp, err := c.Get(t.Context(), plain.URL, nil)
		require.NoError(t, err)
		assert.Equal(t, "dev", string(resp.Body))
		assert.True(t, resp.RemoteAddr.Addr().IsLoopback())
		resp, err = c.Get(t.Context(), tlsSrv.URL, nil)
		require.NoError(t, err)
		assert.Equal(t, "dev tls", string(resp.Body))
	})
	t.Run("http stays loopback-only in development mode", func(t *testing.T) {
		n := newNetwork(t)
		n.Site("shop.example", text("ok"))
		opts := n.Options()
		opts.AllowLoopback = true
		c := safefetch.New(opts)
		_, err := c.Get(t.Context(), "http://shop.example/", nil)
		require.Error(t, err)
		assert.Zero(t, n.Requests("shop.example"))
		resp, err := c.Get(t.Context(), "https://shop.example/", nil)
		require.NoError(t, err)
		assert.Equal(t, "ok", string(resp.Body))
	})
}

func TestCancellation(t *testing.T) {
	n := newNetwork(t)
	n.Site("slow.example", text("late"))
	n.SetLatency("slow.example", 30*time.Second)
	c := n.Client()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Get(ctx, "https://slow.example/", nil)
	require.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, safefetch.ErrTimeout)
	assert.Less(t, time.Since(start), 10*time.Second)
}

func TestWithDerivedClients(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", redirectTo(http.StatusFound, "https://other.example/"))
	n.Site("other.example", text("other"))
	c := n.Client()
	b := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 10})
	cb := c.WithBudget(b)
	assert.Same(t, b, cb.Budget())
	assert.Nil(t, c.Budget())
	_, err := cb.Get(t.Context(), "https://shop.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, 2, b.Usage().Attempts)

	_, err = cb.WithRedirectPolicy(safefetch.SameOriginOrWWW).Get(t.Context(), "https://shop.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrRedirectRefused)
	assert.Equal(t, 3, b.Usage().Attempts, "the policy refuses before the hop is requested")
}

func TestRequestedURLIsNormalized(t *testing.T) {
	n := newNetwork(t)
	var host, path atomic.Value
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host.Store(r.Host)
		path.Store(r.URL.RequestURI())
	}))
	declared := "HTTPS://Shop.EXAMPLE.:443/a%20b?q=1#frag"
	resp, err := n.Client().Get(t.Context(), declared, nil)
	require.NoError(t, err)
	assert.Equal(t, declared, resp.URL, "the declared URL is kept as given")
	assert.Equal(t, "https://shop.example/a%20b?q=1", resp.FinalURL)
	assert.Equal(t, "shop.example", host.Load())
	assert.Equal(t, "/a%20b?q=1", path.Load())
}

func TestSecondAddressWhenFirstRefusesConnections(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", text("ok"))
	site := n.Addr("shop.example")
	dead := netip.MustParseAddr("93.184.216.34") // public, but nothing listens there
	n.Host("shop.example", dead.String(), site.String())
	resp, err := n.Client().Get(t.Context(), "https://shop.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, netip.AddrPortFrom(site, 443), resp.RemoteAddr)
	assert.Equal(t, 1, n.Dials(dead))
	assert.Equal(t, 1, n.Lookups("shop.example"), "both addresses came from the one lookup")
}

func TestCallerDeadlineIsNotErrTimeout(t *testing.T) {
	n := newNetwork(t)
	n.Site("slow.example", text("late"))
	n.SetLatency("slow.example", 30*time.Second)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := n.Client().Get(ctx, "https://slow.example/", nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, safefetch.ErrTimeout, "the caller's deadline is the caller's")
}
