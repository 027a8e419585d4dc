package refusal

import (
	"errors"
	"fmt"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentweb/agentweb/safefetch"
)

func TestPolicyNamesTheReason(t *testing.T) {
	urlErr := safefetch.CheckURL("http://shop.example/", false)
	addrErr := safefetch.CheckAddr(netip.MustParseAddr("10.0.0.7"))
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"url", fmt.Errorf("fetch: %w", urlErr), `refused by the fetch policy: scheme "http"`},
		{"address", fmt.Errorf("fetch: %w", addrErr), "refused by the fetch policy: address 10.0.0.7 is Private-Use"},
		{"no reason", safefetch.ErrForbiddenURL, "refused by the fetch policy"},
		{"other", errors.New("boom"), "refused by the fetch policy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Policy(tc.err)
			assert.Contains(t, got, tc.want)
			if tc.name == "no reason" || tc.name == "other" {
				assert.Equal(t, "refused by the fetch policy", got)
				assert.Empty(t, Reason(tc.err))
			}
		})
	}
}
