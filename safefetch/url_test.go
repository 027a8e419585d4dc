package safefetch

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckURL(t *testing.T) {
	tests := []struct {
		name     string
		url      string
		loopback bool   // allowLoopback
		rule     string // "" = accepted
	}{
		// Accepted.
		{"https", "https://example.com/", false, ""},
		{"https no path", "https://example.com", false, ""},
		{"https upper-case scheme", "HTTPS://Example.COM/a?b=c#f", false, ""},
		{"https mixed-case scheme", "hTtPs://example.com/", false, ""},
		{"port 443", "https://example.com:443/", false, ""},
		{"port 8443", "https://example.com:8443/", false, ""},
		{"port 65535", "https://example.com:65535/", false, ""},
		{"port 1", "https://example.com:1/", false, ""},
		{"empty port", "https://example.com:/", false, ""},
		{"IDN", "https://bücher.example/", false, ""},
		{"punycode", "https://xn--bcher-kva.example/", false, ""},
		{"trailing dot on a name", "https://example.com./", false, ""},
		{"public IPv4 literal", "https://93.184.216.34/", false, ""},
		{"public IPv6 literal", "https://[2606:4700:4700::1111]/", false, ""},
		{"public IPv6 literal with port", "https://[2606:4700:4700::1111]:8443/", false, ""},
		{"query with at sign", "https://example.com/?u=a@b", false, ""},
		{"path with at sign", "https://example.com/@user", false, ""},
		{"backslash in query", `https://example.com/?q=a\b`, false, ""},
		{"fetchtest style", "https://shop.example/.well-known/agentic.json", false, ""},
		// The URL Standard's domain to ASCII sets CheckHyphens false: "--"
		// in a label's third and fourth characters is a public host.
		{"hyphens 3 and 4", "https://r3---sn-4g5e6nsz.googlevideo.com/videoplayback?id=1", false, ""},
		{"hyphens 3 and 4, upper case", "https://R1---SN-AIGL6NSK.googlevideo.com/", false, ""},
		{"hyphens 3 and 4 in an IDN", "https://bü--cher.example/", false, ""},

		// Section 4.1 schemes and references.
		{"http", "http://example.com/", false, RuleScheme},
		{"http upper-case", "HTTP://example.com/", false, RuleScheme},
		{"http public with loopback mode", "http://example.com/", true, RuleScheme},
		{"file", "file:///etc/passwd", false, RuleScheme},
		{"file upper-case", "FILE:///etc/passwd", false, RuleScheme},
		{"ftp", "ftp://example.com/", false, RuleScheme},
		{"data", "data:text/plain,hello", false, RuleScheme},
		{"ws", "ws://example.com/", false, RuleScheme},
		{"wss", "wss://example.com/", false, RuleScheme},
		{"javascript", "javascript:alert(1)", false, RuleScheme},
		{"gopher", "gopher://127.0.0.1:6379/_INFO", false, RuleScheme},
		{"relative path", "/etc/passwd", false, RuleRelative},
		{"relative name", "example.com/path", false, RuleRelative},
		{"scheme-relative", "//example.com/", false, RuleSchemeRelative},
		{"scheme-relative metadata", "//169.254.169.254/latest/meta-data/", false, RuleSchemeRelative},
		{"no authority", "https:example.com", false, RuleNoAuthority},
		{"single slash", "https:/example.com/", false, RuleNoAuthority},
		{"empty", "", false, RuleEmpty},

		// Section 4.2 hosts.
		{"empty host", "https:///path", false, RuleEmptyHost},
		{"empty host with port", "https://:443/", false, RuleEmptyHost},
		{"control char in host", "https://exa\x00mple.com/", false, RuleControlChar},
		{"tab in host", "https://exa\tmple.com/", false, RuleControlChar},
		{"newline in path", "https://example.com/a\nHost: evil", false, RuleControlChar},
		{"DEL", "https://example.com/\x7f", false, RuleControlChar},
		{"percent-encoded host", "https://%65xample.com/", false, RulePercentHost},
		{"percent-encoded loopback", "https://%31%32%37.0.0.1/", true, RulePercentHost},
		{"percent-encoded dot", "https://example%2ecom/", false, RulePercentHost},
		{"backslash authority", `https://example.com\@evil.example/`, false, RuleBackslash},
		{"backslash as slash", `https:\\example.com\`, false, RuleBackslash},
		{"backslash in path", `https://example.com/a\b`, false, RuleBackslash},
		{"space in host", "https://exa mple.com/", false, RuleSyntax},
		{"underscore", "https://a_b.example/", false, RuleHost},
		{"empty label", "https://a..example/", false, RuleHost},
		{"two trailing dots", "https://example.com../", false, RuleHost},
		{"leading hyphen", "https://-a.example/", false, RuleHost},
		{"trailing hyphen", "https://r3---sn-.googlevideo.com/", false, RuleHost},
		{"bad punycode after xn--", "https://xn--zz-.example/", false, RuleHost},
		{"hyphens 3 and 4 on localhost", "https://r3---sn.localhost/", false, RuleLocalhost},
		{"hyphens 3 and 4 as a single label", "https://r3---sn/", false, RuleSingleLabel},
		{"label of 64", "https://" + strings.Repeat("a", 64) + ".example/", false, RuleHost},
		{"host of 254", "https://" + strings.Repeat("a.", 126) + "ab/", false, RuleHost},
		{"single label", "https://intranet/", false, RuleSingleLabel},
		{"single label with dot", "https://intranet./", false, RuleSingleLabel},
		{"too long", "https://example.com/" + strings.Repeat("a", MaxURLLength), false, RuleTooLong},

		// Section 4.3 userinfo.
		{"user", "https://user@example.com/", false, RuleUserinfo},
		{"user password", "https://user:pass@example.com/", false, RuleUserinfo},
		{"empty userinfo", "https://@example.com/", false, RuleUserinfo},
		{"several at", "https://a@b@127.0.0.1/", false, RuleUserinfo},
		{"several at public", "https://example.com@evil.example@93.184.216.34/", false, RuleUserinfo},
		{"userinfo with loopback mode", "http://user@localhost/", true, RuleUserinfo},

		// Section 4.4 ports.
		{"port 0", "https://example.com:0/", false, RulePort},
		{"port 65536", "https://example.com:65536/", false, RulePort},
		{"port 99999999999999999999", "https://example.com:99999999999999999999/", false, RulePort},
		{"port non-numeric", "https://example.com:https/", false, RuleSyntax},
		{"port negative", "https://example.com:-1/", false, RuleSyntax},
		{"port 6379", "https://example.com:6379/", false, ""},

		// Section 4.7 non-canonical IPv4 and trailing dots.
		{"127.1", "https://127.1/", false, RuleNonCanonicalIP},
		{"127.1 in loopback mode", "http://127.1/", true, RuleNonCanonicalIP},
		{"0x7f.1", "https://0x7f.1/", false, RuleNonCanonicalIP},
		{"0x7f000001", "https://0x7f000001/", false, RuleNonCanonicalIP},
		{"0X7F.0.0.1", "https://0X7F.0.0.1/", false, RuleNonCanonicalIP},
		{"2130706433", "https://2130706433/", false, RuleNonCanonicalIP},
		{"0177.0.0.1", "https://0177.0.0.1/", false, RuleNonCanonicalIP},
		{"127.000.000.001", "https://127.000.000.001/", false, RuleNonCanonicalIP},
		{"trailing dot", "https://127.0.0.1./", true, RuleNonCanonicalIP},
		{"public trailing dot", "https://8.8.8.8./", false, RuleNonCanonicalIP},
		{"five parts", "https://1.2.3.4.5/", false, RuleNonCanonicalIP},
		{"name ending in number", "https://example.123/", false, RuleNonCanonicalIP},
		{"name ending in hex", "https://example.0x1f/", false, RuleNonCanonicalIP},
		{"full-width digits", "https://１２７.０.０.１/", false, RuleNonCanonicalIP},
		{"ideographic dots", "https://127。0。0。1/", false, RuleNonCanonicalIP},
		{"full-width public", "https://８.８.８.８/", false, RuleNonCanonicalIP},
		{"name ending in 0x only", "https://example.0x/", false, RuleNonCanonicalIP},

		// Section 4.10 zones.
		{"zone", "https://[fe80::1%25eth0]/", false, RuleZone},
		{"zone loopback mode", "http://[::1%25lo]/", true, RuleZone},
		{"zoned mapped", "https://[::ffff:8.8.8.8%25eth0]/", false, RuleZone},

		// Section 4.12 names and literals for loopback and metadata.
		{"localhost", "https://localhost/", false, RuleLocalhost},
		{"localhost upper-case", "https://LOCALHOST/", false, RuleLocalhost},
		{"localhost.", "https://localhost./", false, RuleLocalhost},
		{"sub.localhost", "https://app.localhost/", false, RuleLocalhost},
		{"sub.localhost.", "https://app.localhost./", false, RuleLocalhost},
		{"metadata literal", "https://169.254.169.254/latest/meta-data/", false, RuleAddress},
		{"metadata literal loopback mode", "http://169.254.169.254/", true, RuleAddress},
		{"loopback literal", "https://127.0.0.1/", false, RuleAddress},
		{"loopback v6 literal", "https://[::1]/", false, RuleAddress},
		{"private literal", "https://10.0.0.1/", false, RuleAddress},
		{"unspecified", "https://0.0.0.0/", false, RuleAddress},
		{"unspecified loopback mode", "http://0.0.0.0:8080/", true, RuleAddress},
		{"unspecified v6", "https://[::]/", false, RuleAddress},
		{"mapped loopback literal", "https://[::ffff:127.0.0.1]/", false, RuleAddress},
		{"mapped loopback literal in loopback mode", "http://[::ffff:127.0.0.1]/", true, RuleAddress},
		{"NAT64 metadata literal", "https://[64:ff9b::a9fe:a9fe]/", false, RuleAddress},
		{"broadcast", "https://255.255.255.255/", false, RuleAddress},
		{"multicast", "https://224.0.0.1/", false, RuleAddress},
		{"IPv4 in brackets", "https://[127.0.0.1]/", false, RuleSyntax},

		// Development mode (AllowLoopback).
		{"http localhost", "http://localhost:8080/", true, ""},
		{"https localhost", "https://localhost/", true, ""},
		{"http sub.localhost", "http://app.localhost:3000/", true, ""},
		{"http 127.0.0.1", "http://127.0.0.1:8080/x", true, ""},
		{"http 127.255.255.254", "http://127.255.255.254/", true, ""},
		{"http ::1", "http://[::1]:8080/", true, ""},
		{"https ::1", "https://[::1]/", true, ""},
		{"public https in loopback mode", "https://example.com/", true, ""},
		{"file in loopback mode", "file:///etc/passwd", true, RuleScheme},
		{"ws in loopback mode", "ws://localhost/", true, RuleScheme},

		// Syntax.
		{"bad IPv6", "https://[::1/", false, RuleSyntax},
		{"bad IPv6 literal", "https://[fe80::zz]/", false, RuleSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckURL(tt.url, tt.loopback)
			if tt.rule == "" {
				assert.NoError(t, err)
				return
			}
			var ue *URLError
			require.ErrorAs(t, err, &ue, "want rule %s", tt.rule)
			assert.ErrorIs(t, err, ErrForbiddenURL)
			assert.Equal(t, tt.rule, ue.Rule, "reason: %s", ue.Reason)
			assert.NotEmpty(t, ue.Reason)
		})
	}
}

// TestCheckURLLocation covers research Section 4 item 19: Location values as a
// client sees them after resolving against the page URL, and raw.
func TestCheckURLLocation(t *testing.T) {
	base, err := url.Parse("https://example.com/dir/page")
	require.NoError(t, err)
	tests := []struct {
		location string
		rule     string // of the resolved URL; "" = accepted
	}{
		{"/other", ""},
		{"other", ""},
		{"?q=1", ""},
		{"https://www.example.com/", ""},
		{"//169.254.169.254/latest/meta-data/", RuleAddress},
		{"//localhost/", RuleLocalhost},
		{"//user:pw@example.com/", RuleUserinfo},
		{"http://example.com/", RuleScheme},
		{"file:///etc/passwd", RuleScheme},
		{"https://127.1/", RuleNonCanonicalIP},
	}
	for _, tt := range tests {
		t.Run(tt.location, func(t *testing.T) {
			ref, err := url.Parse(tt.location)
			require.NoError(t, err)
			err = CheckURL(base.ResolveReference(ref).String(), false)
			if tt.rule == "" {
				assert.NoError(t, err)
			} else {
				var ue *URLError
				require.ErrorAs(t, err, &ue)
				assert.Equal(t, tt.rule, ue.Rule)
			}
			// Unresolved, every one of them but an absolute https URL is refused.
			if !strings.HasPrefix(tt.location, "https://") {
				assert.Error(t, CheckURL(tt.location, false))
			}
		})
	}
}

func TestURLErrorRedactsPassword(t *testing.T) {
	tests := []struct {
		url, rule, want string
	}{
		{"https://user:hunter2@example.com/", RuleUserinfo, "https://redacted@example.com/"},
		{"https://a:hunter2@b:hunter2@10.0.0.1/x", RuleUserinfo, "https://redacted@10.0.0.1/x"},
		{"https://user:hunter2@exa mple.com/", RuleUserinfo, "https://redacted@exa mple.com/"},
		{"https://user:hunter2@example.com/\x00", RuleControlChar, "https://redacted@example.com/\x00"},
		{"ftp://user:hunter2@example.com/", RuleScheme, "ftp://redacted@example.com/"},
		{`https://user:hunter2@example.com\x`, RuleBackslash, `https://redacted@example.com\x`},
		{"https://example.com/?u=user:hunter2@x", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := CheckURL(tt.url, false)
			if tt.rule == "" {
				assert.NoError(t, err)
				return
			}
			var ue *URLError
			require.ErrorAs(t, err, &ue)
			assert.Equal(t, tt.rule, ue.Rule)
			assert.Equal(t, tt.want, ue.URL)
			assert.NotContains(t, err.Error(), "hunter2")
		})
	}
}

func TestURLErrorNamesAddressBlock(t *testing.T) {
	err := CheckURL("https://[64:ff9b::a00:1]/", false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "10.0.0.0/8")
	assert.Contains(t, err.Error(), "Private-Use")
	assert.Contains(t, err.Error(), `"https://[64:ff9b::a00:1]/"`)
}

func TestNormalizeURL(t *testing.T) {
	tests := []struct {
		in, want string
		loopback bool
	}{
		{"https://example.com:443/a", "https://example.com/a", false},
		{"HTTPS://EXAMPLE.com/a", "https://example.com/a", false},
		{"https://example.com/a", "https://example.com/a", false},
		{"https://example.com:/a", "https://example.com/a", false},
		{"https://example.com:0443/a", "https://example.com/a", false},
		{"https://example.com:8443/a?b=c#frag", "https://example.com:8443/a?b=c", false},
		{"https://example.com./", "https://example.com/", false},
		{"https://Bücher.example/ä", "https://xn--bcher-kva.example/%C3%A4", false},
		{"https://[2606:4700:4700:0::1111]:443/", "https://[2606:4700:4700::1111]/", false},
		{"http://localhost:80/", "http://localhost/", true},
		{"http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x", true},
		{"https://localhost:443/", "https://localhost/", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NormalizeURL(tt.in, tt.loopback)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			again, err := NormalizeURL(got, tt.loopback)
			require.NoError(t, err)
			assert.Equal(t, got, again, "normalization is idempotent")
		})
	}
	_, err := NormalizeURL("http://example.com/", false)
	assert.ErrorIs(t, err, ErrForbiddenURL)
}

// FuzzCheckURL checks that CheckURL never panics and that every URL it
// accepts satisfies the policy when parsed again: absolute, https (or http
// to a loopback host in development mode), a non-empty host, no userinfo,
// a port in 1-65535, no control characters or backslashes before the
// query, and that NormalizeURL gives an accepted, stable URL for it.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://example.com/", "http://localhost:8080/", "https://a@b@127.0.0.1/", "https://127.1/",
		"https://[fe80::1%25eth0]/", "https://bücher.example/", "//example.com/", "https://example.com:443/",
		`https://example.com\@evil/`, "https://%65xample.com/", "https://0x7f.1/", "https://[::ffff:127.0.0.1]/",
		"https://１２７.０.０.１/", "https://[64:ff9b::8.8.8.8]/", "HTTPS://EXAMPLE.COM:0443/a?b#c",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, allowLoopback bool) {
		err := CheckURL(raw, allowLoopback)
		if err != nil {
			var ue *URLError
			if !assert.ErrorAs(t, err, &ue) {
				return
			}
			assert.NotEmpty(t, ue.Rule)
			return
		}
		u, perr := url.Parse(raw)
		require.NoError(t, perr)
		scheme := strings.ToLower(u.Scheme)
		assert.Contains(t, []string{"https", "http"}, scheme)
		assert.Nil(t, u.User)
		assert.NotEmpty(t, u.Hostname())
		assert.Empty(t, u.Opaque)
		for i := 0; i < len(raw); i++ {
			assert.False(t, raw[i] < 0x20 || raw[i] == 0x7f, "control character accepted")
		}
		norm, nerr := NormalizeURL(raw, allowLoopback)
		require.NoError(t, nerr)
		n, perr := url.Parse(norm)
		require.NoError(t, perr)
		host := n.Hostname()
		loopbackHost := host == "localhost" || strings.HasSuffix(host, ".localhost")
		if a, err := netip.ParseAddr(host); err == nil {
			loopbackHost = a.Is4() && a.IsLoopback() || a == netip.IPv6Loopback()
		}
		if scheme == "http" || !allowLoopback {
			if scheme == "http" {
				assert.True(t, allowLoopback && loopbackHost, "http accepted to %q", host)
			}
		}
		if !allowLoopback {
			assert.Equal(t, "https", n.Scheme)
			assert.False(t, loopbackHost, "loopback host %q accepted", host)
		}
		assert.NotEqual(t, "443", n.Port(), "default port kept")
		if a, err := netip.ParseAddr(host); err == nil && !(allowLoopback && loopbackHost) {
			assert.NoError(t, CheckAddr(a), "refused address %s accepted", a)
		} else if err != nil {
			_, nerr := weburl.NormalizeHost(host)
			assert.NoError(t, nerr, "host %q", host)
			if host != "localhost" {
				assert.Contains(t, host, ".", "single-label host %q", host)
			}
		}
		beforeQuery, _, _ := strings.Cut(raw, "?")
		beforeQuery, _, _ = strings.Cut(beforeQuery, "#")
		assert.NotContains(t, beforeQuery, `\`)
		if auth, ok := weburl.RawAuthority(raw); ok {
			assert.NotContains(t, auth, "%")
			assert.NotContains(t, auth, "@")
		}
		assert.NoError(t, CheckURL(norm, allowLoopback), "normalized URL %q refused", norm)
		again, nerr := NormalizeURL(norm, allowLoopback)
		require.NoError(t, nerr)
		assert.Equal(t, norm, again)
	})
}

func BenchmarkCheckURL(b *testing.B) {
	for _, bc := range []struct{ name, url string }{
		{"name", "https://www.example.com/.well-known/agentic.json"},
		{"idn", "https://bücher.example/a?b=c"},
		{"ipv4", "https://93.184.216.34:8443/"},
		{"refused-userinfo", "https://a@b@127.0.0.1/"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkErr = CheckURL(bc.url, false)
			}
		})
	}
}
