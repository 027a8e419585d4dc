package readiness

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// The default scan bounds. [Options] and its Budget fall back to them.
const (
	// DefaultMaxPages is how many further pages a scan reads: 2.
	DefaultMaxPages = 2
	// DefaultAttempts bounds a scan's HTTP attempts: 80.
	DefaultAttempts = 80
	// DefaultConcurrency bounds the attempts in flight at once: 5.
	DefaultConcurrency = 5
	// DefaultMaxBodyBytes bounds each response body: 1 MiB.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultTotalBytes bounds the bodies of a whole scan: 8 MiB.
	DefaultTotalBytes = 8 << 20
	// DefaultTimeout bounds a whole scan: 60 s.
	DefaultTimeout = 60 * time.Second
	// DefaultRenderAttempts is what the default attempts grow by for each
	// page a [Renderer] renders: the given page and the further pages read.
	// It applies when Options.Budget.Attempts is not set. A browser running
	// a page's scripts charges its requests to the scan's budget, and must
	// not starve the scan's own requests.
	DefaultRenderAttempts = 32
)

// ErrInvalidURL is returned by [Scan] when the site URL is not an absolute
// URL that safefetch would fetch. The error wraps it, and the safefetch
// refusal when there is one.
var ErrInvalidURL = errors.New("readiness: invalid site URL")

// Options configures [Scan]. The zero value (and a nil *Options) is safe: the
// default safefetch client, [DefaultMaxPages] further pages, and the default
// budget.
type Options struct {
	// Client fetches everything the scan reads. Nil means safefetch.Default(),
	// the module's shared client, whose connections every scan reuses. Its own
	// options apply: resolver, roots, per-request timeout, redirects, body cap.
	// The scan charges every request to its own budget (Client.WithBudget).
	// That budget is nested in the client's own budget, if it has one. The
	// client's budget is charged too and can end the scan's fetches first.
	Client *safefetch.Client

	// MaxPages bounds the same-origin routes read besides the given page,
	// chosen from the sitemap, then from the page's own links. 0 means
	// [DefaultMaxPages]; a negative value reads no further page.
	MaxPages int

	// Budget bounds the whole scan. Each zero field takes its default:
	// [DefaultAttempts], [DefaultConcurrency], [DefaultTotalBytes] and
	// [DefaultTimeout]. With a Renderer, the default attempts grow by
	// [DefaultRenderAttempts] for each page that may be rendered. Every
	// redirect hop is an attempt.
	Budget safefetch.BudgetLimits

	// MaxBodyBytes bounds each response body. 0 means [DefaultMaxBodyBytes].
	// The client's own safefetch.Options.MaxBodyBytes, when lower, bounds it
	// instead.
	MaxBodyBytes int64

	// Progress, when not nil, is told when a check starts, when a fetch is done
	// and when a check finishes. Calls never overlap, since they are made under
	// a lock. So Progress need not be safe for concurrent use, but it should
	// return quickly. This holds for a whole [ScanAll] batch too. Its scans
	// share one lock, so the function given in BatchOptions.Options is never
	// called by two scans at once. Each [Event] names its Site.
	Progress func(Event)

	// Now gives the scan's time (Report.ScannedAt). Nil means time.Now.
	Now func() time.Time

	// Renderer, when not nil, renders the pages the scan reads in a browser.
	// Package readiness/browser runs the system's Chromium. Every request the
	// browser makes is fulfilled by the scan's client and charged to its
	// budget. page_actions_declared and page_tool_quality are then judged on
	// the tools the browser registered and the forms of the rendered DOM.
	// initial_html_content stays a judgement of the HTML before scripts, with a
	// note of the rendered text. Nil (the default) runs no browser: scripts are
	// read, never run.
	//
	// ScanAll hands the same Renderer to every scan of a batch, so one browser
	// serves them all. readiness/browser renders at most its Tabs pages at
	// once. Keep BatchOptions.Concurrency near that number, or the scans wait
	// for a tab within their own deadline.
	Renderer Renderer

	// NoObservations skips the observations beyond the method
	// (Report.Observations is then empty) and the requests they make. The
	// observations never change a verdict or the score either way; they
	// run after every check has its verdict, within the scan's budget.
	NoObservations bool
}

// EventKind says what an [Event] reports.
type EventKind string

// The progress events.
const (
	// EventKindCheckStarted: a check has started.
	EventKindCheckStarted EventKind = "check_started"
	// EventKindFetchDone: a request of the scan is done (or failed).
	EventKindFetchDone EventKind = "fetch_done"
	// EventKindCheckFinished: a check has its verdict.
	EventKindCheckFinished EventKind = "check_finished"
)

// Event is one progress report of a scan.
type Event struct {
	Kind EventKind
	// Site is the site URL as given to [Scan]. In a batch it is the same string
	// as the [BatchResult]'s Site, so the events of a batch's scans can be told
	// apart.
	Site string
	// Check is the check id (EventKindCheckStarted, EventKindCheckFinished).
	Check string
	// Verdict is the check's verdict (EventKindCheckFinished).
	Verdict Verdict
	// Method, URL and Status describe a fetch (EventKindFetchDone); Status
	// is 0 and Err is set when no response arrived.
	Method string
	URL    string
	Status int
	Err    error
}

// checkDef is one check's code: its catalogue id, the reads it needs
// (fetched ahead, concurrently, and shared), and its function.
type checkDef struct {
	id    string
	needs []resource
	run   func(s *scan) outcome
}

// registry holds the code of every catalogue check. Each check file adds itself with
// register from an init function; the map is never written after package
// initialisation.
var registry = map[string]checkDef{}

func register(d checkDef) {
	if _, ok := specOf(d.id); !ok {
		panic("readiness: register: check " + d.id + " is not in the catalogue")
	}
	if _, dup := registry[d.id]; dup {
		panic("readiness: register: check " + d.id + " registered twice")
	}
	registry[d.id] = d
}

// outcome is what a check function returns; the engine turns it into a
// CheckResult.
type outcome struct {
	verdict  Verdict
	expected string // "" : the catalogue's text
	received string
	requests []*fetched
	notes    []string
	scope    []string        // "" : the given page
	records  []RequestRecord // requests made outside the fetch memo (the MCP probe)
	mcp      *MCPReceipt
	fix      string // what to publish or change; dropped on pass and optional
}

// Scan reads the site at siteURL and scores it by the agent-readiness scoring
// method and this package's [Catalogue]. It reads the given page, the site's
// well-known files and at most MaxPages further same-origin routes, within the
// budget. Every resource is fetched once and shared by the checks that read it.
// Independent fetches run concurrently. siteURL is normalized first, as
// [safefetch.NormalizeURL] does. So every spelling of one URL (host case,
// default port, trailing dot) reads the same routes and gets the same report.
//
// A probe that is refused, times out, never finishes redirecting or runs out
// of budget makes the checks that needed it unverified; Scan still returns
// the report. The error is non-nil only when siteURL is unusable
// ([ErrInvalidURL]) or ctx is done before the scan starts.
func Scan(ctx context.Context, siteURL string, opts *Options) (*Report, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	client := o.client()
	// The site URL is normalized before anything compares origins. So every
	// spelling of one site (host case, default port, trailing dot) reads the
	// same routes and gets the same score.
	norm, err := safefetch.NormalizeURL(siteURL, client.AllowsLoopback())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	page, err := url.Parse(norm)
	if err != nil || !page.IsAbs() || page.Host == "" {
		return nil, fmt.Errorf("%w: %q is not an absolute URL", ErrInvalidURL, weburl.Redact(siteURL))
	}
	page.Fragment, page.RawFragment = "", ""
	if page.Path == "" {
		page.Path = "/"
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("readiness: scan: %w", err)
	}

	limits := o.Budget
	maxPages := o.MaxPages
	switch {
	case maxPages == 0:
		maxPages = DefaultMaxPages
	case maxPages < 0:
		maxPages = 0
	}
	if limits.Attempts == 0 {
		limits.Attempts = DefaultAttempts
		if o.Renderer != nil {
			limits.Attempts += (1 + maxPages) * DefaultRenderAttempts
		}
	}
	if limits.Concurrency == 0 {
		limits.Concurrency = DefaultConcurrency
	}
	if limits.Bytes == 0 {
		limits.Bytes = DefaultTotalBytes
	}
	if limits.Timeout == 0 {
		limits.Timeout = DefaultTimeout
	}
	maxBody := o.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	started := now()

	budget := safefetch.NewBudget(limits)
	ctx, cancel := context.WithTimeout(ctx, limits.Timeout+5*time.Second)
	defer cancel()
	s := newScan(ctx, page, client.WithBudget(budget), maxBody, maxPages, limits.Concurrency, o.Progress)
	s.renderer = o.Renderer
	s.site = siteURL

	// Every catalogue check runs. Each check file registers itself; a
	// catalogue check without one would be a build mistake (a test guards
	// it), and is reported as unverified rather than scored.
	defs := make([]checkDef, 0, len(catalogueTable))
	for _, row := range catalogueTable {
		c := row.spec
		d, ok := registry[c.ID]
		if !ok {
			d = checkDef{id: c.ID, run: func(*scan) outcome {
				return outcome{verdict: VerdictUnverified, notes: []string{"internal error: check not registered"}}
			}}
		}
		defs = append(defs, d)
	}
	// Warm every resource some check needs, all at once; the budget's
	// concurrency limit paces the requests.
	warmed := map[resource]bool{}
	var order []resource
	for _, d := range defs {
		for _, r := range d.needs {
			if !warmed[r] {
				warmed[r] = true
				order = append(order, r)
			}
		}
	}
	s.prioritise(warmed)
	for _, r := range order {
		s.bg.Go(func() { s.warm(r) })
	}

	results := make([]CheckResult, len(defs))
	var wg sync.WaitGroup
	for i, d := range defs {
		wg.Go(func() {
			s.emit(Event{Kind: EventKindCheckStarted, Check: d.id})
			out := d.run(s)
			results[i] = s.result(d.id, out)
			s.emit(Event{Kind: EventKindCheckFinished, Check: d.id, Verdict: out.verdict})
		})
	}
	wg.Wait()
	s.bg.Wait()

	u := budget.Usage()
	scope := Scope{
		Routes: s.routes(),
		Budget: BudgetUse{
			Attempts: u.Attempts, Bytes: u.Bytes, PeakConcurrency: u.PeakConcurrency,
			Exhausted: u.Exhausted, MaxAttempts: limits.Attempts, MaxBytes: limits.Bytes, MaxBodyBytes: maxBody,
		},
		Development: client.AllowsLoopback(),
		OverCap:     s.overCap(),
	}
	rep, err := Compose(page.String(), started, results, scope)
	if err != nil || o.NoObservations {
		return rep, err
	}
	rep.Observations = s.observe()
	s.bg.Wait()
	u = budget.Usage()
	rep.Scope.Budget.Attempts, rep.Scope.Budget.Bytes = u.Attempts, u.Bytes
	rep.Scope.Budget.PeakConcurrency, rep.Scope.Budget.Exhausted = u.PeakConcurrency, u.Exhausted
	return rep, nil
}

func (s *scan) result(id string, out outcome) CheckResult {
	spec, _ := specOf(id)
	r := CheckResult{ID: id, Verdict: out.verdict}
	r.Receipt.Expected = out.expected
	if r.Receipt.Expected == "" {
		r.Receipt.Expected = spec.Expected
	}
	r.Receipt.Received = out.received
	r.Receipt.Notes = out.notes
	seen := map[*fetched]bool{}
	for _, f := range out.requests {
		if f == nil || seen[f] {
			continue
		}
		seen[f] = true
		r.Receipt.Requests = append(r.Receipt.Requests, f.record())
	}
	r.Receipt.Requests = append(r.Receipt.Requests, out.records...)
	r.Receipt.MCP = out.mcp
	r.Scope = out.scope
	if len(r.Scope) == 0 {
		r.Scope = []string{s.page.String()}
	}
	if !r.Verdict.Valid() {
		// A check function bug must not score; say so instead.
		r.Verdict = VerdictUnverified
		r.Receipt.Notes = append(r.Receipt.Notes, "internal error: invalid verdict")
	}
	if r.Verdict.leavesWork() {
		r.Fix = out.fix
		switch {
		case r.Fix != "":
		case r.Verdict == VerdictUnverified && anyTooLarge(out.requests):
			r.Fix = fixTooLarge(s.maxBody)
		case r.Verdict == VerdictUnverified && !neverVerifiable(id) && allAnswered(out.requests):
			r.Fix = fixUnread(id)
		default:
			r.Fix = fixFor(id, r.Verdict)
		}
	}
	return r
}

// anyTooLarge reports whether a request of a check got an answer over
// the per-response cap.
func anyTooLarge(fs []*fetched) bool { return slices.ContainsFunc(fs, (*fetched).tooLarge) }

// allAnswered reports whether every request of a check got an answer the
// checks can judge (a 404 included).
func allAnswered(fs []*fetched) bool {
	for _, f := range fs {
		if f != nil && !f.answered() {
			return false
		}
	}
	return true
}

func (s *scan) emit(e Event) {
	if s.progress == nil {
		return
	}
	e.Site = s.site
	s.progMu.Lock()
	defer s.progMu.Unlock()
	s.progress(e)
}

// routes lists the pages the scan read as HTML, the given page first.
func (s *scan) routes() []string {
	out := []string{s.page.String()}
	for _, p := range s.extraPages() {
		if p.readable() {
			out = append(out, p.url)
		}
	}
	return slices.Compact(out)
}

// sameOrigin reports whether u has the scanned page's origin, both
// normalized (scheme and host case, default port, trailing dot, IDNA), never
// by comparing raw host strings.
func (s *scan) sameOrigin(u *url.URL) bool {
	if u == nil {
		return false
	}
	o, err := weburl.Origin(u)
	return err == nil && o == s.origin
}

// resolve resolves a path against the site's origin.
func (s *scan) resolve(path string) string {
	u := url.URL{Scheme: s.page.Scheme, Host: s.page.Host, Path: path}
	return u.String()
}
