package browser

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSameOriginComparesNormalizedOrigins: the navigation guard takes a
// landing page's origin however it is spelled (host case, trailing dot,
// default port) as the module's one normalizer does, and anything else as
// another origin.
func TestSameOriginComparesNormalizedOrigins(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://shop.example/a", "https://shop.example/b", true},
		{"https://SHOP.example./a", "https://shop.example:443/", true},
		{"http://127.0.0.1:80/", "http://127.0.0.1/x", true},
		{"https://shop.example/", "http://shop.example/", false},
		{"https://shop.example:8443/", "https://shop.example/", false},
		{"https://www.shop.example/", "https://shop.example/", false},
		{"data:text/html,hi", "https://shop.example/", false},
	} {
		a, err := url.Parse(tc.a)
		assert.NoError(t, err)
		b, err := url.Parse(tc.b)
		assert.NoError(t, err)
		assert.Equal(t, tc.same, sameOrigin(a, b), "%s ~ %s", tc.a, tc.b)
	}
}
