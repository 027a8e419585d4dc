package weburl

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalizeHost(t *testing.T) {
	tests := []struct {
		in, want   string
		nonCanonIP bool // error wraps ErrNonCanonicalIP
		fails      bool
	}{
		{in: "example.com", want: "example.com"},
		{in: "Example.COM", want: "example.com"},
		{in: "EXAMPLE.com.", want: "example.com"},
		{in: "bücher.example", want: "xn--bcher-kva.example"},
		{in: "xn--bcher-kva.example", want: "xn--bcher-kva.example"},
		{in: "ＥＸＡＭＰＬＥ.com", want: "example.com"},
		{in: "例え.テスト", want: "xn--r8jz45g.xn--zckzah"},
		{in: "faße.de", want: "xn--fae-6ka.de"},
		{in: "localhost", want: "localhost"},
		{in: "LOCALHOST.", want: "localhost"},
		{in: "93.184.216.34", want: "93.184.216.34"},
		{in: "2606:4700:4700:0:0:0:0:1111", want: "2606:4700:4700::1111"},
		{in: "[2606:4700:4700::1111]", want: "2606:4700:4700::1111"},
		{in: "::ffff:1.2.3.4", want: "::ffff:1.2.3.4"},
		{in: strings.Repeat("a", 63) + ".example", want: strings.Repeat("a", 63) + ".example"},
		// "--" in the third and fourth characters: the URL Standard sets
		// CheckHyphens false, and such hosts are public.
		{in: "r3---sn-4g5e6nsz.googlevideo.com", want: "r3---sn-4g5e6nsz.googlevideo.com"},
		{in: "R4---SN-N4V7SNLS.googlevideo.com.", want: "r4---sn-n4v7snls.googlevideo.com"},
		{in: "ab--cd.example", want: "ab--cd.example"},
		{in: "a--b.example", want: "a--b.example"},
		{in: "bü--cher.example", want: "xn--b--cher-n2a.example"},

		{in: "", fails: true},
		{in: ".", fails: true},
		{in: "example.com..", fails: true},
		{in: "a..b", fails: true},
		{in: ".example.com", fails: true},
		{in: "a_b.example", fails: true},
		{in: "exa mple.com", fails: true},
		{in: "ex%41mple.com", fails: true},
		{in: "-a.example", fails: true},
		{in: "a-.example", fails: true},
		{in: "xn--a.example", fails: true},
		{in: "xn--.example", fails: true},
		{in: "xn--zz-.example", fails: true},
		{in: "r3---sn-4g5e6nsz-.googlevideo.com", fails: true},
		{in: "-r3---sn.googlevideo.com", fails: true},
		{in: "a\u200db.example", fails: true},
		{in: "example.com:443", fails: true},
		{in: strings.Repeat("a", 64) + ".example", fails: true},
		{in: strings.Repeat("a.", 126) + "ab", fails: true},
		{in: "fe80::1%eth0", fails: true},
		{in: "[fe80::1%eth0]", fails: true},
		{in: "[1.2.3.4]", fails: true},
		{in: "[example.com]", fails: true},
		{in: "0.\x95", fails: true},            // invalid UTF-8 (found by FuzzCheckURL)
		{in: "b\xfccher.example", fails: true}, // Latin-1, not UTF-8

		{in: "127.1", nonCanonIP: true},
		{in: "0x7f.1", nonCanonIP: true},
		{in: "0X7F.0.0.1", nonCanonIP: true},
		{in: "2130706433", nonCanonIP: true},
		{in: "0177.0.0.1", nonCanonIP: true},
		{in: "127.000.000.001", nonCanonIP: true},
		{in: "127.0.0.1.", nonCanonIP: true},
		{in: "1.2.3.4.5", nonCanonIP: true},
		{in: "example.123", nonCanonIP: true},
		{in: "example.0x", nonCanonIP: true},
		{in: "１２７.０.０.１", nonCanonIP: true},
		{in: "127。0。0。1", nonCanonIP: true},
		{in: "example.１２３", nonCanonIP: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NormalizeHost(tt.in)
			switch {
			case tt.nonCanonIP:
				assert.ErrorIs(t, err, ErrNonCanonicalIP)
				assert.ErrorIs(t, err, ErrInvalidHost)
			case tt.fails:
				assert.ErrorIs(t, err, ErrInvalidHost)
				assert.NotErrorIs(t, err, ErrNonCanonicalIP)
			default:
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				again, err := NormalizeHost(got)
				require.NoError(t, err)
				assert.Equal(t, got, again, "idempotent")
			}
		})
	}
}

func TestEndsInNumber(t *testing.T) {
	for host, want := range map[string]bool{
		"1.2.3.4": true, "127.1": true, "2130706433": true, "0x7f.1": true, "a.0x": true, "a.0XfF": true,
		"1.2.3.4.": true, "example.com": false, "example.com.": false, "0x7g": false, "1a": false,
		"a.1b": false, "": false, ".": false, "a..": false, "x.0xg": false,
	} {
		assert.Equal(t, want, EndsInNumber(host), host)
	}
}

func TestOrigin(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://example.com/a?b#c", "https://example.com"},
		{"HTTPS://Example.COM:443/", "https://example.com"},
		{"https://example.com:/", "https://example.com"},
		{"https://example.com:0443/", "https://example.com"},
		{"https://example.com:8443/", "https://example.com:8443"},
		{"http://localhost:80/", "http://localhost"},
		{"http://localhost:443/", "http://localhost:443"},
		{"https://bücher.example/", "https://xn--bcher-kva.example"},
		{"https://[2606:4700:4700:0::1111]:443/", "https://[2606:4700:4700::1111]"},
		{"https://[::1]:8443/", "https://[::1]:8443"},
		{"https://example.com./", "https://example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			u, err := url.Parse(tt.in)
			require.NoError(t, err)
			got, err := Origin(u)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	for _, bad := range []string{"ftp://example.com/", "https:opaque", "https:///path", "https://u@example.com/",
		"https://example.com:0/", "https://example.com:65536/", "https://a_b.example/", "/relative", "file:///etc/passwd"} {
		t.Run(bad, func(t *testing.T) {
			u, err := url.Parse(bad)
			require.NoError(t, err)
			_, err = Origin(u)
			assert.Error(t, err)
		})
	}
	_, err := Origin(nil)
	assert.Error(t, err)
}

func TestIsWWWCounterpart(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"example.com", "www.example.com", true},
		{"www.example.com", "example.com", true},
		{"WWW.Example.COM.", "example.com", true},
		{"example.co.uk", "www.example.co.uk", true},
		{"user.github.io", "www.user.github.io", true},
		{"bücher.example", "www.xn--bcher-kva.example", true},
		{"shop.example", "www.shop.example", true},

		{"example.com", "example.com", false},
		{"www.example.com", "www.example.com", false},
		{"co.uk", "www.co.uk", false},
		// www.co.uk is itself a registrable domain (eTLD co.uk plus one label).
		{"www.co.uk", "www.www.co.uk", true},
		{"github.io", "www.github.io", false},
		{"com", "www.com", false},
		{"www.example.com", "www.www.example.com", false},
		{"api.example.com", "www.api.example.com", false},
		{"example.com", "api.example.com", false},
		{"example.com", "wwwexample.com", false},
		{"example.com", "www2.example.com", false},
		{"example.com", "www.example.org", false},
		{"1.2.3.4", "www.1.2.3.4", false},
		{"localhost", "www.localhost", false}, // by the "*" rule localhost is a public suffix
		{"", "www.", false},
		{"a_b.example", "www.a_b.example", false},
	}
	for _, tt := range tests {
		t.Run(tt.a+"|"+tt.b, func(t *testing.T) {
			assert.Equal(t, tt.want, IsWWWCounterpart(tt.a, tt.b))
		})
	}
}

// TestRegistrableDomain holds the odd hosts: IP literals, trailing dots,
// upper case, IDNs, and public suffixes themselves.
func TestRegistrableDomain(t *testing.T) {
	for _, tt := range []struct{ host, want string }{
		{"www.shop.example.co.uk", "example.co.uk"},
		{"example.com", "example.com"},
		{"Shop.Example.COM.", "example.com"},
		{"a.b.github.io", "b.github.io"},
		{"www.co.uk", "www.co.uk"},
		{"BÜCHER.example", "xn--bcher-kva.example"},
		{"www.xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"shop.example", "shop.example"},

		{"co.uk", ""},
		{"github.io", ""},
		{"com", ""},
		{"localhost", ""},
		{"203.0.113.7", ""},
		{"2001:db8::1", ""},
		{"[2001:db8::1]", ""},
		{"a_b.example", ""},
		{"0x7f.1", ""},
		{"", ""},
		{".", ""},
	} {
		t.Run(tt.host, func(t *testing.T) {
			assert.Equal(t, tt.want, RegistrableDomain(tt.host))
		})
	}
}

func BenchmarkNormalizeHost(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NormalizeHost("Www.Bücher.Example"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIsWWWCounterpart(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if !IsWWWCounterpart("example.co.uk", "www.example.co.uk") {
			b.Fatal("not counterparts")
		}
	}
}

// FuzzNormalizeHost checks that NormalizeHost never panics and that what it
// returns is a stable, lower-case ASCII host of bounded length that is
// either a canonical IP literal or a name that does not end in a number.
func FuzzNormalizeHost(f *testing.F) {
	for _, s := range []string{"example.com", "Bücher.Example.", "127.1", "[::1]", "１２７.０.０.１", "a..b", "0.\x95",
		"xn--bcher-kva.example", "fe80::1%eth0", "www.co.uk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		got, err := NormalizeHost(host)
		if err != nil {
			assert.ErrorIs(t, err, ErrInvalidHost)
			return
		}
		assert.LessOrEqual(t, len(got), MaxHostLength)
		for i := 0; i < len(got); i++ {
			c := got[i]
			assert.True(t, c < 0x80 && !('A' <= c && c <= 'Z'), "byte %q in %q", c, got)
		}
		again, err := NormalizeHost(got)
		require.NoError(t, err, "normalized %q from %q", got, host)
		assert.Equal(t, got, again)
		if _, perr := netip.ParseAddr(got); perr != nil {
			assert.False(t, EndsInNumber(got), "%q ends in a number", got)
			assert.False(t, strings.HasSuffix(got, "."))
		}
	})
}

func TestNormalizeURLGivesOneSpellingPerURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://shop.example/", "https://shop.example/"},
		{"https://shop.example:443/", "https://shop.example/"},
		{"https://SHOP.example./", "https://shop.example/"},
		{"HTTPS://Shop.Example.:443/a/B?q=C#frag", "https://shop.example/a/B?q=C"},
		{"https://shop.example:/", "https://shop.example/"},
		{"https://shop.example:8443/x", "https://shop.example:8443/x"},
		{"http://LOCALHOST:80/", "http://localhost/"},
		{"http://localhost:443/", "http://localhost:443/"},
		{"https://Bücher.example/", "https://xn--bcher-kva.example/"},
		{"https://[0:0:0:0:0:0:0:1]:443/", "https://[::1]/"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			u, err := url.Parse(tt.in)
			require.NoError(t, err)
			before := *u
			n, err := NormalizeURL(u)
			require.NoError(t, err)
			assert.Equal(t, tt.want, n.String())
			assert.Equal(t, before, *u, "the given URL is not modified")
			o, err := Origin(u)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(n.String(), o+"/"), "the normalized URL starts with the origin %s", o)
		})
	}
	for _, bad := range []string{"ftp://shop.example/", "https://user@shop.example/", "https://shop.example:0/", "https://sh_op.example/", "/relative"} {
		u, err := url.Parse(bad)
		require.NoError(t, err)
		_, err = NormalizeURL(u)
		assert.Error(t, err, bad)
	}
}

// Redact replaces a URL's userinfo, as written, and changes nothing else.
func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://user:pw@shop.example/a?b#c", "https://redacted@shop.example/a?b#c"},
		{"https://user@shop.example", "https://redacted@shop.example"},
		{"http://a:b@c:d@127.0.0.1:8080/x@y", "http://redacted@127.0.0.1:8080/x@y"},
		{"HTTPS://u:p@Shop.Example", "HTTPS://redacted@Shop.Example"},
		{"https://shop.example/user@x", "https://shop.example/user@x"},
		{"mailto:someone@shop.example", "mailto:someone@shop.example"},
		{"not a url", "not a url"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			assert.Equal(t, tc.want, Redact(tc.in))
		})
	}
}

// TestPlainLDHNamesSkipTheMappingAlike: the fast path for names already in
// lower-case LDH form gives what the UTS #46 mapping gives, and leaves
// every other name (upper case, Unicode, A-labels) to the mapping.
func TestPlainLDHNamesSkipTheMappingAlike(t *testing.T) {
	for _, h := range []string{"example.com", "a-b.example", "x1.y2.example", "shop.example.", "a--b.example", "-a.example", "a-.example", "a..b", "xn--bcher-kva.example", "a.xn--zz", "Example.COM", "bücher.example", "ex_ample.com"} {
		got, err := NormalizeHost(h)
		name := strings.TrimSuffix(h, ".")
		want, werr := hostProfile.ToASCII(name)
		if err == nil {
			assert.NoError(t, werr, h)
			assert.Equal(t, want, got, h)
		}
		if plainLDH(name) && werr != nil {
			assert.Error(t, err, "%s: the mapping refuses it, so does the fast path", h)
		}
	}
	assert.True(t, plainLDH("shop.example"))
	assert.False(t, plainLDH("xn--bcher-kva.example"))
	assert.False(t, plainLDH("a.xn--bcher-kva"))
	assert.False(t, plainLDH("Shop.example"))
}
