package refusal

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/stretchr/testify/assert"
)

func TestKind(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{safefetch.ErrTimeout, "timeout"},
		{fmt.Errorf("get: %w", context.DeadlineExceeded), "timeout"},
		{safefetch.ErrTooManyRedirects, "a redirect that never ends"},
		{safefetch.ErrRedirectRefused, "redirect refused"},
		{fmt.Errorf("x: %w", safefetch.ErrBudgetExhausted), "scan budget exhausted"},
		{safefetch.ErrTooLarge, "response too large"},
		{safefetch.ErrForbiddenURL, "refused by the fetch policy"},
		{safefetch.ErrForbiddenAddress, "refused by the fetch policy"},
		{safefetch.ErrDNS, "DNS failed"},
		{context.Canceled, "cancelled"},
		{errors.New("connection reset"), ""},
		{nil, ""},
	} {
		t.Run(fmt.Sprint(tc.err), func(t *testing.T) {
			assert.Equal(t, tc.want, Kind(tc.err))
		})
	}
	// A policy refusal carries its reason.
	err := safefetch.CheckURL("http://a.example/", false)
	assert.Contains(t, Kind(err), "refused by the fetch policy: ")
}

// TestClassifyMostSpecificFirst: a request whose deadline passed while the
// budget ran out is a timeout, and a policy refusal keeps its class when
// wrapped.
func TestClassifyMostSpecificFirst(t *testing.T) {
	assert.Equal(t, Timeout, Classify(errors.Join(safefetch.ErrBudgetExhausted, context.DeadlineExceeded)))
	assert.Equal(t, Forbidden, Classify(fmt.Errorf("get: %w", safefetch.CheckURL("http://a.example/", false))))
	assert.Equal(t, Other, Classify(errors.New("connection reset")))
	assert.Equal(t, Other, Classify(nil))
}
