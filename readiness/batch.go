package readiness

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"iter"
	"net/url"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// Defaults of [BatchOptions].
const (
	// DefaultBatchConcurrency is how many scans [ScanAll] runs at once when
	// BatchOptions.Concurrency is 0. It is enough to hide latency on a small
	// machine, and few enough that one batch does not look like an attack.
	DefaultBatchConcurrency = 8
	// DefaultPerHost is how many scans of one registrable domain run at
	// once when BatchOptions.PerHost is 0.
	DefaultPerHost = 1
)

// BatchOptions configures [ScanAll]. The zero value (and nil) is safe:
// [DefaultBatchConcurrency] scans at once, one per registrable domain,
// every scan with the default Options on the one shared client.
type BatchOptions struct {
	// Options are the options of every scan. Every scan of the batch runs on
	// one client: Options.Client, or when it is nil one the batch makes for
	// itself with safefetch's defaults. A scan reuses the connections it
	// opened, and each scan has its own budget. As scans end, once per quarter
	// of Concurrency finished scans, the client's idle connections are closed.
	// A batch never comes back to a site it finished, since PerHost keeps one
	// domain's scans apart. So keeping them would make memory grow with the
	// number of sites, not with the scans in flight. A scan still running
	// redials what it needs.
	Options Options

	// Concurrency bounds the scans in flight. 0 means
	// [DefaultBatchConcurrency]; a negative value means 1.
	Concurrency int

	// PerHost bounds the scans in flight whose sites share a registrable
	// domain ([RegistrableDomain]), so that two sites of one operator are
	// never scanned together beyond it. 0 means [DefaultPerHost]; a
	// negative value means 1.
	PerHost int

	// Lookahead bounds how many sites ScanAll reads ahead of the scans in
	// flight while it looks for one whose domain has room (sites of busy
	// domains wait in arrival order). 0 or a negative value means 4 ×
	// Concurrency. Memory is bounded by Concurrency + Lookahead sites, never
	// by the length of the sequence.
	Lookahead int
}

// BatchResult is the outcome of one site of a batch: its report, or the
// error [Scan] returned for it.
type BatchResult struct {
	// Site is the site URL as the sequence gave it, its userinfo replaced by
	// "redacted". Userinfo is a user name and password, which no scan sends. So
	// a result written to a log or a file never carries a credential.
	Site string
	// Report is the scan's report. It is nil when Err is set, except for a scan
	// the batch's cancellation cut short. Then Report is what the scan had
	// read, its unfinished checks unverified, and Err says it was cancelled.
	Report *Report
	// Err is Scan's error: an unusable URL ([ErrInvalidURL]) or a batch
	// cancelled before the scan started; or, with a Report, a scan cut
	// short by the batch's cancellation. A cancelled site's Err wraps
	// ctx's error (errors.Is(err, context.Canceled) or
	// [context.DeadlineExceeded]), so that a caller can tell a site to
	// scan again from one that failed.
	Err error
}

// ScanAll scans every site of sites and yields one [BatchResult] per site
// as each scan finishes, so results come in completion order, not input
// order. It runs at most Concurrency scans at once, and at most PerHost of
// one registrable domain; each report is the one [Scan] alone gives for the
// site.
//
// The sequence is read lazily, at most Lookahead sites ahead. When ctx is
// cancelled, no further site is read or started and the scans in flight are
// cancelled. ScanAll returns once they have ended; nothing is left running.
// Every site read from the sequence is still yielded exactly once. A scan in
// flight comes with the report it had made and an Err saying it was cancelled.
// A site that was read but not yet started, held back by PerHost or the
// lookahead, comes with only that Err. Only when the caller stops the iteration
// are the remaining sites not yielded.
//
// Options.Progress is shared by every scan of the batch: ScanAll calls it
// under one lock for the whole batch, so its calls never overlap, and each
// [Event] names its Site.
func ScanAll(ctx context.Context, sites iter.Seq[string], opts *BatchOptions) iter.Seq[BatchResult] {
	var o BatchOptions
	if opts != nil {
		o = *opts
	}
	conc := o.Concurrency
	switch {
	case conc == 0:
		conc = DefaultBatchConcurrency
	case conc < 0:
		conc = 1
	}
	perHost := o.PerHost
	switch {
	case perHost == 0:
		perHost = DefaultPerHost
	case perHost < 0:
		perHost = 1
	}
	lookahead := o.Lookahead
	if lookahead <= 0 {
		lookahead = 4 * conc
	}
	scanOpts := o.Options
	if p := scanOpts.Progress; p != nil {
		// Each scan serialises its own calls; the batch's scans share
		// one function, so they share one lock too.
		var mu sync.Mutex
		scanOpts.Progress = func(e Event) {
			mu.Lock()
			defer mu.Unlock()
			p(e)
		}
	}
	if scanOpts.Client == nil {
		// Not safefetch.Default: the batch closes its client's idle
		// connections, which must not be those of other users.
		scanOpts.Client = safefetch.New(nil)
	}

	return func(yield func(BatchResult) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		next, stop := iter.Pull(sites)
		defer stop()

		type job struct{ site, domain string }
		type done struct {
			BatchResult
			domain string
		}
		results := make(chan done)
		busy := map[string]int{}
		var held []job // sites of busy domains, in arrival order
		inflight, finished, exhausted := 0, 0, false

		start := func(j job) {
			inflight++
			busy[j.domain]++
			go func() {
				rep, err := Scan(ctx, j.site, &scanOpts)
				if err == nil && ctx.Err() != nil {
					err = fmt.Errorf("readiness: scan of %s cancelled: %w", weburl.Redact(j.site), ctx.Err())
				}
				results <- done{BatchResult{Site: weburl.Redact(j.site), Report: rep, Err: err}, j.domain}
			}()
		}
		// takeHeld starts the first held site whose domain has room.
		takeHeld := func() bool {
			for i, j := range held {
				if busy[j.domain] < perHost {
					held = append(held[:i], held[i+1:]...)
					start(j)
					return true
				}
			}
			return false
		}
		for {
			for inflight < conc && ctx.Err() == nil {
				if takeHeld() {
					continue
				}
				if exhausted || len(held) >= lookahead {
					break
				}
				site, ok := next()
				if !ok {
					exhausted = true
					break
				}
				j := job{site, RegistrableDomain(site)}
				if busy[j.domain] < perHost {
					start(j)
				} else {
					held = append(held, j)
				}
			}
			if ctx.Err() != nil {
				// Cancelled: the sites read but not started are yielded
				// now, each with the error Scan gives for a done ctx.
				for _, j := range held {
					_, err := Scan(ctx, j.site, &scanOpts)
					if err == nil {
						err = fmt.Errorf("readiness: scan of %s cancelled: %w", weburl.Redact(j.site), ctx.Err())
					}
					if !yield(BatchResult{Site: weburl.Redact(j.site), Err: err}) {
						held = nil
						cancel()
						for ; inflight > 0; inflight-- {
							<-results
						}
						return
					}
				}
				held = nil
			}
			if inflight == 0 {
				return // the sequence is done (nothing is held when nothing runs), or ctx is
			}
			r := <-results
			if finished++; finished%max(1, conc/4) == 0 {
				// Once per quarter of Concurrency finished scans. The idle
				// connections then belong mostly to sites the batch is done
				// with. So memory stays flat with the number of sites, and the
				// scans in flight redial less than if it were every scan.
				scanOpts.Client.CloseIdleConnections()
			}
			inflight--
			busy[r.domain]--
			if busy[r.domain] == 0 {
				delete(busy, r.domain)
			}
			if !yield(r.BatchResult) {
				cancel()
				for ; inflight > 0; inflight-- {
					<-results
				}
				return
			}
		}
	}
}

// RegistrableDomain returns the registrable domain of siteURL's host, as
// internal/weburl gives it: its eTLD+1 under the Public Suffix List, in
// lower-case A-label form ("example.co.uk" for
// "https://www.shop.example.co.uk/"). A host that is an IP address, a
// public suffix itself or a single label is its own domain. A string that is
// not a URL with a valid host is returned as given, so that it still lands
// on one shard.
func RegistrableDomain(siteURL string) string {
	u, err := url.Parse(strings.TrimSpace(siteURL))
	if err != nil || u.Hostname() == "" {
		return siteURL
	}
	host, err := weburl.NormalizeHost(u.Hostname())
	if err != nil {
		return siteURL
	}
	return cmp.Or(weburl.RegistrableDomain(host), host)
}

// Shard returns which of n shards siteURL belongs to, in [0, n): the
// 64-bit FNV-1a hash of its [RegistrableDomain], modulo n. The function is
// fixed, so that n machines given the same list split it with no
// coordination. Every site of one domain lands on one machine, today and in
// every later release. A domain is hashed in its A-label form, so a Unicode
// host and its A-label share a shard. It returns 0 when n < 2.
func Shard(siteURL string, n int) int {
	if n < 2 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(RegistrableDomain(siteURL)))
	return int(h.Sum64() % uint64(n))
}
