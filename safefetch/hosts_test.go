package safefetch_test

import (
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
