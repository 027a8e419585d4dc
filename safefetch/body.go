package safefetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// readBody reads resp.Body under the call's cap and the Client's Budgets,
// closing it. A body larger than the cap is ErrTooLarge. A body whose
// declared length is over what a Budget has left is refused before it is
// read. Any other body is charged as it is read, and fails with a
// *BudgetError at the read that finds no byte left. At most max+1 bytes are
// ever read.
//
// A read that fails, or breaks the cap, kills the connection, and what the
// transport had received for the body is charged too (see
// [Client.discardFailed]). A body delimited by the end of the connection
// (HTTP/1 without Content-Length or chunking) is refused when the TCP stream
// ended without TLS's close_notify: it may have been cut anywhere.
func (c *Client) readBody(ctx context.Context, resp *http.Response, max int64) (_ []byte, err error) {
	h := handleOf(resp)
	defer func() {
		if err != nil {
			c.discardFailed(resp.Body, h)
		}
		resp.Body.Close()
	}()
	if resp.ContentLength > max {
		return nil, fmt.Errorf("%w: Content-Length %d is over the %d-byte cap; the body was not read", ErrTooLarge, resp.ContentLength, max)
	}
	if resp.ContentLength > 0 {
		if err := c.budget.fits(resp.ContentLength); err != nil {
			return nil, err
		}
	}
	b, tooBig, err := readCapped(&meteredReader{r: resp.Body, bs: c.budget, ctx: ctx}, resp.ContentLength, max)
	if err == nil && ctx.Err() != nil {
		// The deadline passed during the read: whatever ended it, the body
		// cannot be trusted to be complete.
		err = fmt.Errorf("safefetch: body read past the deadline: %w", context.Cause(ctx))
	}
	if err != nil {
		if cutByAnother(ctx, h, err) {
			return nil, &cutError{err: err}
		}
		return nil, err
	}
	if tooBig {
		return nil, fmt.Errorf("%w: body over %d bytes", ErrTooLarge, max)
	}
	if err := checkCloseDelimited(resp, h); err != nil {
		return nil, err
	}
	return b, nil
}

// cutError is a body read that failed because another call killed the
// connection the body was read from (see [cutByAnother]).
type cutError struct{ err error }

func (e *cutError) Error() string { return e.err.Error() }
func (e *cutError) Unwrap() error { return e.err }

// cutByAnother reports whether a body read failed only because another call
// killed the connection it shares (over HTTP/2). Then the connection was
// killed while the read was in progress; this call kills its connection
// only after its read failed (see [Client.discardFailed]). And the call's
// own deadline has not passed, and the failure is not a Budget's refusal.
func cutByAnother(ctx context.Context, h *connHandle, err error) bool {
	tc := h.get()
	return tc != nil && tc.killed.Load() && ctx.Err() == nil && !errors.Is(err, ErrBudgetExhausted)
}

// maxBuffered bounds what is read of a body after its connection was
// killed: what the transport had buffered for it, with room to spare. That
// is at most an HTTP/2 stream window (flow control holds the server to
// it). Or it is HTTP/1's read buffers: a TLS record and the transport's 4
// KiB buffer.
const maxBuffered = h2StreamWindow + 32<<10

// discardFailed ends a body that is given up. Its read failed, broke a cap
// or was refused, or it was closed before its end on a connection that
// cannot be kept. The connection is killed for every call sharing it. What
// the transport had already received for the body is read and charged to
// the Budgets: its buffers, as the dead connection yields nothing more. So
// every body byte received from the network is charged. It returns the
// bytes charged. body is the transport's body of the response.
func (c *Client) discardFailed(body io.Reader, h *connHandle) int64 {
	if h.get() == nil {
		// Not a connection of this Client's transport: nothing bounds a
		// read of the rest.
		return 0
	}
	h.kill()
	n, _ := io.Copy(io.Discard, io.LimitReader(body, maxBuffered))
	_ = c.budget.charge(n)
	return n
}

// meteredReader charges the Client's Budgets for what it reads, as it is
// read: each Read takes an allowance of at most len(p) bytes (see
// [budgets.take]) and is charged what it read.
type meteredReader struct {
	r   io.Reader
	bs  budgets
	ctx context.Context
}

func (m *meteredReader) Read(p []byte) (int, error) {
	if len(m.bs.chain) == 0 {
		return m.r.Read(p)
	}
	grant, err := m.bs.take(m.ctx, int64(len(p)))
	if err != nil {
		return 0, err
	}
	n, err := m.r.Read(p[:grant])
	m.bs.settle(grant, int64(n))
	return n, err
}

// probe reads without an allowance, charging what it read. It reads the
// one byte past a declared length to check that nothing follows; a
// conforming transport never yields it. That read must not fail on a
// Budget that the body used up exactly.
func (m *meteredReader) probe(p []byte) (int, error) {
	n, err := m.r.Read(p)
	_ = m.bs.charge(int64(n))
	return n, err
}

// checkCloseDelimited refuses a body that ended with its connection (no
// Content-Length, no chunked coding), when the connection ended with a TCP
// FIN and no TLS close_notify alert before it. Such a body may have been cut
// anywhere by anyone on the path. RFC 9112 Section 9.8 says "a client cannot
// tell ... whether the message was complete". crypto/tls reports such an end
// as a clean io.EOF, so the FIN is observed on the connection itself. After
// a close_notify, TLS reads nothing more from the socket.
func checkCloseDelimited(resp *http.Response, h *connHandle) error {
	if resp.ProtoMajor != 1 || resp.ContentLength >= 0 || len(resp.TransferEncoding) > 0 {
		return nil
	}
	if h == nil {
		return nil
	}
	h.mu.Lock()
	tc, isTLS := h.conn, h.tls
	h.mu.Unlock()
	if tc != nil && isTLS && tc.eof.Load() {
		return fmt.Errorf("safefetch: the body, delimited by the end of the connection, ended without TLS close_notify and may be truncated: %w", io.ErrUnexpectedEOF)
	}
	return nil
}

// drainBytes is how much of a body the call does not want (a redirect's) is
// read to keep its connection.
const drainBytes = 4 << 10

// closeUnread closes a body the call does not want (a redirect's). A body
// that ends within drainBytes is read to its end, charged to the Budgets,
// so that its connection stays usable for the calls sharing it. A longer
// one kills the connection (see [Client.discardFailed]). Over HTTP/2,
// closing an unfinished body only resets the stream, and a hostile server
// could go on sending to it.
func (c *Client) closeUnread(resp *http.Response) {
	defer resp.Body.Close()
	if resp.Body == http.NoBody {
		return
	}
	n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, drainBytes+1))
	_ = c.budget.charge(n)
	if err != nil || n > drainBytes {
		c.discardFailed(resp.Body, handleOf(resp))
	}
}

// readCapped reads r to its end, reading at most limit+1 bytes. With a known
// length (contentLength >= 0, at most limit) it allocates exactly that much
// and checks that nothing follows. Otherwise it reads pooled chunks (see
// readChunked). tooBig reports that more than limit bytes were available;
// the bytes read are then not returned.
func readCapped(r *meteredReader, contentLength, limit int64) (b []byte, tooBig bool, err error) {
	if contentLength >= 0 && contentLength <= limit {
		b = make([]byte, contentLength)
		if n, err := io.ReadFull(r, b); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return b[:n], false, fmt.Errorf("safefetch: body ended after %d of its declared %d bytes: %w", n, contentLength, io.ErrUnexpectedEOF)
			}
			return b[:n], false, err
		}
		var one [1]byte
		n, err := r.probe(one[:])
		if n > 0 {
			return b, true, nil
		}
		if err != nil && err != io.EOF {
			return b, false, err
		}
		return b, false, nil
	}
	return readChunked(r, limit)
}

// chunkSize is the unit in which a body of unknown length is read.
const chunkSize = 64 << 10

// chunkPool holds the scratch chunks of readChunked, so that a refused
// body (too large, endless, cut off) allocates nothing that outlives the
// call and a good one allocates exactly its size.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, chunkSize); return &b }}

// readChunked reads a body of unknown length into pooled chunks, at most
// limit+1 bytes, and copies it out once its size is known.
func readChunked(r io.Reader, limit int64) (b []byte, tooBig bool, err error) {
	var chunks []*[]byte
	defer func() {
		for _, c := range chunks {
			chunkPool.Put(c)
		}
	}()
	lr := io.LimitedReader{R: r, N: limit + 1}
	var total int64
	fill := chunkSize
	for {
		if fill == chunkSize {
			chunks = append(chunks, chunkPool.Get().(*[]byte))
			fill = 0
		}
		n, rerr := lr.Read((*chunks[len(chunks)-1])[fill:])
		fill += n
		total += int64(n)
		if total > limit {
			return nil, true, nil
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, false, rerr
		}
	}
	b = make([]byte, 0, total)
	for i, c := range chunks {
		if i == len(chunks)-1 {
			b = append(b, (*c)[:fill]...)
		} else {
			b = append(b, *c...)
		}
	}
	return b, false, nil
}
