package safefetch_test

import (
	"bytes"
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// Over HTTP/2 many calls share one connection, and a call that breaks a cap
// or is cancelled mid-body kills that connection (a server could otherwise
// go on sending to the reset stream). A GET whose body was being read on it
// at that moment is cut through no fault of its own: it is sent once more,
// as a new attempt, and returns the whole body.
func TestHTTP2BodyCutByAnotherCallsKillIsReplayed(t *testing.T) {
	slowBody := bytes.Repeat([]byte("s"), 20<<10)
	for _, tc := range []struct {
		name string
		// kill makes a call on the shared connection that kills it, once
		// the slow body is half read.
		kill func(t *testing.T, c *safefetch.Client)
	}{
		{"another call breaks the body cap", func(t *testing.T, c *safefetch.Client) {
			_, err := c.Do(t.Context(), &safefetch.Request{URL: "https://h2.example/big", MaxBodyBytes: 1 << 10})
			require.ErrorIs(t, err, safefetch.ErrTooLarge)
		}},
		{"another call is cancelled mid-body", func(t *testing.T, c *safefetch.Client) {
			ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
			defer cancel()
			_, err := c.Get(ctx, "https://h2.example/hang", nil)
			require.Error(t, err)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := fetchtest.New()
			t.Cleanup(n.Close)
			half := make(chan struct{}, 1)
			release := make(chan struct{})
			var slowServed atomic.Int32
			mux := http.NewServeMux()
			mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
				first := slowServed.Add(1) == 1
				_, _ = w.Write(slowBody[:len(slowBody)/2])
				w.(http.Flusher).Flush()
				if first {
					half <- struct{}{}
					select {
					case <-release:
					case <-r.Context().Done():
						return
					}
				}
				_, _ = w.Write(slowBody[len(slowBody)/2:])
			})
			mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write(bytes.Repeat([]byte("b"), 8<<10))
			})
			mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte("partial"))
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			})
			n.SiteHTTP2("h2.example", mux)
			budget := safefetch.NewBudget(safefetch.BudgetLimits{})
			c := n.Client().WithBudget(budget)

			type result struct {
				resp *safefetch.Response
				err  error
			}
			done := make(chan result, 1)
			go func() {
				resp, err := c.Get(t.Context(), "https://h2.example/slow", nil)
				done <- result{resp, err}
			}()
			select {
			case <-half:
			case <-time.After(10 * time.Second):
				t.Fatal("the slow body never started")
			}
			tc.kill(t, c)
			close(release)
			var r result
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the slow call never ended")
			}
			require.NoError(t, r.err, "a body cut by another call's kill is read again")
			assert.Equal(t, "HTTP/2.0", r.resp.Proto)
			assert.Equal(t, slowBody, r.resp.Body)
			assert.Len(t, r.resp.Hops, 1, "the replay is not a hop")
			assert.Equal(t, int32(2), slowServed.Load(), "the slow GET was sent twice")
			// The replay is an attempt of its own, and the bytes read of
			// the cut body stay charged.
			assert.Equal(t, 3, budget.Usage().Attempts, "the slow GET twice, the killing call once")
			assert.GreaterOrEqual(t, budget.Usage().Bytes, int64(len(slowBody)+len(slowBody)/2))
		})
	}
}
