package agentic

import (
	"testing"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiscoverTextVersionDefault: by default Discover writes TXT 1.2, the
// publication form the reference tool's current generators write. "1.1"
// asks for the canonical TXT 1.1 alone. Any other value is refused before a
// request is made.
func TestDiscoverTextVersionDefault(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", siteHandler(map[string]page{
		"/": {ctype: htmlType, body: "<title>Shop</title>"},
	}))
	for _, tc := range []struct{ version, declared string }{{"", "1.2"}, {"1.2", "1.2"}, {"1.1", "1.1"}} {
		t.Run("version "+tc.version, func(t *testing.T) {
			d, err := Discover(t.Context(), "https://shop.example", &DiscoverOptions{Client: n.Client(), TextVersion: tc.version})
			require.NoError(t, err)
			require.NotNil(t, d.Site)
			assert.Equal(t, tc.declared, declaredTextVersion(d.Text))
			assert.Equal(t, TextStatusMatched, CheckText(d.Site, d.ProfileURL, d.Text), "the TXT matches the profile")
		})
	}
	_, err := Discover(t.Context(), "https://shop.example", &DiscoverOptions{Client: n.Client(), TextVersion: "9"})
	assert.ErrorContains(t, err, "unsupported TXT version")
}
