package browser

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/internal/refusal"
	"github.com/agentweb/agentweb/safefetch"
)

// Bounds of one rendering besides [Options].
const (
	// maxRecords bounds the requests a Rendering lists, refused ones
	// included. The requests past it are counted, and the Notes say how
	// many.
	maxRecords = 256
)

// needed are the resource types a rendering fetches: what can change the
// DOM or register a tool.
var needed = map[network.ResourceType]bool{
	network.ResourceTypeDocument: true, network.ResourceTypeScript: true, network.ResourceTypeXHR: true,
	network.ResourceTypeFetch: true, network.ResourceTypeEventSource: true,
}

// record lists q among the page's requests, up to [maxRecords].
func (r *rendering) record(q readiness.RenderedRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.requests) >= maxRecords {
		r.dropped++
		return
	}
	r.requests = append(r.requests, q)
}

// requestNotes says how many requests were made past [maxRecords] and not
// listed; the caller holds r.mu.
func (r *rendering) requestNotes() []string {
	if r.dropped == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s more than the renderer lists (%d) were made and not listed", plural.N(r.dropped, "request", "requests"), maxRecords)}
}

// handle answers one paused request: fulfilled from the scan's client, or
// failed.
func (r *rendering) handle(ctx context.Context, ev *fetch.EventRequestPaused) {
	r.inflight.Add(1)
	r.lastBusy.Store(time.Now().UnixNano())
	defer func() {
		r.lastBusy.Store(time.Now().UnixNano())
		r.inflight.Add(-1)
	}()
	q := readiness.RenderedRequest{Type: string(ev.ResourceType)}
	if ev.Request != nil {
		q.Method, q.URL = ev.Request.Method, ev.Request.URL
	}
	refuse := func(reason network.ErrorReason, why string) {
		q.Refused = why
		r.record(q)
		if ev.ResourceType == network.ResourceTypeDocument {
			// A navigation answered 204 No Content does not happen: the
			// frame keeps its document. A failed one would show an error
			// page in its place.
			_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: http.StatusNoContent})
			return
		}
		_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: reason})
	}
	u, why, skipped := screen(ev)
	if why != "" {
		if q.URL == oversized {
			q.URL = ""
		}
		q.Skipped = skipped
		refuse(network.ErrorReasonBlockedByClient, why)
		return
	}
	mainDoc := ev.ResourceType == network.ResourceTypeDocument && ev.FrameID == r.mainFrame
	if mainDoc {
		// The page's own redirects are followed wherever safefetch allows;
		// once it has landed, a navigation to another origin is refused.
		r.mu.Lock()
		landed := r.landed
		r.mu.Unlock()
		if landed != nil && !sameOrigin(u, landed) {
			refuse(network.ErrorReasonBlockedByClient, "refused: a navigation of the page to another origin")
			return
		}
	}
	if n := r.fetches.Add(1); n > int64(r.b.opts.MaxRequests) {
		refuse(network.ErrorReasonBlockedByClient, fmt.Sprintf("not sent: past the renderer's bound of %d requests a page", r.b.opts.MaxRequests))
		return
	}
	var h http.Header
	if a, ok := ev.Request.Headers["Accept"].(string); ok && a != "" {
		h = http.Header{"Accept": {a}}
	}
	resp, err := r.client.Do(ctx, &safefetch.Request{Method: q.Method, URL: q.URL, Header: h, MaxRedirects: -1})
	if err != nil {
		refuse(errorReason(err), "refused by safefetch: "+err.Error())
		return
	}
	q.Status, q.Bytes = resp.StatusCode, len(resp.Body)
	if (ev.ResourceType == network.ResourceTypeDocument || ev.ResourceType == network.ResourceTypeScript) && bytes.Contains(resp.Body, []byte("modelContext")) {
		r.mentionsTools.Store(true)
	}
	r.record(q)
	if mainDoc && (resp.StatusCode < 300 || resp.StatusCode > 399) {
		r.mu.Lock()
		if r.landed == nil {
			r.landed = u
		}
		r.mu.Unlock()
	}
	_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{
		RequestID: ev.RequestID, ResponseCode: int64(resp.StatusCode), ResponseHeaders: responseHeaders(resp.Header), Body: resp.Body})
}

// screen says why the renderer refuses a paused request unsent, or ""
// when safefetch is to answer it; u is its URL then. skipped says the
// request was refused as one a rendering does not need.
func screen(ev *fetch.EventRequestPaused) (u *url.URL, why string, skipped bool) {
	if ev.Request == nil {
		return nil, "not sent: not a URL", false
	}
	u, err := url.Parse(ev.Request.URL)
	switch {
	case err != nil:
		return nil, "not sent: not a URL", false
	case ev.Request.URL == oversized:
		return nil, fmt.Sprintf("not sent: the request (its URL, headers or body) was over the bound of %d MiB a DevTools message", MaxMessageBytes>>20), false
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, "not sent: scheme " + u.Scheme, false
	case !needed[ev.ResourceType]:
		return nil, "not fetched: a rendering does not need it", true
	case ev.Request.Method != http.MethodGet && ev.Request.Method != http.MethodHead:
		return nil, "not sent: the renderer sends only GET and HEAD, which change nothing", false
	}
	return u, "", false
}

// dropHeaders are the response headers never handed to Chromium. Some are
// framing that no longer applies: safefetch has read and decoded the body.
// The others would make it store state or send requests of its own
// (cookies, HSTS, alternative services, reporting endpoints).
var dropHeaders = map[string]bool{
	"Content-Length": true, "Content-Encoding": true, "Transfer-Encoding": true, "Connection": true, "Keep-Alive": true,
	"Set-Cookie": true, "Strict-Transport-Security": true, "Alt-Svc": true, "Nel": true, "Report-To": true,
	"Reporting-Endpoints": true, "Clear-Site-Data": true,
}

// responseHeaders are the headers of h that Chromium is given: all but
// [dropHeaders], whatever their spelling.
func responseHeaders(h http.Header) []*fetch.HeaderEntry {
	var out []*fetch.HeaderEntry
	for k, vs := range h {
		if dropHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		for _, v := range vs {
			out = append(out, &fetch.HeaderEntry{Name: k, Value: v})
		}
	}
	return out
}

// errorReason is the network error Chromium sees for a safefetch refusal,
// by the scanner's one classification of failures.
func errorReason(err error) network.ErrorReason {
	switch refusal.Classify(err) {
	case refusal.Forbidden:
		return network.ErrorReasonAccessDenied
	case refusal.Timeout:
		return network.ErrorReasonTimedOut
	case refusal.DNS:
		return network.ErrorReasonNameNotResolved
	case refusal.BudgetExhausted, refusal.TooLarge:
		return network.ErrorReasonBlockedByClient
	}
	return network.ErrorReasonFailed
}

// sameOrigin compares the normalized origins of a and b: scheme and host
// case, trailing dot, default port. Every origin test of the module does
// the same. A URL that has no origin safefetch would fetch is of no origin.
func sameOrigin(a, b *url.URL) bool {
	oa, err1 := weburl.Origin(a)
	ob, err2 := weburl.Origin(b)
	return err1 == nil && err2 == nil && oa == ob
}
