package service

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCaller: a caller is its address, an IPv6 address by its /64, read
// from the last entry of the trusted proxy's header when one is named.
func TestCaller(t *testing.T) {
	cases := []struct {
		name, remote, header, value, want string
	}{
		{"v4", "198.51.100.7:5555", "", "", "198.51.100.7"},
		{"v6 by its /64", "[2001:db8:1:2:aaaa::1]:5555", "", "", "2001:db8:1:2::/64"},
		{"same /64", "[2001:db8:1:2:bbbb::9]:1", "", "", "2001:db8:1:2::/64"},
		{"mapped v4", "[::ffff:198.51.100.7]:5555", "", "", "198.51.100.7"},
		{"header ignored unless named", "198.51.100.7:1", "", "203.0.113.5", "198.51.100.7"},
		{"last entry of the header", "10.0.0.1:1", "X-Forwarded-For", "1.2.3.4, 203.0.113.5", "203.0.113.5"},
		{"header missing", "10.0.0.1:1", "X-Forwarded-For", "", "10.0.0.1"},
		{"garbage", "10.0.0.1:1", "X-Forwarded-For", "not an address", "unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Service{o: Options{ClientIPHeader: c.header}}
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = c.remote
			if c.value != "" {
				r.Header.Set("X-Forwarded-For", c.value)
			}
			assert.Equal(t, c.want, s.caller(r))
		})
	}
}
