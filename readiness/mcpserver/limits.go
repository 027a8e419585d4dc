package mcpserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/agentweb/agentweb/internal/plural"
)

// queue bounds the tool calls that run at once and those that wait.
type queue struct {
	slots chan struct{}
	mu    sync.Mutex
	wait  int
	max   int
}

func newQueue(running, waiting int) *queue {
	return &queue{slots: make(chan struct{}, running), max: waiting}
}

// busyError is the tool error of a call that found the server busy.
type busyError struct{ msg string }

func (e *busyError) Error() string { return e.msg }

// acquire takes a slot, waiting while ctx allows if the queue has room. The
// returned function gives the slot back.
func (q *queue) acquire(ctx context.Context, retry time.Duration) (func(), error) {
	release := func() { <-q.slots }
	select {
	case q.slots <- struct{}{}:
		return release, nil
	default:
	}
	q.mu.Lock()
	if q.wait >= q.max {
		n := q.wait
		q.mu.Unlock()
		return nil, &busyError{fmt.Sprintf("busy: %s running and %d waiting; retry after %d s", plural.N(cap(q.slots), "tool call", "tool calls"), n, retrySeconds(retry))}
	}
	q.wait++
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.wait--
		q.mu.Unlock()
	}()
	select {
	case q.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, &busyError{fmt.Sprintf("busy: no slot freed before the call's deadline (%v); retry after %d s", context.Cause(ctx), retrySeconds(retry))}
	}
}

// maxTracked bounds the callers and targets a limit remembers; entries that
// no longer limit anything are dropped first.
const maxTracked = 10000

// callerLimits is a token bucket per caller.
type callerLimits struct {
	mu    sync.Mutex
	rate  rate.Limit
	burst int
	now   func() time.Time
	m     map[string]*rate.Limiter
}

func newCallerLimits(r float64, burst int, now func() time.Time) *callerLimits {
	if r < 0 {
		return nil
	}
	return &callerLimits{rate: rate.Limit(r), burst: burst, now: now, m: map[string]*rate.Limiter{}}
}

// allow takes one token for caller, or says how long until one is there.
func (c *callerLimits) allow(caller string) (time.Duration, bool) {
	if c == nil {
		return 0, true
	}
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[caller]
	if !ok {
		if len(c.m) >= maxTracked {
			for k, v := range c.m {
				if v.TokensAt(now) >= float64(c.burst) {
					delete(c.m, k)
				}
			}
		}
		if len(c.m) >= maxTracked {
			return time.Second, false
		}
		l = rate.NewLimiter(c.rate, c.burst)
		c.m[caller] = l
	}
	r := l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}

// targetLimits counts the calls per registrable domain in a sliding minute.
type targetLimits struct {
	mu  sync.Mutex
	n   int
	now func() time.Time
	m   map[string][]time.Time
}

func newTargetLimits(n int, now func() time.Time) *targetLimits {
	if n < 0 {
		return nil
	}
	return &targetLimits{n: n, now: now, m: map[string][]time.Time{}}
}

// allow records one call to domain, or says how long until one is allowed.
func (t *targetLimits) allow(domain string) (time.Duration, bool) {
	if t == nil {
		return 0, true
	}
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	recent := t.recent(domain, now)
	if len(recent) >= t.n {
		return recent[0].Add(time.Minute).Sub(now), false
	}
	if _, ok := t.m[domain]; !ok && len(t.m) >= maxTracked {
		for k := range t.m {
			if len(t.recent(k, now)) == 0 {
				delete(t.m, k)
			}
		}
		if len(t.m) >= maxTracked {
			return time.Second, false
		}
	}
	t.m[domain] = append(recent, now)
	return 0, true
}

// recent drops the calls older than a minute and returns the rest.
func (t *targetLimits) recent(domain string, now time.Time) []time.Time {
	ts := t.m[domain]
	i := 0
	for i < len(ts) && !ts[i].After(now.Add(-time.Minute)) {
		i++
	}
	ts = ts[i:]
	if len(ts) == 0 {
		delete(t.m, domain)
		return nil
	}
	t.m[domain] = ts
	return ts
}

// caller names who sent r: the last address of the trusted proxy header
// when one is named and present, else the remote address without its port.
func (s *Server) caller(r *http.Request) string {
	if h := s.opts.TrustedProxyHeader; h != "" {
		if vs := r.Header.Values(h); len(vs) > 0 {
			parts := strings.Split(vs[len(vs)-1], ",")
			last := strings.TrimSpace(parts[len(parts)-1])
			if a, err := netip.ParseAddr(strings.Trim(last, "[]")); err == nil {
				return a.Unmap().String()
			}
			if ap, err := netip.ParseAddrPort(last); err == nil {
				return ap.Addr().Unmap().String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
