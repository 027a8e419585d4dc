package safefetch_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// A Budget given to WithBudget is nested inside the Client's own: every
// attempt is charged to both, and whichever runs out first stops the call.
// On the base commit the derived Client replaced the Client's Budget, which
// then recorded nothing and bounded nothing.
func TestWithBudgetNestsInsideTheClientsBudget(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", text("ok"))
	get := func(c *safefetch.Client) error {
		_, err := c.Get(t.Context(), "https://shop.example/", nil)
		return err
	}
	t.Run("the outer budget bounds the derived client", func(t *testing.T) {
		outer := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 2})
		opts := n.Options()
		opts.Budget = outer
		base := safefetch.New(opts)
		inner := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 10})
		derived := base.WithBudget(inner)
		assert.Same(t, inner, derived.Budget(), "Budget is the innermost")
		require.NoError(t, get(derived))
		require.NoError(t, get(base))
		budgetErr(t, get(derived), "attempts")
		assert.Equal(t, 2, outer.Usage().Attempts)
		assert.Equal(t, "attempts", outer.Usage().Exhausted)
		assert.Equal(t, 1, inner.Usage().Attempts, "the refused attempt is charged to neither")
		assert.Empty(t, inner.Usage().Exhausted)
	})
	t.Run("the inner budget tightens", func(t *testing.T) {
		outer := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 10})
		inner := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 1})
		c := n.Client().WithBudget(outer).WithBudget(inner)
		require.NoError(t, get(c))
		budgetErr(t, get(c), "attempts")
		assert.Equal(t, 1, outer.Usage().Attempts)
		assert.Equal(t, 1, inner.Usage().Attempts)
	})
	t.Run("nil or a budget already charged changes nothing", func(t *testing.T) {
		outer := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 1})
		c := n.Client().WithBudget(outer)
		assert.Same(t, outer, c.WithBudget(nil).Budget())
		require.NoError(t, get(c.WithBudget(nil).WithBudget(outer)))
		assert.Equal(t, 1, outer.Usage().Attempts, "charged once, not twice")
		budgetErr(t, get(c.WithBudget(nil)), "attempts")
	})
	t.Run("bytes are charged to every budget", func(t *testing.T) {
		outer := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 3})
		inner := safefetch.NewBudget(safefetch.BudgetLimits{})
		c := n.Client().WithBudget(outer).WithBudget(inner)
		require.NoError(t, get(c))
		assert.Equal(t, int64(2), outer.Usage().Bytes)
		assert.Equal(t, int64(2), inner.Usage().Bytes, "an unlimited budget records what it is charged")
		budgetErr(t, get(c), "bytes")
		assert.Equal(t, "bytes", outer.Usage().Exhausted)
	})
	t.Run("the earliest deadline holds", func(t *testing.T) {
		outer := safefetch.NewBudget(safefetch.BudgetLimits{Timeout: time.Millisecond})
		time.Sleep(5 * time.Millisecond)
		inner := safefetch.NewBudget(safefetch.BudgetLimits{Timeout: time.Hour})
		c := n.Client().WithBudget(outer).WithBudget(inner)
		d, ok := outer.Deadline()
		require.True(t, ok)
		budgetErr(t, get(c), "deadline")
		assert.Equal(t, "deadline", outer.Usage().Exhausted)
		assert.Empty(t, inner.Usage().Exhausted)
		assert.True(t, time.Now().After(d))
	})
	t.Run("concurrency is bounded by the outer budget", func(t *testing.T) {
		var inflight, peak atomic.Int32
		release := make(chan struct{})
		n.Site("slow.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v := inflight.Add(1)
			for p := peak.Load(); v > p && !peak.CompareAndSwap(p, v); p = peak.Load() {
			}
			<-release
			inflight.Add(-1)
			_, _ = w.Write([]byte("ok"))
		}))
		outer := safefetch.NewBudget(safefetch.BudgetLimits{Concurrency: 2})
		base := n.Client().WithBudget(outer)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				// Each call in a scan of its own, whose budget allows 4.
				c := base.WithBudget(safefetch.NewBudget(safefetch.BudgetLimits{Concurrency: 4}))
				_, err := c.Get(t.Context(), "https://slow.example/", nil)
				assert.NoError(t, err)
			})
		}
		// Two reach the server; the others wait for a slot of the outer
		// budget, however long.
		require.Eventually(t, func() bool { return inflight.Load() == 2 }, 10*time.Second, 5*time.Millisecond)
		time.Sleep(200 * time.Millisecond)
		close(release)
		wg.Wait()
		assert.Equal(t, int32(2), peak.Load())
		assert.Equal(t, 2, outer.Usage().PeakConcurrency)
	})
	t.Run("opposite nesting orders do not deadlock", func(t *testing.T) {
		a := safefetch.NewBudget(safefetch.BudgetLimits{Concurrency: 1, Attempts: 1000})
		b := safefetch.NewBudget(safefetch.BudgetLimits{Concurrency: 1, Attempts: 1000})
		ab := n.Client().WithBudget(a).WithBudget(b)
		ba := n.Client().WithBudget(b).WithBudget(a)
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		defer cancel()
		var wg sync.WaitGroup
		for i := range 8 {
			c := ab
			if i%2 == 1 {
				c = ba
			}
			wg.Go(func() {
				for range 10 {
					_, err := c.Get(ctx, "https://shop.example/", nil)
					assert.NoError(t, err)
				}
			})
		}
		wg.Wait()
		assert.Equal(t, 80, a.Usage().Attempts)
		assert.Equal(t, 80, b.Usage().Attempts)
	})
}

// Request.MaxBodyBytes lowers the Client's cap and never raises it. On the
// base commit a request's larger value replaced the Client's.
func TestRequestMaxBodyBytesOnlyTightens(t *testing.T) {
	n := newNetwork(t)
	n.Site("big.example", sized(500_000, false))
	n.Site("small.example", sized(5_000, true))
	opts := n.Options()
	opts.MaxBodyBytes = 10_000
	c := safefetch.New(opts)
	_, err := c.Do(t.Context(), &safefetch.Request{URL: "https://big.example/", MaxBodyBytes: 1 << 20})
	require.ErrorIs(t, err, safefetch.ErrTooLarge, "a request cannot raise its Client's cap")
	_, err = c.Do(t.Context(), &safefetch.Request{URL: "https://small.example/", MaxBodyBytes: 1_000})
	require.ErrorIs(t, err, safefetch.ErrTooLarge, "a request can lower it")
	resp, err := c.Do(t.Context(), &safefetch.Request{URL: "https://small.example/"})
	require.NoError(t, err)
	assert.Len(t, resp.Body, 5_000)
}

// Bytes are charged as they are read, and a read is refused only when the
// bytes actually left run out. On the base commit every read reserved its
// whole cap (1 MiB) up front: five concurrent 5-byte responses under a
// 3 MiB budget gave two "budget exhausted: bytes" errors with 15 bytes used.
func TestBudgetBytesChargedAsRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		chunked bool
		limit   int64
	}{
		{"declared length, 3 MiB", false, 3 << 20},
		{"chunked, 3 MiB", true, 3 << 20},
		// Exactly what the five bodies need: a read waits for what others
		// hold and give back, and is refused only when nothing is left.
		{"declared length, 25 bytes", false, 25},
		{"chunked, 25 bytes", true, 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNetwork(t)
			// The five bodies are sent once the five responses' headers
			// are, and a little later: the five reads are in progress at
			// once.
			var arrived sync.WaitGroup
			arrived.Add(5)
			all := make(chan struct{})
			go func() { arrived.Wait(); time.Sleep(100 * time.Millisecond); close(all) }()
			n.Site("more.example", text("more"))
			n.Site("five.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !tc.chunked {
					w.Header().Set("Content-Length", "5")
				}
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				arrived.Done()
				<-all
				_, _ = w.Write([]byte("hello"))
			}))
			b := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: tc.limit, Concurrency: 5})
			c := n.Client().WithBudget(b)
			var wg sync.WaitGroup
			for range 5 {
				wg.Go(func() {
					resp, err := c.Get(t.Context(), "https://five.example/", nil)
					if assert.NoError(t, err) {
						assert.Equal(t, "hello", string(resp.Body))
					}
				})
			}
			wg.Wait()
			u := b.Usage()
			assert.Equal(t, int64(25), u.Bytes)
			assert.Empty(t, u.Exhausted)
			assert.Equal(t, 5, u.PeakConcurrency)
			_, err := c.Get(t.Context(), "https://more.example/", nil)
			if tc.limit == 25 {
				budgetErr(t, err, "bytes")
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

// A redirect policy added with WithRedirectPolicy is consulted after the
// Client's own: a derived Client refuses more, never less. On the base
// commit the new policy replaced the old one.
func TestWithRedirectPolicyOnlyTightens(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", redirectTo(http.StatusFound, "https://other.example/"))
	n.Site("www.shop.example", redirectTo(http.StatusFound, "https://shop.example/x"))
	n.Site("other.example", text("other"))
	strict := n.Client().WithRedirectPolicy(safefetch.SameOriginOrWWW)
	anything := func(from, to *url.URL) error { return nil }
	_, err := strict.WithRedirectPolicy(anything).Get(t.Context(), "https://shop.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrRedirectRefused, "the Client's own policy still holds")
	_, err = strict.WithRedirectPolicy(nil).Get(t.Context(), "https://shop.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrRedirectRefused, "nil keeps the Client's own policy")
	refuseAll := func(from, to *url.URL) error { return errors.New("no hop") }
	_, err = strict.WithRedirectPolicy(refuseAll).Get(t.Context(), "https://www.shop.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrRedirectRefused, "the added policy is consulted too")
	resp, err := n.Client().WithRedirectPolicy(anything).Get(t.Context(), "https://shop.example/", nil)
	require.NoError(t, err)
	assert.Equal(t, "other", string(resp.Body))
}

// Charge counts bytes a caller derived from what it read against every
// Budget of the Client, and reports the one it takes past its limit.
func TestClientCharge(t *testing.T) {
	n := newNetwork(t)
	assert.NoError(t, n.Client().Charge(1<<40), "a Client without a Budget charges nothing")
	outer := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 100})
	inner := safefetch.NewBudget(safefetch.BudgetLimits{})
	c := n.Client().WithBudget(outer).WithBudget(inner)
	require.NoError(t, c.Charge(100))
	assert.Equal(t, int64(100), outer.Usage().Bytes)
	assert.Equal(t, int64(100), inner.Usage().Bytes)
	budgetErr(t, c.Charge(1), "bytes")
	assert.Equal(t, int64(101), outer.Usage().Bytes, "charged whatever the outcome")
	assert.Equal(t, "bytes", outer.Usage().Exhausted)
}
