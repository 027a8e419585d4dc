package safefetch_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// Client.CheckURL refuses what a request would refuse, for the same reason,
// and sends nothing: no connection is dialled and the site counts no
// request.
func TestClientCheckURL(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	n.Site("ok.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	n.Host("private.example", "10.0.0.7")
	n.Host("mixed.example", n.Addr("ok.example").String(), "127.0.0.1")
	n.Host("gone.example")
	c := n.Client()
	ctx := context.Background()
	tests := []struct {
		name, url string
		sentinel  error
		reason    string
	}{
		{"public", "https://ok.example/", nil, ""},
		{"private address", "https://private.example/", safefetch.ErrForbiddenAddress, "10.0.0.0/8"},
		{"one refused answer refuses the host", "https://mixed.example/", safefetch.ErrForbiddenAddress, "127.0.0.1"},
		{"no such host", "https://gone.example/", safefetch.ErrDNS, "gone.example"},
		{"literal", "https://127.0.0.1/", safefetch.ErrForbiddenURL, "Loopback"},
		{"userinfo", "https://a:b@ok.example/", safefetch.ErrForbiddenURL, ""},
		{"http to a public name", "http://ok.example/", safefetch.ErrForbiddenURL, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.CheckURL(ctx, tt.url)
			if tt.sentinel == nil {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.sentinel)
			assert.Contains(t, err.Error(), tt.reason)
			_, gerr := c.Get(ctx, tt.url, nil)
			assert.ErrorIs(t, gerr, tt.sentinel, "a request is refused for the same reason")
		})
	}
	n.ResetRequests()
	require.NoError(t, c.CheckURL(ctx, "https://ok.example/"))
	assert.Zero(t, n.Requests("ok.example"), "CheckURL sends no request")
	assert.Zero(t, n.Dials(n.Addr("ok.example")), "CheckURL dials nothing")

	var ae *safefetch.AddrError
	require.ErrorAs(t, c.CheckURL(ctx, "https://private.example/x"), &ae)
	assert.Equal(t, "private.example", ae.Host)

	// A development client reaches loopback, with http too.
	dev := safefetch.New(&safefetch.Options{AllowLoopback: true})
	assert.NoError(t, dev.CheckURL(ctx, "http://127.0.0.1:8080/"))
	assert.ErrorIs(t, safefetch.New(nil).CheckURL(ctx, "http://127.0.0.1:8080/"), safefetch.ErrForbiddenURL)
}

// TestLoopbackLiteralIsErrForbiddenAddress: a URL naming a refused address
// (a loopback or private IP literal, localhost) is ErrForbiddenAddress, as
// a name that resolves to one is, and still ErrForbiddenURL; another URL
// refusal is not an address refusal.
func TestLoopbackLiteralIsErrForbiddenAddress(t *testing.T) {
	for _, u := range []string{"https://127.0.0.1/", "https://[::1]/", "https://10.0.0.1/", "https://localhost/", "https://a.localhost/"} {
		err := safefetch.CheckURL(u, false)
		assert.ErrorIs(t, err, safefetch.ErrForbiddenAddress, u)
		assert.ErrorIs(t, err, safefetch.ErrForbiddenURL, u)
	}
	for _, u := range []string{"http://example.com/", "https://u:p@example.com/", "https://example.com:0/"} {
		err := safefetch.CheckURL(u, false)
		assert.ErrorIs(t, err, safefetch.ErrForbiddenURL, u)
		assert.NotErrorIs(t, err, safefetch.ErrForbiddenAddress, u)
	}
	_, err := safefetch.New(nil).Get(t.Context(), "https://127.0.0.1/", nil)
	assert.ErrorIs(t, err, safefetch.ErrForbiddenAddress, "the README's test")
}
