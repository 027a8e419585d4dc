package safefetch

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestErrorsWrapSentinels(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		sentinel error
		message  string
	}{
		{
			name:     "URLError",
			err:      &URLError{URL: "ftp://example.com/", Rule: RuleScheme, Reason: "only https is fetched"},
			sentinel: ErrForbiddenURL,
			message:  `safefetch: url "ftp://example.com/" refused (scheme): only https is fetched`,
		},
		{
			name: "AddrError",
			err: &AddrError{Host: "intranet.example", Addr: netip.MustParseAddr("10.1.2.3"),
				Block: netip.MustParsePrefix("10.0.0.0/8"), Name: "Private-Use", Reason: "not globally reachable (RFC 1918)"},
			sentinel: ErrForbiddenAddress,
			message:  `safefetch: address 10.1.2.3 of host "intranet.example" refused: 10.0.0.0/8 (Private-Use): not globally reachable (RFC 1918)`,
		},
		{
			name:     "AddrError without block",
			err:      &AddrError{Name: "Invalid address", Reason: "the zero netip.Addr is not an address"},
			sentinel: ErrForbiddenAddress,
			message:  `safefetch: address invalid IP refused: (Invalid address): the zero netip.Addr is not an address`,
		},
		{
			name:     "BudgetError attempts",
			err:      &BudgetError{Resource: "attempts", Limit: 22},
			sentinel: ErrBudgetExhausted,
			message:  "safefetch: budget exhausted: attempts (limit 22)",
		},
		{
			name:     "BudgetError deadline",
			err:      &BudgetError{Resource: "deadline", Limit: int64(40 * time.Second)},
			sentinel: ErrBudgetExhausted,
			message:  "safefetch: budget exhausted: deadline (limit 40s)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wrapped := fmt.Errorf("fetching: %w", tt.err)
			assert.ErrorIs(t, wrapped, tt.sentinel)
			assert.Equal(t, tt.message, tt.err.Error())
			for _, other := range []error{ErrForbiddenURL, ErrForbiddenAddress, ErrBudgetExhausted, ErrDNS, ErrTooLarge,
				ErrTooManyRedirects, ErrRedirectRefused, ErrTimeout, ErrContentEncoding} {
				if other != tt.sentinel {
					assert.False(t, errors.Is(tt.err, other), "%v must not match %v", tt.err, other)
				}
			}
		})
	}
}

func TestURLErrorShortensLongURL(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 1000)
	e := &URLError{URL: long, Rule: RuleTooLong, Reason: "too long"}
	assert.Less(t, len(e.Error()), 400)
	assert.Equal(t, long, e.URL)
}

func TestSentinelMessages(t *testing.T) {
	for _, err := range []error{ErrForbiddenURL, ErrForbiddenAddress, ErrDNS, ErrTooLarge, ErrTooManyRedirects,
		ErrRedirectRefused, ErrBudgetExhausted, ErrTimeout, ErrContentEncoding} {
		assert.True(t, strings.HasPrefix(err.Error(), "safefetch: "), err.Error())
		assert.Equal(t, strings.ToLower(err.Error()), err.Error())
	}
}
