package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// ErrOptions is returned by New when the options cannot make a service.
var ErrOptions = errors.New("service: invalid options")

// Defaults of Options.
const (
	DefaultWorkers   = 4
	DefaultQueueSize = 256
	DefaultCacheTTL  = 10 * time.Minute
	DefaultLeaseTTL  = 30 * time.Second
)

// Limit is a rate limit: at most Count requests in each Window (a fixed
// window, counted in the store, so that it holds across instances). A zero
// field takes the limit's default; a negative Count means no limit.
type Limit struct {
	Count  int
	Window time.Duration
}

// Options configures New. Store is required; every other zero value is
// safe and documented.
type Options struct {
	// Client fetches everything a scan reads. Nil means safefetch.Default().
	// A client made with AllowLoopback (development mode) lets the service
	// scan local servers, and every page says so.
	Client *safefetch.Client
	// Renderer renders pages in a browser for the scans that ask for it
	// ("browser": true). Nil: no browser mode, and such a request is
	// refused with 422.
	Renderer readiness.Renderer
	// Store keeps the queue, the reports, the history and the limits:
	// OpenSQLite or OpenPostgres.
	Store Store
	// Origin is the service's public origin ("https://scan.example"), for
	// its own llms.txt, API catalog, OpenAPI document and links. "" means
	// "http://127.0.0.1:8080", the development origin of examples/scanserver.
	Origin string
	// MCP, when set, is served at /mcp behind the limits of MCPLimit and
	// TargetLimit. A tools/call naming a URL counts against that URL's
	// target. The endpoint is announced in llms.txt, the card and the
	// API catalog.
	MCP http.Handler
	// Name is the service's name on its pages and in llms.txt; "" means
	// "Agent readiness scanner".
	Name string
	// Contact is where a person reaches the operator: "mailto:" and an
	// address, or a URL. "" leaves the about page's contact section
	// without one (agents are still pointed to it).
	Contact string

	// Workers bounds the scans this instance runs at once. 0 means
	// DefaultWorkers.
	Workers int
	// QueueSize bounds the scans waiting for a worker, across every
	// instance sharing the store; a scan asked for past it is refused with
	// 429 and Retry-After. 0 means DefaultQueueSize.
	QueueSize int
	// CallerLimit bounds the scans one caller may ask for (a cached answer
	// is free); the zero value means 20 an hour. A caller is its IP address
	// (an IPv6 address by its /64), read from ClientIPHeader when set.
	CallerLimit Limit
	// TargetLimit bounds the scans of one target, so that the service is
	// never a tool to flood a site. The target is the site's registrable
	// domain, or for an IP literal the address and port. The zero value
	// means 6 an hour.
	TargetLimit Limit
	// MCPLimit bounds the requests one caller sends to /mcp; the zero
	// value means 120 a minute.
	MCPLimit Limit
	// CacheTTL is how long a finished scan answers a request for the same
	// site (200, "cached": true) instead of a new scan. 0 means
	// DefaultCacheTTL; a negative value turns the cache off.
	CacheTTL time.Duration
	// ClientIPHeader names the request header that a trusted reverse proxy
	// sets to the caller's address ("X-Forwarded-For": its last entry is
	// used, the one the proxy added). "" means the connection's address;
	// set it only behind a proxy that overwrites the header.
	ClientIPHeader string
	// LeaseTTL is how long a claimed scan stays this instance's without
	// renewal; a running scan renews it every third of it. 0 means
	// DefaultLeaseTTL.
	LeaseTTL time.Duration
	// PollInterval is how often an idle worker looks for scans that
	// another instance queued. 0 means one second.
	PollInterval time.Duration
	// ShutdownGrace is how long Close lets running scans finish before it
	// cancels them and puts them back in the queue. 0 means 10 s.
	ShutdownGrace time.Duration
	// Logger receives what goes wrong in the background (a store that
	// fails under a worker). Nil discards it.
	Logger *slog.Logger
}

// Service is a complete scanning site: pages, a JSON API, history, badges
// and the MCP endpoint, with its workers. Make one with New; it is an
// http.Handler.
type Service struct {
	o        Options
	client   *safefetch.Client
	st       *sqlStore
	owner    string
	handler  http.Handler
	api      *http.ServeMux
	log      *slog.Logger
	dev      bool
	pageTool string

	closing   atomic.Bool
	stopClaim context.CancelFunc
	claimCtx  context.Context
	scanCtx   context.Context
	stopScans context.CancelFunc
	done      chan struct{}
	wg        sync.WaitGroup
	wake      chan struct{}

	mu      sync.Mutex
	changed chan struct{} // closed and replaced when any scan's events or status change here
}

// New validates opts, builds the service's pages and documents, and starts
// its workers. They claim queued scans from the store, those queued before
// a restart included, until Close. ctx bounds the start-up only.
func New(ctx context.Context, opts *Options) (*Service, error) {
	if opts == nil || opts.Store == nil {
		return nil, fmt.Errorf("%w: a Store is required (OpenSQLite or OpenPostgres)", ErrOptions)
	}
	o := *opts
	if o.Origin == "" {
		o.Origin = "http://127.0.0.1:8080"
	}
	if o.Name == "" {
		o.Name = "Agent readiness scanner"
	}
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	o.CallerLimit = o.CallerLimit.orDefault(20, time.Hour)
	o.TargetLimit = o.TargetLimit.orDefault(6, time.Hour)
	o.MCPLimit = o.MCPLimit.orDefault(120, time.Minute)
	if o.CacheTTL == 0 {
		o.CacheTTL = DefaultCacheTTL
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = DefaultLeaseTTL
	}
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 10 * time.Second
	}
	s := &Service{
		o:       o,
		client:  safefetch.OrDefault(o.Client),
		st:      o.Store.db(),
		owner:   newID(),
		log:     o.Logger,
		done:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		changed: make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.dev = s.client.AllowsLoopback()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("service: start: %w", err)
	}
	h, err := s.routes()
	if err != nil {
		return nil, err
	}
	s.handler = h
	s.claimCtx, s.stopClaim = context.WithCancel(context.Background())
	s.scanCtx, s.stopScans = context.WithCancel(context.Background())
	for range o.Workers {
		s.wg.Go(s.worker)
	}
	s.wg.Go(s.reaper)
	return s, nil
}

func (l Limit) orDefault(count int, window time.Duration) Limit {
	if l.Count == 0 {
		l.Count = count
	}
	if l.Window <= 0 {
		l.Window = window
	}
	return l
}

// ServeHTTP serves the site: the pages, the JSON API, the badges, the
// documents that make the service agent-ready, and /mcp.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// Close stops accepting scans (a request for one is answered 503), and
// stops claiming queued ones. It lets the running ones finish for
// ShutdownGrace. Then it cancels them and puts them back in the queue,
// uncounted, for the next instance. It ends the event streams it serves,
// and returns when every goroutine it started has ended. The Store stays
// open.
func (s *Service) Close() error {
	if s.closing.Swap(true) {
		return nil
	}
	s.stopClaim()
	close(s.done)
	finished := make(chan struct{})
	go func() { s.wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(s.o.ShutdownGrace):
		s.stopScans()
		<-finished
	}
	s.stopScans()
	return nil
}

// notify wakes the event streams of this instance.
func (s *Service) notify() {
	s.mu.Lock()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

func (s *Service) changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// worker claims and runs scans until Close.
func (s *Service) worker() {
	t := time.NewTicker(s.o.PollInterval)
	defer t.Stop()
	for {
		if s.claimCtx.Err() != nil {
			return
		}
		now := time.Now()
		job, err := s.st.claim(s.claimCtx, s.owner, now, now.Add(s.o.LeaseTTL))
		if err != nil {
			if s.claimCtx.Err() == nil {
				s.log.Error("service: claim", "err", err)
			}
		}
		if job != nil {
			s.run(job)
			continue
		}
		select {
		case <-s.claimCtx.Done():
			return
		case <-s.wake:
		case <-t.C:
		}
	}
}

// wakeWorker tells one idle worker that a scan was queued.
func (s *Service) wakeWorker() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// reaper takes back the scans whose lease ran out (their instance died)
// and prunes old events and counters.
func (s *Service) reaper() {
	t := time.NewTicker(s.o.LeaseTTL / 2)
	defer t.Stop()
	for {
		select {
		case <-s.claimCtx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		// A lease is taken back only a whole lease after it ran out, so
		// that a renewal that came late (a stalled machine, a busy
		// database) does not make a scan run twice.
		requeued, _, err := s.st.reap(s.claimCtx, now, now.Add(-s.o.LeaseTTL), false)
		if err != nil && s.claimCtx.Err() == nil {
			s.log.Error("service: reap", "err", err)
		}
		if requeued > 0 {
			s.wakeWorker()
		}
		longest := max(s.o.CallerLimit.Window, s.o.TargetLimit.Window, s.o.MCPLimit.Window)
		if err := s.st.prune(s.claimCtx, now.Add(-24*time.Hour), now.Add(-longest)); err != nil && s.claimCtx.Err() == nil {
			s.log.Error("service: prune", "err", err)
		}
	}
}

// errLeaseLost cancels a scan whose lease another instance took back.
var errLeaseLost = errors.New("service: lease lost")

// progressEvent is the data of one progress event.
type progressEvent struct {
	Check   string            `json:"check"`
	Verdict readiness.Verdict `json:"verdict"`
	Done    int               `json:"done"`
	Total   int               `json:"total"`
	Run     int               `json:"run"`
}

// run runs one claimed scan. It renews the lease while the scan runs,
// writes progress events as checks finish, and records the outcome. It
// does not record one when the lease was lost (another instance has the
// scan), or when the service is closing (the scan goes back to the queue).
func (s *Service) run(job *scanRow) {
	ctx, cancel := context.WithCancelCause(s.scanCtx)
	defer cancel(nil)

	// A scan run again after an interruption is one more scan of its
	// target, and counts against the target's limit. So a site never
	// receives more scans than the limit allows, interrupted ones included.
	if job.Runs > 1 {
		if _, ref := s.take(ctx, "target:"+job.Target, s.o.TargetLimit, "scans of "+job.Target); ref != nil {
			out := &scanRow{ID: job.ID, FinishedAt: time.Now(), Status: statusFailed, ErrorCode: codeTargetLimit,
				Error: "the scan was interrupted, and running it again would pass the site's limit (" + ref.msg + "); ask for it again later"}
			dctx, done := detached(ctx)
			_, err := s.st.finish(dctx, s.owner, out)
			done()
			if err != nil {
				s.log.Error("service: finish", "scan", job.ID, "err", err)
			}
			s.notify()
			return
		}
	}

	// Progress events, numbered after those of earlier runs.
	first, err := s.st.lastEvent(ctx, job.ID)
	if err != nil {
		s.log.Error("service: events", "scan", job.ID, "err", err)
	}
	var (
		mu       sync.Mutex
		pending  []string
		next     = first + 1
		finished int
		refusal  error
	)
	total := len(readiness.Catalogue())
	flush := func() {
		mu.Lock()
		batch, at := pending, next-len(pending)
		pending = nil
		mu.Unlock()
		if len(batch) == 0 {
			return
		}
		dctx, done := detached(ctx)
		err := s.st.addEvents(dctx, job.ID, at, batch)
		done()
		if err != nil {
			s.log.Error("service: events", "scan", job.ID, "err", err)
		}
		s.notify()
	}
	host := job.Host
	progress := func(ev readiness.Event) {
		switch ev.Kind {
		case readiness.EventKindFetchDone:
			if ev.Err != nil && refusal == nil && hostOf(ev.URL) == host &&
				(errors.Is(ev.Err, safefetch.ErrForbiddenAddress) || errors.Is(ev.Err, safefetch.ErrDNS)) {
				refusal = ev.Err
			}
		case readiness.EventKindCheckFinished:
			finished++
			data, _ := json.Marshal(progressEvent{Check: ev.Check, Verdict: ev.Verdict, Done: finished, Total: total, Run: job.Runs})
			mu.Lock()
			pending = append(pending, string(data))
			next++
			mu.Unlock()
		}
	}

	// The lease is renewed every third of its time, and events flushed
	// every quarter second, until the scan returns.
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Go(func() {
		renew := time.NewTicker(s.o.LeaseTTL / 3)
		tick := time.NewTicker(250 * time.Millisecond)
		defer renew.Stop()
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				flush()
			case <-renew.C:
				dctx, done := detached(ctx)
				ok, err := s.st.renew(dctx, job.ID, s.owner, time.Now().Add(s.o.LeaseTTL))
				done()
				if err != nil {
					s.log.Error("service: renew lease", "scan", job.ID, "err", err)
					continue
				}
				if !ok {
					cancel(errLeaseLost)
					return
				}
			}
		}
	})
	s.notify()

	opts := &readiness.Options{Client: s.o.Client, Progress: progress}
	if job.Browser {
		opts.Renderer = s.o.Renderer
	}
	report, scanErr := readiness.Scan(ctx, job.Site, opts)
	close(stop)
	bg.Wait()
	flush()

	bctx, done := detached(ctx)
	defer done()
	switch {
	case errors.Is(context.Cause(ctx), errLeaseLost):
		s.log.Warn("service: lease lost; the scan is another instance's now", "scan", job.ID)
		return
	case s.scanCtx.Err() != nil:
		if err := s.st.release(bctx, job.ID, s.owner); err != nil {
			s.log.Error("service: release", "scan", job.ID, "err", err)
		}
		s.notify()
		return
	}
	out := &scanRow{ID: job.ID, FinishedAt: time.Now()}
	switch {
	case scanErr != nil:
		out.Status, out.ErrorCode, out.Error = statusFailed, codeScanFailed, scanErr.Error()
		if errors.Is(scanErr, readiness.ErrInvalidURL) {
			out.ErrorCode = codeInvalidURL
		}
	case refusal != nil:
		out.Status, out.ErrorCode, out.Error = statusFailed, codeRefused, refusalMessage(refusal)
	default:
		data, err := report.JSON()
		if err != nil {
			out.Status, out.ErrorCode, out.Error = statusFailed, codeScanFailed, err.Error()
			break
		}
		out.Status, out.Report = statusDone, string(data)
		out.Score.Float64, out.Score.Valid, out.Ready = report.Score, true, report.Ready
		sum, _ := json.Marshal(report.Summary())
		out.Summary = string(sum)
	}
	ok, err := s.st.finish(bctx, s.owner, out)
	if err != nil {
		s.log.Error("service: finish", "scan", job.ID, "err", err)
	} else if !ok {
		s.log.Warn("service: lease lost before the scan finished", "scan", job.ID)
	}
	s.notify()
}

// refusalMessage says why the fetch policy refused the site, for people.
func refusalMessage(err error) string {
	var ae *safefetch.AddrError
	switch {
	case errors.As(err, &ae):
		msg := "the site's address " + ae.Addr.String() + " is not fetched"
		if ae.Name != "" {
			msg += " (" + ae.Name + ")"
		}
		if ae.Reason != "" {
			msg += ": " + ae.Reason
		}
		return msg
	case errors.Is(err, safefetch.ErrDNS):
		return "the site's name did not resolve (" + err.Error() + ")"
	}
	return err.Error()
}

// newID returns 16 random bytes in hex: a scan id or an instance's name.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// storeWriteTimeout bounds a store write that must happen after the scan
// or request that asked for it ended: a result, a lease renewal, progress
// events, a count given back.
const storeWriteTimeout = 10 * time.Second

// detached is ctx without its cancellation, so that such a write is not
// cut short by the end of its caller. It has a deadline of its own,
// storeWriteTimeout, so that a store that stops answering cannot hold it
// forever.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), storeWriteTimeout)
}
