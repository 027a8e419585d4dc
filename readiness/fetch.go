package readiness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/readiness/internal/refusal"
	"github.com/agentweb/agentweb/safefetch"
)

// client is the Client of a scan: o.Client, or safefetch.Default() when it
// is nil.
func (o *Options) client() *safefetch.Client { return safefetch.OrDefault(o.Client) }

// scan is the state of one scan: the page, the budgeted client, the fetch
// memo and the shared reads, each computed at most once.
type scan struct {
	ctx      context.Context
	page     *url.URL // normalized by safefetch.NormalizeURL
	origin   string   // the page's origin, as weburl.Origin serializes it
	site     string   // the site URL as given to Scan, for Event.Site
	client   *safefetch.Client
	maxBody  int64
	maxPages int
	progress func(Event)
	progMu   sync.Mutex
	renderer Renderer // nil: scripts are read, never run

	memoMu sync.Mutex
	memo   map[string]*call
	bg     sync.WaitGroup // fetches started ahead; Scan waits for them

	// slots bounds the scan's own fetches in flight (the budget's concurrency),
	// so that the scan can order them. The fetches on the critical path take
	// their slots first: robots.txt, /sitemap.xml and the page, on which the
	// choice of further routes waits. Every other fetch waits at gate until
	// they have.
	slots    chan struct{}
	critical map[string]bool
	critWG   sync.WaitGroup
	gate     chan struct{} // nil (open) unless prioritise was called

	// reads holds the shared reads by name, each computed once (see
	// readOnce).
	reads sync.Map

	// paid are the requests the checks made that were answered 402, read
	// by the x402 observation (set before the observations start).
	paid []*fetched
}

func newScan(ctx context.Context, page *url.URL, c *safefetch.Client, maxBody int64, maxPages, concurrency int, progress func(Event)) *scan {
	s := &scan{ctx: ctx, page: page, client: c, maxBody: maxBody, maxPages: maxPages, progress: progress,
		memo: map[string]*call{}, critical: map[string]bool{}}
	s.origin, _ = weburl.Origin(page)
	if concurrency > 0 {
		s.slots = make(chan struct{}, concurrency)
	}
	return s
}

// prioritise marks the fetches of the warmed resources that lie on the
// critical path, and opens the gate for the others once those have taken
// their slots. It must be called before any fetch starts.
func (s *scan) prioritise(warmed map[resource]bool) {
	mark := func(u, accept string) {
		k := memoKey(u, accept)
		if !s.critical[k] {
			s.critical[k] = true
			s.critWG.Add(1)
		}
	}
	// Each marked fetch is certain to start: warm starts robots.txt and
	// /sitemap.xml for resSitemap and resPages, and the page for resPage.
	if warmed[resRobots] || warmed[resSitemap] || warmed[resPages] {
		mark(s.resolve("/robots.txt"), "")
	}
	if warmed[resSitemap] || warmed[resPages] {
		mark(s.resolve("/sitemap.xml"), "")
	}
	if warmed[resPage] {
		mark(s.page.String(), acceptHTML)
	}
	gate := make(chan struct{})
	s.gate = gate
	go func() { s.critWG.Wait(); close(gate) }()
}

func memoKey(u, accept string) string { return http.MethodGet + " " + u + "\x00" + accept }

// acquire takes a fetch slot, critical fetches first. It returns a release
// function, or an error when ctx ends first.
func (s *scan) acquire(key string) (func(), error) {
	crit := s.critical[key]
	if !crit && s.gate != nil {
		select {
		case <-s.gate:
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		}
	}
	if s.slots == nil {
		if crit {
			s.critWG.Done()
		}
		return func() {}, nil
	}
	select {
	case s.slots <- struct{}{}:
	case <-s.ctx.Done():
		if crit {
			s.critWG.Done()
		}
		return nil, s.ctx.Err()
	}
	if crit {
		s.critWG.Done()
	}
	return func() { <-s.slots }, nil
}

// The Accept headers the scan sends. They are the only request headers that
// change an answer, so they are the only ones recorded.
const (
	acceptHTML     = "text/html"
	acceptMarkdown = "text/markdown"
)

// overCap returns the URLs the scan requested whose answer was larger than
// the per-response cap, sorted, each once.
func (s *scan) overCap() []string {
	s.memoMu.Lock()
	defer s.memoMu.Unlock()
	var out []string
	for _, c := range s.memo {
		select {
		case <-c.done:
			if c.f.tooLarge() {
				out = append(out, c.f.url)
			}
		default:
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tooLarge reports whether the answer was over the per-response cap.
func (f *fetched) tooLarge() bool { return f != nil && errors.Is(f.err, safefetch.ErrTooLarge) }

// answered402 returns the requests of the scan so far whose answer was 402
// Payment Required, in no particular order of importance but sorted by URL.
func (s *scan) answered402() []*fetched {
	s.memoMu.Lock()
	defer s.memoMu.Unlock()
	var out []*fetched
	for _, c := range s.memo {
		select {
		case <-c.done:
			if c.f.status() == http.StatusPaymentRequired {
				out = append(out, c.f)
			}
		default:
		}
	}
	slices.SortFunc(out, func(a, b *fetched) int { return strings.Compare(a.url+"\x00"+a.accept, b.url+"\x00"+b.accept) })
	return out
}

// fetched is one request and what came of it, shared by every check that
// relied on it.
type fetched struct {
	method string
	url    string
	accept string
	resp   *safefetch.Response
	err    error
}

type call struct {
	done chan struct{}
	f    *fetched
}

// get fetches u once per scan: concurrent callers asking for the same
// method, URL and Accept wait for the one request in flight and share its
// result.
func (s *scan) get(u, accept string) *fetched { return s.getRedirects(u, accept, 0) }

// getRedirects is get with a redirect limit of its own (0: the client's).
func (s *scan) getRedirects(u, accept string, maxRedirects int) *fetched {
	return s.getCapped(u, accept, maxRedirects, s.maxBody)
}

// getCapped is getRedirects with a body cap of its own, at most the scan's.
// The memo is keyed by method, URL and Accept: the first caller's cap wins.
func (s *scan) getCapped(u, accept string, maxRedirects int, maxBody int64) *fetched {
	maxBody = min(maxBody, s.maxBody)
	key := memoKey(u, accept)
	s.memoMu.Lock()
	if c, ok := s.memo[key]; ok {
		s.memoMu.Unlock()
		<-c.done
		return c.f
	}
	c := &call{done: make(chan struct{})}
	s.memo[key] = c
	s.memoMu.Unlock()

	f := &fetched{method: http.MethodGet, url: u, accept: accept}
	var h http.Header
	if accept != "" {
		h = http.Header{"Accept": {accept}}
	}
	if release, err := s.acquire(key); err != nil {
		f.err = fmt.Errorf("readiness: waiting to fetch: %w", err)
	} else {
		f.resp, f.err = s.client.Do(s.ctx, &safefetch.Request{Method: http.MethodGet, URL: u, Header: h, MaxBodyBytes: maxBody, MaxRedirects: maxRedirects})
		release()
	}
	c.f = f
	close(c.done)
	ev := Event{Kind: EventKindFetchDone, Method: f.method, URL: u, Err: f.err}
	if f.resp != nil {
		ev.Status = f.resp.StatusCode
	}
	s.emit(ev)
	return f
}

// fetchedBefore returns the scan's finished fetch of u with accept, or nil
// when it made none or the one it made is still in flight. It never fetches.
func (s *scan) fetchedBefore(u, accept string) *fetched {
	s.memoMu.Lock()
	c, ok := s.memo[memoKey(u, accept)]
	s.memoMu.Unlock()
	if !ok {
		return nil
	}
	select {
	case <-c.done:
		return c.f
	default:
		return nil
	}
}

// finalURL is the URL f's answer came from: the last hop of its redirects,
// or the URL asked for when it did not redirect or had no answer.
func (f *fetched) finalURL() string {
	if f.resp != nil && f.resp.FinalURL != "" {
		return f.resp.FinalURL
	}
	return f.url
}

// answered reports whether a response arrived and its status is an answer
// the checks can judge ([refusal.Answered]). Anything else is unverified,
// never a pass and never a fail.
func (f *fetched) answered() bool {
	return f != nil && f.err == nil && f.resp != nil && refusal.Answered(f.resp.StatusCode)
}

// ok reports a 2xx answer.
func (f *fetched) ok() bool {
	return f.answered() && f.resp.StatusCode >= 200 && f.resp.StatusCode < 300
}

func (f *fetched) status() int {
	if f == nil || f.resp == nil {
		return 0
	}
	return f.resp.StatusCode
}

// mediaType is the response's media type, lower-cased, without parameters.
func (f *fetched) mediaType() (string, map[string]string) {
	if f == nil || f.resp == nil {
		return "", nil
	}
	ct := f.resp.Header.Get("Content-Type")
	if ct == "" {
		return "", nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
		return strings.ToLower(strings.TrimSpace(mt)), nil
	}
	return mt, params
}

func (f *fetched) body() []byte {
	if f == nil || f.resp == nil {
		return nil
	}
	return f.resp.Body
}

// why says in a few words why f is not answered, for receipts.
func (f *fetched) why() string {
	switch {
	case f == nil:
		return "not requested"
	case f.err != nil:
		return "no answer: " + cmp.Or(refusal.Kind(f.err), "request failed")
	case f.resp != nil:
		return fmt.Sprintf("the server answered %d: a refusal or failure is not an answer", f.resp.StatusCode)
	}
	return "no answer"
}

// relevantHeaders are the response headers receipts keep.
var relevantHeaders = []string{"Vary", "Link", "Location", "Retry-After", "Permissions-Policy", "WWW-Authenticate"}

const maxHeaderValue = 300

// record is the receipt form of f.
func (f *fetched) record() RequestRecord {
	r := RequestRecord{Method: f.method, URL: f.url}
	if f.accept != "" {
		r.Headers = map[string]string{"Accept": f.accept}
	}
	if f.err != nil {
		r.Error = clean(f.err.Error())
	}
	if f.resp == nil {
		return r
	}
	rr := &ResponseRecord{Status: f.resp.StatusCode, Bytes: len(f.resp.Body)}
	if f.resp.FinalURL != "" && f.resp.FinalURL != f.url {
		rr.FinalURL = f.resp.FinalURL
	}
	rr.MediaType = shorten.Runes(clean(f.resp.Header.Get("Content-Type")), maxHeaderValue)
	for _, k := range relevantHeaders {
		if vs := f.resp.Header.Values(k); len(vs) > 0 {
			if rr.Headers == nil {
				rr.Headers = map[string]string{}
			}
			rr.Headers[k] = shorten.Runes(clean(strings.Join(vs, ", ")), maxHeaderValue)
		}
	}
	rr.Body = bodySummary(f.resp.Body)
	r.Response = rr
	return r
}

const summaryRunes = 120

// bodySummary is the first characters of a text body with whitespace
// collapsed, or a note that it is binary.
func bodySummary(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	head := b
	if len(head) > 4*summaryRunes {
		head = head[:4*summaryRunes]
	}
	for len(head) > 0 && !utf8.Valid(head) {
		head = head[:len(head)-1]
	}
	if len(head) == 0 || strings.ContainsRune(string(head), 0) {
		return fmt.Sprintf("(%d bytes, not text)", len(b))
	}
	s := strings.Join(strings.Fields(string(head)), " ")
	return shorten.Runes(clean(s), summaryRunes)
}
