package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/stretchr/testify/assert"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// TestSameOriginComparesNormalizedOrigins: the navigation guard takes a
// landing page's origin however it is spelled (host case, trailing dot,
// default port) as the module's one normalizer does, and anything else as
// another origin.
func TestSameOriginComparesNormalizedOrigins(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://shop.example/a", "https://shop.example/b", true},
		{"https://SHOP.example./a", "https://shop.example:443/", true},
		{"http://127.0.0.1:80/", "http://127.0.0.1/x", true},
		{"https://shop.example/", "http://shop.example/", false},
		{"https://shop.example:8443/", "https://shop.example/", false},
		{"https://www.shop.example/", "https://shop.example/", false},
		{"data:text/html,hi", "https://shop.example/", false},
	} {
		a, err := url.Parse(tc.a)
		assert.NoError(t, err)
		b, err := url.Parse(tc.b)
		assert.NoError(t, err)
		assert.Equal(t, tc.same, sameOrigin(a, b), "%s ~ %s", tc.a, tc.b)
	}
}

// TestErrorReason: each refusal of safefetch reaches the page as the
// network error that says it, however wrapped; any other failure is a
// plain failure.
func TestErrorReason(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want network.ErrorReason
	}{
		{safefetch.ErrForbiddenURL, network.ErrorReasonAccessDenied},
		{safefetch.ErrForbiddenAddress, network.ErrorReasonAccessDenied},
		{safefetch.CheckURL("http://shop.example/", false), network.ErrorReasonAccessDenied},
		{safefetch.CheckAddr(netip.MustParseAddr("10.0.0.7")), network.ErrorReasonAccessDenied},
		{safefetch.ErrTimeout, network.ErrorReasonTimedOut},
		{fmt.Errorf("get: %w", context.DeadlineExceeded), network.ErrorReasonTimedOut},
		{fmt.Errorf("%w: lookup shop.example: no such host", safefetch.ErrDNS), network.ErrorReasonNameNotResolved},
		{fmt.Errorf("x: %w", safefetch.ErrBudgetExhausted), network.ErrorReasonBlockedByClient},
		{safefetch.ErrTooLarge, network.ErrorReasonBlockedByClient},
		{safefetch.ErrTooManyRedirects, network.ErrorReasonFailed},
		{safefetch.ErrRedirectRefused, network.ErrorReasonFailed},
		{safefetch.ErrContentEncoding, network.ErrorReasonFailed},
		{context.Canceled, network.ErrorReasonFailed},
		{errors.New("connection reset"), network.ErrorReasonFailed},
	} {
		t.Run(tc.err.Error(), func(t *testing.T) {
			assert.Equal(t, tc.want, errorReason(tc.err))
		})
	}
}

// TestDropHeadersAreCanonical: responseHeaders looks a header up by its
// canonical key, so every key of dropHeaders must be one.
func TestDropHeadersAreCanonical(t *testing.T) {
	for k := range dropHeaders {
		assert.Equal(t, http.CanonicalHeaderKey(k), k)
	}
}

// TestResponseHeaders: Chromium gets every header of the response but
// the framing safefetch has undone and those that would make it store
// state or send requests of its own, whatever their spelling.
func TestResponseHeaders(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   http.Header
		want []string // "Name: value", sorted
	}{
		{name: "none", in: nil, want: nil},
		{name: "kept", in: http.Header{"Content-Type": {"text/html"}, "Link": {"</a>; rel=x", "</b>; rel=y"}},
			want: []string{"Content-Type: text/html", "Link: </a>; rel=x", "Link: </b>; rel=y"}},
		{name: "framing", in: http.Header{"Content-Length": {"9"}, "Content-Encoding": {"gzip"}, "Transfer-Encoding": {"chunked"},
			"Connection": {"close"}, "Keep-Alive": {"timeout=5"}, "Content-Type": {"text/html"}},
			want: []string{"Content-Type: text/html"}},
		{name: "state and requests", in: http.Header{"Set-Cookie": {"a=1", "b=2"}, "Strict-Transport-Security": {"max-age=1"},
			"Alt-Svc": {`h3=":443"`}, "Nel": {"{}"}, "Report-To": {"{}"}, "Reporting-Endpoints": {`a="https://r.example/"`},
			"Clear-Site-Data": {`"cache"`}, "X-Kept": {"1"}},
			want: []string{"X-Kept: 1"}},
		{name: "any spelling", in: http.Header{"set-cookie": {"a=1"}, "CONTENT-LENGTH": {"9"}, "alt-svc": {"clear"}, "x-kept": {"1"}},
			want: []string{"x-kept: 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range responseHeaders(tc.in) {
				got = append(got, e.Name+": "+e.Value)
			}
			slices.Sort(got)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestNeeded: a rendering fetches documents, scripts, XHR, fetch and
// event streams, and nothing else.
func TestNeeded(t *testing.T) {
	for _, tc := range []struct {
		typ  network.ResourceType
		want bool
	}{
		{network.ResourceTypeDocument, true},
		{network.ResourceTypeScript, true},
		{network.ResourceTypeXHR, true},
		{network.ResourceTypeFetch, true},
		{network.ResourceTypeEventSource, true},
		{network.ResourceTypeImage, false},
		{network.ResourceTypeStylesheet, false},
		{network.ResourceTypeFont, false},
		{network.ResourceTypeMedia, false},
		{network.ResourceTypeWebSocket, false},
		{network.ResourceTypePing, false},
		{network.ResourceTypePrefetch, false},
		{network.ResourceTypeOther, false},
	} {
		assert.Equal(t, tc.want, needed[tc.typ], "%s", tc.typ)
	}
}

// TestScreen: the renderer sends safefetch only GET and HEAD requests over
// HTTP(S) for what a rendering needs; anything else is refused unsent, and
// says why.
func TestScreen(t *testing.T) {
	paused := func(method, url string, typ network.ResourceType) *fetch.EventRequestPaused {
		return &fetch.EventRequestPaused{Request: &network.Request{Method: method, URL: url}, ResourceType: typ}
	}
	for _, tc := range []struct {
		name    string
		ev      *fetch.EventRequestPaused
		why     string
		skipped bool
	}{
		{"a document", paused("GET", "https://shop.example/", network.ResourceTypeDocument), "", false},
		{"a script over HTTP", paused("GET", "http://127.0.0.1:8080/app.js", network.ResourceTypeScript), "", false},
		{"a HEAD of fetch", paused("HEAD", "https://shop.example/api", network.ResourceTypeFetch), "", false},
		{"no request", &fetch.EventRequestPaused{ResourceType: network.ResourceTypeDocument}, "not sent: not a URL", false},
		{"not a URL", paused("GET", "https://shop.example/%zz", network.ResourceTypeXHR), "not sent: not a URL", false},
		{"over the message bound", paused("GET", oversized, network.ResourceTypeOther),
			"not sent: the request (its URL, headers or body) was over the bound of 4 MiB a DevTools message", false},
		{"a data URL", paused("GET", "data:text/html,hi", network.ResourceTypeDocument), "not sent: scheme data", false},
		{"a WebSocket", paused("GET", "wss://shop.example/ws", network.ResourceTypeWebSocket), "not sent: scheme wss", false},
		{"an image", paused("GET", "https://shop.example/a.png", network.ResourceTypeImage), "not fetched: a rendering does not need it", true},
		{"a POST of a form", paused("POST", "https://shop.example/book", network.ResourceTypeDocument),
			"not sent: the renderer sends only GET and HEAD, which change nothing", false},
		{"a POST of an image", paused("POST", "https://shop.example/a.png", network.ResourceTypeImage), "not fetched: a rendering does not need it", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, why, skipped := screen(tc.ev)
			assert.Equal(t, tc.why, why)
			assert.Equal(t, tc.skipped, skipped)
			if why == "" {
				assert.Equal(t, tc.ev.Request.URL, u.String())
			} else {
				assert.Nil(t, u)
			}
		})
	}
}

// TestRecordBound: a rendering lists at most maxRecords requests. The
// requests past the bound are counted, and a note says how many.
func TestRecordBound(t *testing.T) {
	r := &rendering{}
	for i := range maxRecords {
		r.record(readiness.RenderedRequest{Type: "Script", Method: http.MethodGet, URL: fmt.Sprintf("https://shop.example/%d.js", i)})
	}
	assert.Len(t, r.requests, maxRecords)
	assert.Empty(t, r.requestNotes(), "no note while every request is listed")

	for range 3 {
		r.record(readiness.RenderedRequest{Type: "XHR", Method: http.MethodGet, URL: "https://shop.example/api"})
	}
	assert.Len(t, r.requests, maxRecords)
	assert.Equal(t, []string{"3 requests more than the renderer lists (256) were made and not listed"}, r.requestNotes())
}
