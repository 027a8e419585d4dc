package safefetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// HTTPClient returns an *http.Client for libraries that need one (the MCP
// go-sdk's transports, for example) with the same guarantees as c. Every
// request and every redirect hop is checked, resolved once, classified and
// pinned. Environment proxies are ignored. Identity encoding is requested
// and any other coding refused. Redirects are bounded, checked and never
// downgraded. Response bodies are capped by a wrapping reader that returns
// [ErrTooLarge] past [Options.MaxBodyBytes]. The whole exchange (every
// redirect hop, and the body, a streamed one included) is bounded by
// [Options.Timeout]. And the Budget, if any, is charged.
//
// Errors are those of [Client.Do]: the transport's errors are *[Error]
// values (inside net/http's *url.Error) wrapping the package's sentinels.
// The time-out is applied inside the transport, as a context deadline with
// a cause. So a call that runs out of Options.Timeout fails with
// [ErrTimeout] in every phase (connect, headers, body), never with
// net/http's own time-out error.
//
// The caller must close every response body, as with any *http.Client: a
// Budget's concurrency slot is held until then.
func (c *Client) HTTPClient() *http.Client {
	return &http.Client{
		Transport:     &roundTripper{c: c},
		CheckRedirect: c.checkRedirect,
	}
}

// chainKey is the context key under which the transport of
// [Client.HTTPClient] records the deadline of a redirect chain. So each
// hop's request, whose Response field is the previous hop's answer, runs
// under the first hop's deadline.
type chainKey struct{}

// chainDeadline returns the deadline of the chain req belongs to: the one
// recorded by the hop that answered with the redirect, or now+Timeout for
// the first hop.
func (c *Client) chainDeadline(req *http.Request) time.Time {
	if prev := req.Response; prev != nil && prev.Request != nil {
		if d, ok := prev.Request.Context().Value(chainKey{}).(time.Time); ok {
			return d
		}
	}
	return time.Now().Add(c.opts.Timeout)
}

// checkRedirect applies the hop rules of [Client.Do] inside net/http's
// redirect loop.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if c.opts.MaxRedirects < 0 {
		return http.ErrUseLastResponse
	}
	prev := via[len(via)-1]
	var locs []string
	if req.Response != nil {
		locs = req.Response.Header.Values("Location")
	}
	if len(locs) == 0 {
		locs = []string{req.URL.String()}
	}
	if _, err := checkLocation(prev.URL, locs, c.opts.AllowLoopback, c.redirect); err != nil {
		return err
	}
	if len(via) > c.opts.MaxRedirects {
		return fmt.Errorf("%w: %s redirects to %s after %d redirects (at most %d are followed)",
			ErrTooManyRedirects, prev.URL.Redacted(), req.URL.Redacted(), len(via)-1, c.opts.MaxRedirects)
	}
	return nil
}

// roundTripper is the transport of [Client.HTTPClient].
type roundTripper struct{ c *Client }

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	c := rt.c
	// RoundTrip must close the request body on every path: the transport
	// does once it is reached; fail does before that.
	fail := func(err error) error {
		if req.Body != nil {
			req.Body.Close()
		}
		return &Error{Method: req.Method, URL: req.URL.String(), Err: err}
	}
	u, err := c.parseURL(req.URL.String())
	if err != nil {
		return nil, fail(err)
	}
	parent := req.Context()
	// The call's deadline starts before the wait for a concurrency slot,
	// as net/http's Client.Timeout did.
	deadline := c.chainDeadline(req)
	chainCtx, cancelChain := context.WithDeadlineCause(parent, deadline, errCallTimeout)
	if err := c.budget.acquire(chainCtx); err != nil {
		cancelChain()
		return nil, fail(c.mapErr(parent, chainCtx, err))
	}
	ctx, cancel := chainCtx, context.CancelFunc(func() {})
	if d, ok := c.budget.deadline(); ok {
		ctx, cancel = context.WithDeadlineCause(chainCtx, d, errBudgetDeadline)
	}
	done := func() { cancel(); cancelChain(); c.budget.release() }
	if err := c.budget.attempt(); err != nil {
		done()
		return nil, fail(err)
	}
	addrs, err := c.resolveHost(chainCtx, u)
	if err != nil {
		err = c.mapErr(parent, chainCtx, err)
		done()
		return nil, fail(err)
	}
	octx := context.WithValue(ctx, pinKey{}, &pin{host: u.Hostname(), addrs: addrs})
	out := req.Clone(context.WithValue(octx, chainKey{}, deadline))
	out.URL, out.Host = u, ""
	out.Header = make(http.Header, len(req.Header)+2)
	c.prepareHeader(out, req.Header)
	resp, err := c.roundTrip(out, req.Body == nil || req.Body == http.NoBody)
	if err != nil {
		err = c.mapErr(parent, ctx, err)
		done()
		return nil, &Error{Method: req.Method, URL: req.URL.String(), Err: err}
	}
	if err := checkContentEncoding(resp.Header); err != nil {
		handleOf(resp).kill()
		resp.Body.Close()
		done()
		return nil, fail(err)
	}
	resp.Body = &cappedBody{rc: resp.Body, resp: resp, max: c.opts.MaxBodyBytes, declared: resp.ContentLength, c: c, parent: parent, ctx: ctx, done: done}
	return resp, nil
}

// cappedBody caps a response body of [Client.HTTPClient] and charges the
// budget as it is read.
type cappedBody struct {
	rc       io.ReadCloser
	resp     *http.Response
	max      int64
	declared int64
	c        *Client
	parent   context.Context
	ctx      context.Context
	done     func()

	mu       sync.Mutex
	n        int64
	err      error // sticky
	released sync.Once
}

func (b *cappedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	if b.declared > b.max {
		return 0, b.failLocked(fmt.Errorf("%w: Content-Length %d is over the %d-byte cap; the body was not read", ErrTooLarge, b.declared, b.max))
	}
	// Read at most one byte past the cap, and no more than the Budgets
	// have left, charged as it is read.
	if left := b.max + 1 - b.n; int64(len(p)) > left {
		p = p[:left]
	}
	grant, terr := b.c.budget.take(b.ctx, int64(len(p)))
	if terr != nil {
		return 0, b.failLocked(b.c.mapErr(b.parent, b.ctx, terr))
	}
	n, err := b.rc.Read(p[:grant])
	b.c.budget.settle(grant, int64(n))
	b.n += int64(n)
	if b.n > b.max {
		return 0, b.failLocked(fmt.Errorf("%w: body over %d bytes", ErrTooLarge, b.max))
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return n, b.failLocked(b.c.mapErr(b.parent, b.ctx, err))
	}
	if err != nil {
		if b.ctx.Err() != nil {
			// The deadline passed during the read: whatever ended it, the
			// body cannot be trusted to be complete.
			return n, b.failLocked(b.c.mapErr(b.parent, b.ctx, fmt.Errorf("safefetch: body read past the deadline: %w", context.Cause(b.ctx))))
		}
		if cerr := checkCloseDelimited(b.resp, handleOf(b.resp)); cerr != nil {
			return n, b.failLocked(cerr)
		}
		b.err = err
		b.release()
	}
	return n, err
}

// failLocked records a failed read: the connection is killed (over
// HTTP/2, closing the body would only reset the stream), and what the
// transport had received for the body is charged (see
// [Client.discardFailed]).
func (b *cappedBody) failLocked(err error) error {
	b.err = &Error{Method: b.resp.Request.Method, URL: b.resp.Request.URL.String(), Err: err}
	b.c.discardFailed(b.rc, handleOf(b.resp))
	b.rc.Close()
	b.release()
	return b.err
}

func (b *cappedBody) release() { b.released.Do(b.done) }

// Close closes the body. A body closed before its end (an SSE stream whose
// client has the event it waited for, say) is read on for at most
// drainBytes and drainTime. What it reads is charged to the Budgets. So a
// body that ends within that bound keeps its connection for the calls that
// follow. Otherwise, over HTTP/1 the connection is closed, as net/http
// does. Over HTTP/2, closing a body only resets its stream, and a hostile
// server may go on sending to it: data the transport reads and discards.
// So the connection is closed too when no other response is open on it.
// Either way what the transport had received for the body is charged. A
// Close that comes while a Read is in progress (from another goroutine, to
// end it) gives the body up at once, as net/http does.
func (b *cappedBody) Close() error {
	if !b.mu.TryLock() {
		// A Read is in progress (closing the body is how another goroutine
		// ends it). The body is given up at once, as net/http does: over
		// HTTP/1 its connection is closed; over HTTP/2 its stream is
		// reset.
		err := b.rc.Close()
		b.release()
		return err
	}
	defer b.mu.Unlock()
	// Closed before its end: neither EOF nor an error was read, and the
	// bytes read fall short of a declared length. A JSON decoder stops at
	// the end of the value, before reading EOF, on a complete body.
	if b.err == nil && (b.resp.ContentLength < 0 || b.n < b.resp.ContentLength) {
		b.drainLocked()
	}
	err := b.rc.Close()
	b.release()
	return err
}

// drainTime bounds how long a body closed before its end is read on to keep
// its connection (see [cappedBody.Close]).
const drainTime = 50 * time.Millisecond

// drainLocked reads on a body closed before its end, within drainBytes and
// drainTime, and gives it up (see [cappedBody.Close]) if it does not end.
func (b *cappedBody) drainLocked() {
	h := handleOf(b.resp)
	tc := h.get()
	if tc == nil {
		return
	}
	// Only one open response on its connection may kill it; another only
	// stops its own read (closing an HTTP/2 body unblocks its Read).
	shared := b.resp.ProtoMajor == 2 && tc.live.Load() > 1
	stop := h.kill
	if shared {
		stop = func() { b.rc.Close() }
	}
	timer := time.AfterFunc(drainTime, stop)
	n, err := io.Copy(io.Discard, io.LimitReader(b.rc, drainBytes+1))
	inTime := timer.Stop()
	_ = b.c.budget.charge(n)
	b.n += n
	b.err = io.EOF
	if inTime && err == nil && n <= drainBytes {
		return
	}
	if !shared {
		b.c.discardFailed(b.rc, h)
	}
}
