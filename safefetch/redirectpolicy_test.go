package safefetch

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSameOriginOrWWW(t *testing.T) {
	tests := []struct {
		from, to string
		ok       bool
	}{
		{"https://example.com/a", "https://example.com/b", true},
		{"https://example.com/a", "https://EXAMPLE.com:443/b", true},
		{"https://example.com./a", "https://example.com/b", true},
		{"https://example.com/", "https://www.example.com/", true},
		{"https://www.example.com/", "https://example.com/", true},
		{"https://shop.example/", "https://www.shop.example/", true},
		{"https://bücher.example/", "https://www.xn--bcher-kva.example/", true},
		{"https://user.github.io/", "https://www.user.github.io/", true},
		{"https://example.co.uk/", "https://www.example.co.uk/", true},
		{"https://example.com:8443/", "https://www.example.com:8443/x", true},
		{"https://[2606:4700:4700::1111]/", "https://[2606:4700:4700::1111]:443/x", true},
		{"http://localhost:8080/", "http://localhost:8080/next", true},

		{"https://example.com/", "https://evil.example/", false},
		{"https://example.com/", "https://api.example.com/", false},
		{"https://www.example.com/", "https://www.www.example.com/", false},
		{"https://www.example.com/", "https://api.example.com/", false},
		{"https://co.uk/", "https://www.co.uk/", false},
		{"https://www.co.uk/", "https://co.uk/", false},
		{"https://github.io/", "https://www.github.io/", false},
		{"https://example.com/", "https://wwwexample.com/", false},
		{"https://example.com/", "https://www2.example.com/", false},
		{"https://example.com/", "http://example.com/", false},
		{"https://example.com/", "https://example.com:8443/", false},
		{"https://example.com:8443/", "https://www.example.com/", false},
		{"https://example.com/", "ftp://example.com/", false},
		{"https://example.com/", "https://user@example.com/", false},
		{"https://93.184.216.34/", "https://www.93.184.216.34/", false},
		{"http://localhost:8080/", "http://www.localhost:8080/", false},
		{"http://example.com/", "http://www.example.com/", false},
		{"https://example.com/", "https:///nohost", false},
	}
	for _, tt := range tests {
		t.Run(tt.from+" -> "+tt.to, func(t *testing.T) {
			from, err := url.Parse(tt.from)
			require.NoError(t, err)
			to, err := url.Parse(tt.to)
			require.NoError(t, err)
			err = SameOriginOrWWW(from, to)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Regexp(t, `^safefetch: redirect `, err.Error())
			}
		})
	}
}

func TestSameOriginOrWWWIsARedirectPolicy(t *testing.T) {
	var p RedirectPolicy = SameOriginOrWWW
	from, _ := url.Parse("https://example.com/")
	to, _ := url.Parse("https://www.example.com/")
	assert.NoError(t, p(from, to))
	assert.Error(t, p(nil, to))
}
