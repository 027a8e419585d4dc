package readiness

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
)

// getCapped's cap is at most the scan's, and the memo is keyed by method, URL
// and Accept: the first caller's cap wins, and a later caller shares its
// answer.
func TestGetCappedFirstCapWins(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, strings.Repeat("x", 100))
	}))
	newTestScan := func() *scan {
		return newScan(context.Background(), mustURL("https://shop.example/"), n.Client().WithBudget(safefetch.NewBudget(safefetch.BudgetLimits{})), 50, 0, 0, nil)
	}
	s := newTestScan()
	small := s.getCapped("https://shop.example/a", "", 0, 10)
	assert.True(t, small.tooLarge(), "over the caller's cap")
	assert.Same(t, small, s.get("https://shop.example/a", ""), "a later caller shares the first answer")
	assert.NotSame(t, small, s.get("https://shop.example/a", acceptHTML), "another Accept is another request")

	s = newTestScan()
	assert.True(t, s.getCapped("https://shop.example/b", "", 0, 1<<20).tooLarge(), "the scan's cap of 50 bytes bounds a larger one")
}
