package safefetch

import (
	"context"
	"sync"
	"time"
)

// BudgetLimits are the shared bounds of a [Budget]. A zero field is
// unlimited, except DNSGrace whose zero value means [DefaultDNSGrace]. The
// Agentic site profile's scan ("Discovery and auditing") is
// BudgetLimits{Attempts: 22, Bytes: 8 << 20, Concurrency: 5, Timeout: 40 * time.Second}.
type BudgetLimits struct {
	// Attempts bounds the requests made, every redirect hop included
	// (knowledge-linkset draft §7.2: "counting every request including
	// redirects").
	Attempts int
	// Bytes bounds the response-body bytes read. A read that fails (too
	// large, timed out, cut off) is charged its full allowance.
	Bytes int64
	// Concurrency bounds the calls in flight at once; a call waits for a
	// slot, or for its context or the budget deadline to end.
	Concurrency int
	// Timeout is a deadline counted from [NewBudget]: no request starts,
	// and no connection, header or body read continues, after it.
	Timeout time.Duration
	// DNSGrace is how long after the deadline a DNS lookup already in
	// flight may still finish (then the call fails, with the deadline).
	DNSGrace time.Duration
}

// BudgetUsage reports what a [Budget] has spent.
type BudgetUsage struct {
	Attempts        int    // requests charged, redirect hops included
	Bytes           int64  // body bytes charged (failed reads at their full allowance)
	PeakConcurrency int    // the most calls that were in flight at once
	Exhausted       string // "" or the first resource that ran out: "attempts", "bytes" or "deadline"
}

// Budget is shared by the many fetches of one scan or walk (knowledge-linkset
// draft §7.2, Agentic site profile "Discovery and auditing"). Attach it with
// [Options.Budget] or [Client.WithBudget]; every request of every Client that
// carries it is charged. A Budget is safe for concurrent use.
//
// When a resource runs out the call fails with a *[BudgetError] that wraps
// [ErrBudgetExhausted], and [Budget.Usage] names the resource.
type Budget struct {
	limits  BudgetLimits
	created time.Time
	sem     chan struct{} // nil when concurrency is unlimited

	mu        sync.Mutex
	attempts  int
	bytes     int64
	inflight  int
	peak      int
	exhausted string
}

// NewBudget returns a Budget whose deadline (if any) starts now.
func NewBudget(l BudgetLimits) *Budget {
	if l.DNSGrace <= 0 {
		l.DNSGrace = DefaultDNSGrace
	}
	b := &Budget{limits: l, created: time.Now()}
	if l.Concurrency > 0 {
		b.sem = make(chan struct{}, l.Concurrency)
	}
	return b
}

// Limits returns the limits the Budget was made with (DNSGrace defaulted).
func (b *Budget) Limits() BudgetLimits { return b.limits }

// Usage reports what has been spent so far.
func (b *Budget) Usage() BudgetUsage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return BudgetUsage{Attempts: b.attempts, Bytes: b.bytes, PeakConcurrency: b.peak, Exhausted: b.exhausted}
}

// Deadline returns the Budget's deadline, if it has one.
func (b *Budget) Deadline() (time.Time, bool) { return b.deadline() }

func (b *Budget) deadline() (time.Time, bool) {
	if b == nil || b.limits.Timeout <= 0 {
		return time.Time{}, false
	}
	return b.created.Add(b.limits.Timeout), true
}

func (b *Budget) grace() time.Duration {
	if b == nil {
		return 0
	}
	return b.limits.DNSGrace
}

// exhaust records the first resource that ran out and returns its error.
// The caller holds b.mu.
func (b *Budget) exhaustLocked(resource string, limit int64) error {
	if b.exhausted == "" {
		b.exhausted = resource
	}
	return &BudgetError{Resource: resource, Limit: limit}
}

func (b *Budget) deadlineError() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exhaustLocked("deadline", int64(b.limits.Timeout))
}

// checkDeadline fails once the deadline has passed.
func (b *Budget) checkDeadline() error {
	if d, ok := b.deadline(); ok && !time.Now().Before(d) {
		return b.deadlineError()
	}
	return nil
}

// acquire takes a concurrency slot, waiting at most until ctx ends or the
// deadline passes. release must be called once for every nil return.
func (b *Budget) acquire(ctx context.Context) error {
	if b == nil {
		return nil
	}
	if err := b.checkDeadline(); err != nil {
		return err
	}
	if b.sem != nil {
		var expired <-chan time.Time
		if d, ok := b.deadline(); ok {
			t := time.NewTimer(time.Until(d))
			defer t.Stop()
			expired = t.C
		}
		select {
		case b.sem <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		case <-expired:
			return b.deadlineError()
		}
	}
	b.mu.Lock()
	b.inflight++
	if b.inflight > b.peak {
		b.peak = b.inflight
	}
	b.mu.Unlock()
	return nil
}

func (b *Budget) release() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.inflight--
	b.mu.Unlock()
	if b.sem != nil {
		<-b.sem
	}
}

// attempt charges one request.
func (b *Budget) attempt() error {
	if b == nil {
		return nil
	}
	if err := b.checkDeadline(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.limits.Attempts > 0 && b.attempts >= b.limits.Attempts {
		return b.exhaustLocked("attempts", int64(b.limits.Attempts))
	}
	b.attempts++
	return nil
}

// reserve sets aside the allowance of one body read: want bytes, or what is
// left of the byte budget if that is less. A read may use at most the
// returned allowance; settle must follow.
func (b *Budget) reserve(want int64) (allowance int64, limited bool, err error) {
	if b == nil || b.limits.Bytes <= 0 {
		return want, false, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	left := b.limits.Bytes - b.bytes
	if left <= 0 {
		return 0, true, b.exhaustLocked("bytes", b.limits.Bytes)
	}
	if left < want {
		want, limited = left, true
	}
	b.bytes += want
	return want, limited, nil
}

// settle ends a read that reserved allowance bytes: a read that succeeded
// is charged what it used; a failed read keeps its whole allowance.
func (b *Budget) settle(allowance, used int64, failed bool) {
	if b == nil || b.limits.Bytes <= 0 || failed {
		return
	}
	b.mu.Lock()
	b.bytes -= allowance - used
	b.mu.Unlock()
}

// bytesError reports the byte budget as exhausted.
func (b *Budget) bytesError() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exhaustLocked("bytes", b.limits.Bytes)
}

// charge counts bytes that were read without a reservation (HTTPClient
// bodies are charged as they are read) and fails once the total passes the
// limit.
func (b *Budget) charge(n int64) error {
	if b == nil || b.limits.Bytes <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bytes += n
	if b.bytes > b.limits.Bytes {
		return b.exhaustLocked("bytes", b.limits.Bytes)
	}
	return nil
}
