package agentic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/agentweb/agentweb/safefetch"
)

// scanClient prepares the network side of one Discover or Audit run, under
// the limits of the profile's "Discovery and auditing" section. The caller's
// client is charged to a fresh Budget of scanMaxAttempts attempts,
// scanMaxTotalBytes bytes and scanMaxConcurrent concurrent documents. A nil
// client means safefetch.Default(), so runs share its connections. The run
// ends at deadline (at most scanDeadline; 0 means scanDeadline). A DNS
// lookup may outlast it by scanDNSGrace and no more; the context returned
// ends then.
func scanClient(ctx context.Context, c *safefetch.Client, deadline time.Duration) (context.Context, *safefetch.Client, context.CancelFunc) {
	if deadline <= 0 || deadline > scanDeadline {
		deadline = scanDeadline
	}
	budget := safefetch.NewBudget(safefetch.BudgetLimits{
		Attempts: scanMaxAttempts, Bytes: scanMaxTotalBytes, Concurrency: scanMaxConcurrent,
		Timeout: deadline, DNSGrace: scanDNSGrace,
	})
	ctx, cancel := context.WithTimeout(ctx, deadline+scanDNSGrace)
	return ctx, runClient(c).WithBudget(budget), cancel
}

// runClient is c, or safefetch.Default() when c is nil: the one nil-Client
// path of Discover and Audit.
func runClient(c *safefetch.Client) *safefetch.Client { return safefetch.OrDefault(c) }

// budgetReport is what a report says of the budget of a scanClient.
func budgetReport(b *safefetch.Budget) BudgetReport {
	u := b.Usage()
	return BudgetReport{Attempts: u.Attempts, MaxAttempts: scanMaxAttempts, Bytes: u.Bytes,
		MaxBytes: scanMaxTotalBytes, PeakConcurrency: u.PeakConcurrency, Exhausted: u.Exhausted}
}

// RequestRecord is the evidence of one document request of a scan. It holds
// the retrieval record every fetching package of this module keeps: URL,
// final URL, redirect hops, status, validators and time. It adds why the
// scan asked for it, how many body bytes it read, how long it took and why
// it failed. The budget counts each redirect hop as an attempt of its own.
type RequestRecord struct {
	safefetch.Provenance
	// Purpose says why the scan asked for it (a conventional path, a link).
	Purpose string `json:"purpose"`
	// Bytes is the number of body bytes read.
	Bytes int `json:"bytes"`
	// Error is set when the request failed (refused, timed out, too large,
	// budget exhausted, ...); StatusCode is then 0 unless a response came.
	Error string `json:"error,omitempty"`
	// ElapsedMS is the time from the request to the end of the body.
	ElapsedMS int64 `json:"elapsed_ms"`
}

// fetched is one response kept for analysis.
type fetched struct {
	rec  RequestRecord
	body []byte
	hdr  http.Header
	ok   bool // a 2xx response read in full
	err  error
}

// fetcher runs the requests of one scan or audit, each through one client
// charged to one budget. Each request has its own redirect policy: at most
// maxRedirects hops, each to the scan's origin or its exact www
// counterpart.
type fetcher struct {
	client       *safefetch.Client
	origin       *url.URL
	maxRedirects int
	maxBody      int64
	now          func() time.Time

	mu      sync.Mutex
	records []RequestRecord
	seen    map[string]*fetched
}

func newFetcher(client *safefetch.Client, origin *url.URL, maxRedirects int, maxBody int64, now func() time.Time) *fetcher {
	return &fetcher{client: client, origin: origin, maxRedirects: maxRedirects, maxBody: maxBody, now: now, seen: map[string]*fetched{}}
}

// redirectPolicy returns a fresh policy for one request: at most
// maxRedirects hops. Each hop stays on the origin, or its www counterpart,
// of both the previous URL and the scan. So a chain cannot walk to
// www.www.example.
func (f *fetcher) redirectPolicy() safefetch.RedirectPolicy {
	hops := 0
	var mu sync.Mutex
	return func(from, to *url.URL) error {
		mu.Lock()
		hops++
		n := hops
		mu.Unlock()
		if n > f.maxRedirects {
			return fmt.Errorf("agentic: more than %d redirects", f.maxRedirects)
		}
		if err := safefetch.SameOriginOrWWW(f.origin, to); err != nil {
			return err
		}
		return safefetch.SameOriginOrWWW(from, to)
	}
}

// get fetches u once per scan (later calls return the first result).
func (f *fetcher) get(ctx context.Context, u, accept, purpose string) *fetched {
	return f.getIf(ctx, u, accept, purpose, nil)
}

// getIf is get, conditional on prev's validators when prev is not nil.
func (f *fetcher) getIf(ctx context.Context, u, accept, purpose string, prev *safefetch.Provenance) *fetched {
	f.mu.Lock()
	if r, ok := f.seen[u]; ok {
		f.mu.Unlock()
		return r
	}
	f.mu.Unlock()
	start := f.now()
	c := f.client.WithRedirectPolicy(f.redirectPolicy())
	resp, err := c.Do(ctx, &safefetch.Request{
		Method: http.MethodGet, URL: u, MaxBodyBytes: f.maxBody,
		Header: prev.Conditional(http.Header{"Accept": {accept}}),
	})
	r := &fetched{rec: RequestRecord{Provenance: safefetch.Provenance{URL: u}, Purpose: purpose}, err: err}
	if resp != nil {
		r.rec.Provenance = resp.Provenance()
		r.rec.Bytes = len(resp.Body)
		r.hdr = resp.Header
		r.body = resp.Body
	}
	if err != nil {
		r.rec.Error = err.Error()
		r.body = nil
	} else if resp != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		r.ok = true
	}
	end := f.now()
	r.rec.Retrieved = end.UTC()
	r.rec.ElapsedMS = end.Sub(start).Milliseconds()
	f.mu.Lock()
	if prev, ok := f.seen[u]; ok { // a concurrent twin finished first
		f.mu.Unlock()
		return prev
	}
	f.seen[u] = r
	f.records = append(f.records, r.rec)
	f.mu.Unlock()
	return r
}

type job struct {
	url, accept, purpose string
	prev                 *safefetch.Provenance // makes the request conditional; nil: it is not
}

// getAll fetches jobs with at most workers requests in flight and returns
// the results in job order.
func (f *fetcher) getAll(ctx context.Context, jobs []job, workers int) []*fetched {
	out := make([]*fetched, len(jobs))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = f.getIf(ctx, j.url, j.accept, j.purpose, j.prev)
		}()
	}
	wg.Wait()
	return out
}

func (f *fetcher) requests() []RequestRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]RequestRecord(nil), f.records...)
}

// failureReason classifies a failed fetch in words for a report.
func failureReason(r *fetched) string {
	switch {
	case r.err == nil && !r.ok:
		return fmt.Sprintf("HTTP status %d", r.rec.StatusCode)
	case errors.Is(r.err, safefetch.ErrBudgetExhausted):
		return "scan budget exhausted: " + r.err.Error()
	case errors.Is(r.err, safefetch.ErrTooLarge):
		return "response over the size limit: " + r.err.Error()
	case errors.Is(r.err, safefetch.ErrTimeout), errors.Is(r.err, context.DeadlineExceeded):
		return "timed out: " + r.err.Error()
	case errors.Is(r.err, safefetch.ErrRedirectRefused), errors.Is(r.err, safefetch.ErrTooManyRedirects):
		return "redirect refused: " + r.err.Error()
	case r.err != nil:
		return r.err.Error()
	}
	return ""
}

// mediaType returns the lower-case media type of a Content-Type value.
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}
