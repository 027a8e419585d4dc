package mcpprobe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentweb/agentweb/readiness/internal/refusal"
	"github.com/agentweb/agentweb/safefetch"
)

const (
	// maxExchanges bounds the requests of one session attempt.
	maxExchanges = 16
	// keepBody is how much of a response body is kept for reading.
	keepBody = 16 << 10
)

// errCap is returned to the MCP client when a response body passes
// [MaxBodyBytes]. It wraps safefetch.ErrTooLarge.
var errCap = fmt.Errorf("mcpprobe: MCP response over %d bytes: %w", MaxBodyBytes, safefetch.ErrTooLarge)

// errExchanges is returned when a session would make more than maxExchanges
// requests.
var errExchanges = errors.New("mcpprobe: request limit reached")

// exchange is one recorded request with the body kept for reading.
type exchange struct {
	Exchange
	body []byte
	err  error
}

// recorder is the round-tripper the MCP client's requests go through. It
// records every exchange and caps each response body. It wraps the
// safefetch transport, so address policy, time-outs and a budget apply to
// every request.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	ex   []*exchange
	// deadline is the probe's, and it bounds every request. That includes
	// those the MCP client sends with a context of its own, such as the
	// notice it posts when a call is cancelled. Without it, that notice
	// could hold the session open for seconds past the probe's deadline.
	deadline    time.Time
	hasDeadline bool
	// open counts the response bodies not yet at their end or closed.
	// settled, when not nil, is closed when open falls to zero.
	open    int
	settled chan struct{}
	h2      bool // a response came over HTTP/2, which needs no wait
}

// settleWait bounds how long a request waits for the response bodies still
// open (see [recorder.awaitSettled]).
const settleWait = 50 * time.Millisecond

// awaitSettled waits, at most settleWait, until every response body of the
// session has ended. The MCP client reads each POST's event stream to its
// end in a goroutine of its own, while it sends the next request. Over
// HTTP/1, a request sent before the previous stream's end has been read
// finds its connection busy and dials another. A server's stream ends just
// after its response, so the wait is short. A stream that does not end
// within the bound costs a connection, as before. Over HTTP/2, where
// requests share the connection, nothing is waited for.
func (r *recorder) awaitSettled(ctx context.Context) {
	r.mu.Lock()
	if r.open == 0 || r.h2 {
		r.mu.Unlock()
		return
	}
	if r.settled == nil {
		r.settled = make(chan struct{})
	}
	ch := r.settled
	r.mu.Unlock()
	t := time.NewTimer(settleWait)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

// bodyDoneLocked records that a body ended or was closed. The caller holds
// r.mu.
func (r *recorder) bodyDoneLocked() {
	r.open--
	if r.open == 0 && r.settled != nil {
		close(r.settled)
		r.settled = nil
	}
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	e := &exchange{Exchange: Exchange{Method: req.Method, URL: req.URL.String(),
		ProtocolHeader: clip(req.Header.Get("Mcp-Protocol-Version"), 40), SessionIDSent: req.Header.Get("Mcp-Session-Id") != ""}}
	if r.hasDeadline {
		ctx, cancel := context.WithDeadline(req.Context(), r.deadline)
		// Released when the request's context ends: its deadline, or
		// the MCP client's own cancellation.
		context.AfterFunc(ctx, cancel)
		req = req.WithContext(ctx)
	}
	// The probe never sends a credential; make sure of it.
	req.Header.Del("Authorization")
	req.Header.Del("Cookie")
	if req.Body != nil && req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			raw, _ := io.ReadAll(io.LimitReader(b, 64<<10))
			_ = b.Close()
			e.RPC, e.Offered = requestOffer(raw)
		}
	}
	if req.Method == http.MethodPost && e.RPC != "" && req.Header.Get("Mcp-Method") == "" {
		// MCP 2026-07-28 (Streamable HTTP, "Standard request headers")
		// requires the JSON-RPC method as a header on every POST. Older
		// servers ignore it.
		req.Header.Set("Mcp-Method", e.RPC)
	}
	r.mu.Lock()
	if len(r.ex) >= maxExchanges {
		r.mu.Unlock()
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, errExchanges
	}
	r.ex = append(r.ex, e)
	r.mu.Unlock()

	r.awaitSettled(req.Context())
	resp, err := r.next.RoundTrip(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		e.err = err
		e.Error = errorKind(err)
		if ce := req.Context().Err(); errors.Is(ce, context.DeadlineExceeded) {
			// The transport's error may not wrap the deadline that ended it.
			e.Error = refusal.Kind(ce)
		}
		return nil, err
	}
	e.Status = resp.StatusCode
	e.ContentType = clip(resp.Header.Get("Content-Type"), 200)
	e.SessionID = resp.Header.Get("Mcp-Session-Id") != ""
	e.WWWAuthenticate = clip(strings.Join(resp.Header.Values("Www-Authenticate"), ", "), 1000)
	r.open++
	r.h2 = r.h2 || resp.ProtoMajor == 2
	resp.Body = &cappedBody{rc: resp.Body, r: r, e: e}
	return resp, nil
}

// requestOffer reads the JSON-RPC method of a request body and the protocol
// version it offers. The offer is initialize's params.protocolVersion, or
// the _meta protocol version of 2026-07-28's requests.
func requestOffer(raw []byte) (rpc, offered string) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string         `json:"protocolVersion"`
			Meta            map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return "", ""
	}
	offered = m.Params.ProtocolVersion
	if v, ok := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string); ok && offered == "" && (m.Method == "server/discover" || m.Method == "initialize") {
		offered = v
	}
	return clip(m.Method, 80), clip(offered, 40)
}

// cappedBody counts, keeps the start of, and caps a response body.
type cappedBody struct {
	rc   io.ReadCloser
	r    *recorder
	e    *exchange
	done bool // counted out of recorder.open
}

func (b *cappedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.r.mu.Lock()
	defer b.r.mu.Unlock()
	if err != nil && !b.done {
		b.done = true
		b.r.bodyDoneLocked()
	}
	if keep := keepBody - len(b.e.body); keep > 0 && n > 0 {
		b.e.body = append(b.e.body, p[:min(n, keep)]...)
	}
	b.e.Bytes += int64(n)
	if b.e.Bytes > MaxBodyBytes {
		b.e.Capped = true
		b.e.Error = "response too large: capped"
		return 0, errCap
	}
	if err != nil && !errors.Is(err, io.EOF) && b.e.Error == "" {
		b.e.err = err
		b.e.Error = errorKind(err)
	}
	return n, err
}

func (b *cappedBody) Close() error {
	err := b.rc.Close()
	b.r.mu.Lock()
	if !b.done {
		b.done = true
		b.r.bodyDoneLocked()
	}
	b.r.mu.Unlock()
	return err
}

// errorKind names a failure in a few words, the words the scanner's
// receipts use.
func errorKind(err error) string {
	if errors.Is(err, errExchanges) {
		return "request limit reached"
	}
	if k := refusal.Kind(err); k != "" {
		return k
	}
	if isClosedConn(err) {
		return "connection closed: " + clip(err.Error(), 160)
	}
	return "request failed: " + clip(err.Error(), 160)
}
