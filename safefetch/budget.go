package safefetch

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// BudgetLimits are the shared bounds of a [Budget]. A zero field is
// unlimited, except DNSGrace whose zero value means [DefaultDNSGrace]. The
// Agentic site profile's scan ("Discovery and auditing") is
// BudgetLimits{Attempts: 22, Bytes: 8 << 20, Concurrency: 5, Timeout: 40 * time.Second}.
type BudgetLimits struct {
	// Attempts bounds the requests made, every redirect hop included
	// (knowledge-linkset draft Section 7.2: "counting every request including
	// redirects").
	Attempts int
	// Bytes bounds the response-body bytes the calls read. Bytes are
	// charged as they are read, and a read is refused only when the bytes
	// left run out. A body whose declared length is over what is left is
	// refused before it is read. Any other body fails at the read that
	// finds nothing left. A read that fails (too large, refused, timed out,
	// cut off) closes its connection. What the transport had already
	// received for that body beyond the read is charged too. That is its
	// buffers: at most an HTTP/2 stream window of 48 KiB, or HTTP/1's read
	// buffers. So [BudgetUsage.Bytes] may pass Bytes by that much: it
	// counts every body byte received from the network. When the bytes left
	// are all set aside by reads in progress (each sets aside at most what
	// it asks the network for), a read waits for them to be given back.
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
	Bytes           int64  // response-body bytes received, those of failed reads included (see [BudgetLimits.Bytes])
	PeakConcurrency int    // the most calls that were in flight at once
	Exhausted       string // "" or the first resource that ran out: "attempts", "bytes" or "deadline"
}

// Budget is shared by the many fetches of one scan or walk (knowledge-linkset
// draft Section 7.2, Agentic site profile "Discovery and auditing"). Attach it with
// [Options.Budget] or [Client.WithBudget]; every request of every Client that
// carries it is charged.
//
// Budgets nest. A Client derived with [Client.WithBudget] from a Client
// that already has one charges every attempt, byte and concurrency slot to
// both, to every Budget of the chain. A call fails as soon as any of them
// runs out. A derived Client can thus only tighten the limits of the
// Client it came from. A Budget is safe for concurrent use.
//
// When a resource runs out the call fails with a *[BudgetError] that wraps
// [ErrBudgetExhausted], and [Budget.Usage] of the Budget that ran out names
// the resource.
type Budget struct {
	limits  BudgetLimits
	created time.Time
	sem     chan struct{} // nil when concurrency is unlimited
	// key orders the locking of several Budgets (see budgets.lock): drawn
	// at random, so that no package state is needed to make it unique.
	key uint64

	mu        sync.Mutex
	attempts  int
	bytes     int64
	held      int64         // bytes set aside by reads in progress
	freed     chan struct{} // nil, or made by a read that waits, closed when held bytes are given back
	inflight  int
	peak      int
	exhausted string
}

// NewBudget returns a Budget whose deadline (if any) starts now.
func NewBudget(l BudgetLimits) *Budget {
	if l.DNSGrace <= 0 {
		l.DNSGrace = DefaultDNSGrace
	}
	b := &Budget{limits: l, created: time.Now(), key: rand.Uint64()}
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

// exhaustLocked records the first resource that ran out and returns its
// error. The caller holds b.mu.
func (b *Budget) exhaustLocked(resource string, limit int64) error {
	if b.exhausted == "" {
		b.exhausted = resource
	}
	return &BudgetError{Resource: resource, Limit: limit}
}

// budgets is the chain of Budgets a Client charges, the outermost first
// (see [Client.WithBudget]). Its zero value charges nothing.
type budgets struct {
	chain []*Budget
	order []*Budget // chain sorted by key: the order in which locks are taken
}

// with returns the chain with b nested innermost; a nil b, or one already
// in the chain, leaves it as it is.
func (bs budgets) with(b *Budget) budgets {
	if b == nil || slices.Contains(bs.chain, b) {
		return bs
	}
	chain := append(slices.Clip(bs.chain), b)
	order := slices.Clone(chain)
	// Two chains that hold the same Budgets lock them in the same order,
	// whatever order they were nested in.
	slices.SortStableFunc(order, func(x, y *Budget) int { return cmp.Compare(x.key, y.key) })
	return budgets{chain: chain, order: order}
}

// innermost returns the Budget nested last, or nil.
func (bs budgets) innermost() *Budget {
	if len(bs.chain) == 0 {
		return nil
	}
	return bs.chain[len(bs.chain)-1]
}

func (bs budgets) lock() {
	for _, b := range bs.order {
		b.mu.Lock()
	}
}

func (bs budgets) unlock() {
	for i := len(bs.order) - 1; i >= 0; i-- {
		bs.order[i].mu.Unlock()
	}
}

// deadline returns the earliest deadline of the chain and the Budget it is
// the deadline of.
func (bs budgets) deadline() (time.Time, bool) {
	d, _, ok := bs.earliest()
	return d, ok
}

func (bs budgets) earliest() (time.Time, *Budget, bool) {
	var (
		first time.Time
		owner *Budget
	)
	for _, b := range bs.chain {
		if d, ok := b.deadline(); ok && (owner == nil || d.Before(first)) {
			first, owner = d, b
		}
	}
	return first, owner, owner != nil
}

// grace is the DNS grace of the Budget whose deadline comes first.
func (bs budgets) grace() time.Duration {
	if _, b, ok := bs.earliest(); ok {
		return b.limits.DNSGrace
	}
	return 0
}

// deadlineError reports the earliest deadline of the chain as exhausted.
func (bs budgets) deadlineError() error {
	_, b, ok := bs.earliest()
	if !ok {
		return &BudgetError{Resource: "deadline"}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exhaustLocked("deadline", int64(b.limits.Timeout))
}

// checkDeadline fails once the earliest deadline of the chain has passed.
func (bs budgets) checkDeadline() error {
	if d, ok := bs.deadline(); ok && !time.Now().Before(d) {
		return bs.deadlineError()
	}
	return nil
}

// acquire takes a concurrency slot of every Budget of the chain, in lock
// order, so that chains sharing Budgets cannot deadlock. It waits at most
// until ctx ends or the earliest deadline passes. release must be called
// once for every nil return.
func (bs budgets) acquire(ctx context.Context) error {
	if len(bs.chain) == 0 {
		return nil
	}
	if err := bs.checkDeadline(); err != nil {
		return err
	}
	var expired <-chan time.Time
	if d, ok := bs.deadline(); ok {
		t := time.NewTimer(time.Until(d))
		defer t.Stop()
		expired = t.C
	}
	for i, b := range bs.order {
		if b.sem == nil {
			continue
		}
		var err error
		select {
		case b.sem <- struct{}{}:
		case <-ctx.Done():
			err = ctx.Err()
		case <-expired:
			err = bs.deadlineError()
		}
		if err != nil {
			for _, held := range bs.order[:i] {
				if held.sem != nil {
					<-held.sem
				}
			}
			return err
		}
	}
	for _, b := range bs.chain {
		b.mu.Lock()
		b.inflight++
		b.peak = max(b.peak, b.inflight)
		b.mu.Unlock()
	}
	return nil
}

func (bs budgets) release() {
	for _, b := range bs.chain {
		b.mu.Lock()
		b.inflight--
		b.mu.Unlock()
		if b.sem != nil {
			<-b.sem
		}
	}
}

// attempt charges one request to every Budget of the chain, or to none
// when one of them has no attempt left.
func (bs budgets) attempt() error {
	if len(bs.chain) == 0 {
		return nil
	}
	if err := bs.checkDeadline(); err != nil {
		return err
	}
	bs.lock()
	defer bs.unlock()
	for _, b := range bs.chain {
		if b.limits.Attempts > 0 && b.attempts >= b.limits.Attempts {
			return b.exhaustLocked("attempts", int64(b.limits.Attempts))
		}
	}
	for _, b := range bs.chain {
		b.attempts++
	}
	return nil
}

// take sets aside up to want bytes for one read: what every Budget of the
// chain has left, less what reads in progress hold. It fails only when a
// Budget has no byte left at all, counting what it has charged, not what
// is held. When the bytes left are all held by reads in progress, it
// waits for them to be given back, or for ctx to end. The read must give
// the allowance back with settle.
func (bs budgets) take(ctx context.Context, want int64) (int64, error) {
	if len(bs.chain) == 0 || want <= 0 {
		return want, nil
	}
	for {
		bs.lock()
		grant := want
		var wait chan struct{}
		for _, b := range bs.chain {
			if b.limits.Bytes <= 0 {
				continue
			}
			left := b.limits.Bytes - b.bytes
			if left <= 0 {
				err := b.exhaustLocked("bytes", b.limits.Bytes)
				bs.unlock()
				return 0, err
			}
			if free := left - b.held; free < grant {
				grant = free
				if free <= 0 {
					if b.freed == nil {
						b.freed = make(chan struct{})
					}
					wait = b.freed
				}
			}
		}
		if grant > 0 {
			for _, b := range bs.chain {
				if b.limits.Bytes > 0 {
					b.held += grant
				}
			}
			bs.unlock()
			return grant, nil
		}
		bs.unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return 0, context.Cause(ctx)
		}
	}
}

// settle ends a read that took grant bytes and read used of them (used <=
// grant): used is charged, the rest given back.
func (bs budgets) settle(grant, used int64) {
	if len(bs.chain) == 0 {
		return
	}
	bs.lock()
	defer bs.unlock()
	for _, b := range bs.chain {
		b.bytes += used
		if b.limits.Bytes > 0 && grant > 0 {
			b.held -= grant
			if b.freed != nil {
				close(b.freed)
				b.freed = nil
			}
		}
	}
}

// fits reports whether n more bytes are left in every Budget of the chain
// (what reads in progress hold not counted as spent). When one has fewer
// left it returns that Budget's error.
func (bs budgets) fits(n int64) error {
	bs.lock()
	defer bs.unlock()
	for _, b := range bs.chain {
		if b.limits.Bytes > 0 && b.limits.Bytes-b.bytes < n {
			return b.exhaustLocked("bytes", b.limits.Bytes)
		}
	}
	return nil
}

// charge counts n bytes that were received without an allowance, and
// reports a Budget that n took past its limit. Such bytes are what the
// transport had buffered for a body that failed, or a redirect's body that
// is drained.
func (bs budgets) charge(n int64) error {
	if len(bs.chain) == 0 || n <= 0 {
		return nil
	}
	bs.lock()
	defer bs.unlock()
	var err error
	for _, b := range bs.chain {
		b.bytes += n
		if b.limits.Bytes > 0 && b.bytes > b.limits.Bytes && err == nil {
			err = b.exhaustLocked("bytes", b.limits.Bytes)
		}
	}
	return err
}
