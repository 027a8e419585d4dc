package safefetch_test

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// newNetwork starts a fetchtest network closed at the end of the test.
func newNetwork(t testing.TB) *fetchtest.Network {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	return n
}

// text serves body as text/plain.
func text(body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(body))
	})
}

// trickle answers 200 and writes its body one byte every 20 ms until the
// client goes away.
func trickle() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(20 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	})
}

// redirectTo answers 302 with the given Location.
func redirectTo(code int, loc string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", loc)
		w.WriteHeader(code)
	})
}

// countingResolver wraps a Resolver, counts lookups per host and can
// replace the answers of a given lookup number.
type countingResolver struct {
	next   safefetch.Resolver
	mu     sync.Mutex
	counts map[string]int
	answer func(host string, n int) ([]netip.Addr, error, bool) // n: 1-based lookup number for host
}

func (r *countingResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	r.counts[host]++
	k := r.counts[host]
	r.mu.Unlock()
	if r.answer != nil {
		if addrs, err, ok := r.answer(host, k); ok {
			return addrs, err
		}
	}
	return r.next.LookupNetIP(ctx, network, host)
}

func (r *countingResolver) count(host string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts[host]
}

// countingDial wraps a Dial function and counts every call.
type countingDial struct {
	next  func(ctx context.Context, network, addr string) (net.Conn, error)
	calls atomic.Int64
}

func (d *countingDial) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.calls.Add(1)
	return d.next(ctx, network, addr)
}
