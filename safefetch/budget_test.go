package safefetch_test

import (
	"context"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

func budgetErr(t *testing.T, err error, resource string) {
	t.Helper()
	require.ErrorIs(t, err, safefetch.ErrBudgetExhausted)
	var be *safefetch.BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, resource, be.Resource)
}

func TestBudgetAttempts(t *testing.T) {
	n := newNetwork(t)
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "/", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	b := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 4})
	c := n.Client().WithBudget(b)
	_, err := c.Get(t.Context(), "https://shop.example/", nil)
	require.NoError(t, err)
	_, err = c.Get(t.Context(), "https://shop.example/hop", nil)
	require.NoError(t, err)
	assert.Equal(t, 3, b.Usage().Attempts, "a redirect hop is an attempt")
	_, err = c.Get(t.Context(), "https://shop.example/hop", nil)
	budgetErr(t, err, "attempts")
	assert.Equal(t, 4, n.Requests("shop.example"))
	_, err = c.Get(t.Context(), "https://shop.example/", nil)
	budgetErr(t, err, "attempts")
	u := b.Usage()
	assert.Equal(t, 4, u.Attempts)
	assert.Equal(t, "attempts", u.Exhausted)
	assert.Equal(t, 4, n.Requests("shop.example"))

	// A URL refused before any network activity is not an attempt.
	b2 := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 1})
	_, err = n.Client().WithBudget(b2).Get(t.Context(), "http://shop.example/", nil)
	require.ErrorIs(t, err, safefetch.ErrForbiddenURL)
	assert.Zero(t, b2.Usage().Attempts)
}

func TestBudgetBytes(t *testing.T) {
	n := newNetwork(t)
	n.Site("k.example", sized(1000, false))
	n.Site("k-chunked.example", sized(1000, true))
	n.Site("endless.example", sized(64*mib, true))

	t.Run("successful reads are charged what they read", func(t *testing.T) {
		b := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 2500})
		c := n.Client().WithBudget(b)
		for range 2 {
			_, err := c.Get(t.Context(), "https://k.example/", nil)
			require.NoError(t, err)
		}
		assert.Equal(t, int64(2000), b.Usage().Bytes)
		// 500 left: the declared 1000 bytes do not fit, and the body is
		// refused before it is read; what the transport had received of it
		// is charged (at most the 1000 bytes sent).
		_, err := c.Get(t.Context(), "https://k.example/", nil)
		budgetErr(t, err, "bytes")
		assert.GreaterOrEqual(t, b.Usage().Bytes, int64(2000))
		assert.LessOrEqual(t, b.Usage().Bytes, int64(3000))
		assert.Equal(t, "bytes", b.Usage().Exhausted)
		_, err = c.Get(t.Context(), "https://k.example/", nil)
		budgetErr(t, err, "bytes")
		_, err = c.Head(t.Context(), "https://k.example/", nil)
		require.NoError(t, err, "HEAD reads no body")
	})
	t.Run("chunked body over what is left", func(t *testing.T) {
		b := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 1500})
		c := n.Client().WithBudget(b)
		_, err := c.Get(t.Context(), "https://k-chunked.example/", nil)
		require.NoError(t, err)
		// Read until the 500 bytes left run out, then refused; what the
		// transport had received beyond them is charged too.
		_, err = c.Get(t.Context(), "https://k-chunked.example/", nil)
		budgetErr(t, err, "bytes")
		assert.GreaterOrEqual(t, b.Usage().Bytes, int64(1500))
		assert.LessOrEqual(t, b.Usage().Bytes, int64(2000))
	})
	t.Run("a failed read is charged what it received", func(t *testing.T) {
		b := safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 8 * mib})
		opts := n.Options()
		opts.MaxBodyBytes = 4096
		c := safefetch.New(opts).WithBudget(b)
		resp, err := c.Get(t.Context(), "https://endless.example/", nil)
		require.ErrorIs(t, err, safefetch.ErrTooLarge)
		require.NotNil(t, resp)
		// The cap and the byte past it, then what the transport had
		// buffered for the stream: at most its window and read buffers.
		assert.GreaterOrEqual(t, b.Usage().Bytes, int64(4097))
		assert.LessOrEqual(t, b.Usage().Bytes, int64(4097+safefetch.MaxBufferedForTest))
		assert.Empty(t, b.Usage().Exhausted)
	})
}

func TestBudgetDeadline(t *testing.T) {
	n := newNetwork(t)
	n.Site("slow.example", text("slow"))
	n.SetLatency("slow.example", 30*time.Second)
	n.Site("fast.example", text("fast"))

	b := safefetch.NewBudget(safefetch.BudgetLimits{Timeout: 2 * time.Second})
	d, ok := b.Deadline()
	require.True(t, ok)
	assert.WithinDuration(t, time.Now().Add(2*time.Second), d, time.Second)
	c := n.Client().WithBudget(b)
	_, err := c.Get(t.Context(), "https://fast.example/", nil)
	require.NoError(t, err)
	start := time.Now()
	_, err = c.Get(t.Context(), "https://slow.example/", nil)
	budgetErr(t, err, "deadline")
	assert.Less(t, time.Since(start), 10*time.Second, "far below the server's 30 s")
	_, err = c.Get(t.Context(), "https://fast.example/", nil)
	budgetErr(t, err, "deadline")
	assert.Equal(t, "deadline", b.Usage().Exhausted)

	t.Run("DNS may finish within the grace, then the deadline holds", func(t *testing.T) {
		opts := n.Options()
		var lookups atomic.Int64
		opts.Resolver = resolverFunc(func(ctx context.Context, network, host string) ([]netip.Addr, error) {
			lookups.Add(1)
			<-ctx.Done() // a lookup that never answers
			return nil, ctx.Err()
		})
		b := safefetch.NewBudget(safefetch.BudgetLimits{Timeout: 100 * time.Millisecond, DNSGrace: 150 * time.Millisecond})
		start := time.Now()
		_, err := safefetch.New(opts).WithBudget(b).Get(t.Context(), "https://fast.example/", nil)
		budgetErr(t, err, "deadline")
		elapsed := time.Since(start)
		assert.GreaterOrEqual(t, elapsed, 200*time.Millisecond, "the lookup had its grace")
		assert.Less(t, elapsed, 10*time.Second, "the lookup never answers: only the grace ends it")
		assert.Equal(t, int64(1), lookups.Load())
	})
}

func TestBudgetConcurrency(t *testing.T) {
	n := newNetwork(t)
	var inFlight, peak atomic.Int64
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if now <= p || peak.CompareAndSwap(p, now) {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
		_, _ = w.Write([]byte("ok"))
	}))
	b := safefetch.NewBudget(safefetch.BudgetLimits{Concurrency: 2})
	c := n.Client().WithBudget(b)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			_, err := c.Get(t.Context(), "https://shop.example/", nil)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, 2, b.Usage().PeakConcurrency)
	assert.LessOrEqual(t, peak.Load(), int64(2))
	assert.Equal(t, 8, b.Usage().Attempts)

	t.Run("waiting for a slot respects the context", func(t *testing.T) {
		n.SetLatency("shop.example", 30*time.Second)
		n.ResetRequests()
		b := safefetch.NewBudget(safefetch.BudgetLimits{Concurrency: 1})
		c := n.Client().WithBudget(b)
		holder, cancelHolder := context.WithCancel(context.Background())
		t.Cleanup(cancelHolder)
		go func() { _, _ = c.Get(holder, "https://shop.example/", nil) }()
		require.Eventually(t, func() bool { return n.Requests("shop.example") == 1 }, 10*time.Second, 5*time.Millisecond)
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		_, err := c.Get(ctx, "https://shop.example/", nil)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 1, b.Usage().Attempts, "the waiting call made no attempt")
	})
}
