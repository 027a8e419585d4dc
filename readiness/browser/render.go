package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"

	"github.com/agentweb/agentweb/internal/plural"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// Bounds of one rendering besides [Options].
const (
	// quiet is how long a loaded page must make no request and register
	// no tool before its snapshot is taken.
	quiet = 300 * time.Millisecond
	// toolWait is how long after its load a page whose document or
	// scripts name modelContext is given to register its first tool.
	toolWait = 2 * time.Second
	// maxRecords bounds the requests a Rendering lists, refused ones
	// included.
	maxRecords = 256
	// maxTools bounds the tools a Rendering keeps.
	maxTools = 256
	// maxSchemaBytes bounds a tool's input schema kept.
	maxSchemaBytes = 16 << 10
)

// hardening runs before any script of every document, in every frame
// (about:blank frames included): window.open returns nothing, service
// workers cannot be registered, WebRTC and shared workers are absent, and
// history.pushState and replaceState do nothing after their first 100
// calls, and document.modelContext.registerTool throws after its first
// 1,000, counted over the page and its same-origin frames (each call is a
// message to Chromium's browser process, which a flood of them keeps busy
// for seconds after the page is gone). Each
// is fixed on the prototype or the global and made unwritable and
// unconfigurable, so that neither an assignment nor a call through the
// prototype (ServiceWorkerContainer.prototype.register.call) reaches the
// original. The Chromium switches already refuse popups and leave every
// request that escaped the Fetch domain unresolved; this keeps a page from
// trying.
const hardening = `(() => {
  const deny = function register() { return Promise.reject(new DOMException("not allowed while rendering", "NotAllowedError")); };
  const fix = (o, k, v) => { try { Object.defineProperty(o, k, {value: v, writable: false, configurable: false, enumerable: false}); } catch (e) {} };
  fix(self, "open", function open() { return null; });
  if (self.ServiceWorkerContainer) fix(ServiceWorkerContainer.prototype, "register", deny);
  for (const k of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "SharedWorker"]) fix(self, k, undefined);
  // One count of calls for the page and its same-origin frames, kept by
  // the top document (which the page can call, never reset), so that
  // another frame's realm gives no more calls.
  const counter = k => {
    const key = Symbol.for("agentweb.rendering." + k);
    try {
      if (self.top === self) { let n = 0; fix(self, key, () => ++n); }
      if (typeof self.top[key] === "function") return self.top[key];
    } catch (e) {}
    let n = 0;
    return () => ++n;
  };
  const bound = (proto, k, max, over) => {
    const orig = proto && proto[k];
    if (typeof orig !== "function") return;
    const next = counter(k);
    fix(proto, k, function (...a) { if (next() > max) return over(); return orig.apply(this, a); });
  };
  if (self.History) for (const k of ["pushState", "replaceState"]) bound(History.prototype, k, 100, () => undefined);
  const mc = self.document && document.modelContext;
  if (mc) for (const k of ["registerTool", "provideContext"]) bound(Object.getPrototypeOf(mc), k, 1000, () => { throw new DOMException("too many tools while rendering", "QuotaExceededError"); });
})();`

// Render loads pageURL in a new tab of a browser context of its own (no
// cookie or storage of another page), runs its scripts and returns the DOM
// they left and the WebMCP tools Chromium registered.
//
// Every request of the page that the DevTools Fetch domain sees (the
// package documentation lists them, and those it does not see) is paused
// at the request stage and answered by client (nil: safefetch.Default()),
// charged to its budget, one hop at a time (a redirect is handed to
// Chromium, whose next request is paused in turn), or failed when client
// refuses it. Only
// GET and HEAD are sent, and only for documents, scripts, XHR, fetch and
// event streams; images, stylesheets, fonts and media are refused unfetched,
// since neither the DOM's forms nor the tools need them. A navigation of the
// page to another origin, downloads, permission prompts, dialogs (dismissed)
// and popups are refused. The page has [Options].Timeout from the moment it
// has a tab; a page that has not loaded by two thirds of it is read as it
// stands, and one whose scripts keep the browser busy past it fails. Once
// loaded, the page is read when it has made no request and registered no
// tool for 300 ms; a page whose document or scripts name modelContext and
// registered no tool yet is given up to 2 s after its load to register one.
//
// Render returns within Timeout plus [DeadlineMargin]: at the deadline the
// tab's renderer process is killed and the tab closed, and nothing of the
// page runs after. A renderer over [Options].MaxRendererMemory is killed
// and its page fails, saying so. A tool the browser reports that cannot be
// read is skipped alone, and the rendering's Notes say so; so do they when
// Chromium had died and was started again for the page.
//
// Render waits for a free tab (at most [Options].Tabs render at once) as
// long as ctx allows.
func (b *Browser) Render(ctx context.Context, pageURL string, client *safefetch.Client) (*readiness.Rendering, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, ErrClosed
	}
	b.renders.Add(1)
	b.mu.Unlock()
	defer b.renders.Done()

	client = safefetch.OrDefault(client)
	if err := safefetch.CheckURL(pageURL, client.AllowsLoopback()); err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	pu, err := url.Parse(pageURL)
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	select {
	case b.tabs <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("browser: waiting for a tab: %w", ctx.Err())
	case <-b.stop:
		return nil, ErrClosed
	}
	// The tab's slot is freed when the tab is gone, which may be after
	// Render returned (see closeTab).
	closed := make(chan struct{})
	close(closed)
	defer func() {
		select {
		case <-closed:
			<-b.tabs
		default:
			b.closing.Go(func() {
				<-closed
				<-b.tabs
			})
		}
	}()

	in, restartNote, err := b.instance(ctx)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	tabCtx, tabCancel := chromedp.NewContext(in.ctx, chromedp.WithNewBrowserContext())
	opCtx, opCancel := context.WithDeadline(tabCtx, start.Add(b.opts.Timeout))
	defer opCancel()
	stopCaller := context.AfterFunc(ctx, opCancel)
	defer stopCaller()
	stopOnClose := context.AfterFunc(closing{b.stop}, opCancel)
	defer stopOnClose()

	r := &rendering{b: b, in: in, client: client, page: pu, start: start}
	out, err := r.run(opCtx)
	overran := opCtx.Err() != nil
	opCancel()
	closed = b.closeTab(in, r.pid, tabCancel, overran)
	r.wg.Wait() // every listener and fetch of the page has ended
	if err != nil {
		return nil, err
	}
	if restartNote != "" {
		out.Notes = append([]string{restartNote}, out.Notes...)
	}
	b.rendered()
	return out, nil
}

// closing is a context that is done when its channel closes.
type closing struct{ c chan struct{} }

func (c closing) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c closing) Done() <-chan struct{}       { return c.c }
func (c closing) Value(any) any               { return nil }
func (c closing) Err() error {
	select {
	case <-c.c:
		return ErrClosed
	default:
		return nil
	}
}

// closeBudget is how long Render waits for its tab to close before it
// returns, the tab's close going on in the background.
const closeBudget = 750 * time.Millisecond

// stuckAfter is how long a tab's close may take, its renderer killed,
// before Chromium's browser process is taken to be stuck and the whole
// instance is stopped (the next page starts another).
const stuckAfter = 10 * time.Second

// closeTab closes the tab whose chromedp context cancel ends, and disposes
// of its browser context; the channel it returns is closed when the tab is
// gone. A tab that overran its deadline has its renderer process (pid,
// when known) killed first: its scripts stop there, and so does what they
// send Chromium's browser process, which then closes the tab at once. Any
// other tab's renderer is killed if it outlives the close. When the close
// takes more than closeBudget, Render returns and the close goes on; when
// it takes stuckAfter more, Chromium's browser process is stuck (still
// draining what a page sent it, say), and the whole instance is stopped:
// the next page starts another. So is one that does not answer within
// probeBudget once the tab is gone. The tab's slot is freed after both, so
// no more than Tabs tabs ever live and the next page gets a browser that
// answers.
func (b *Browser) closeTab(in *instance, pid int, cancel context.CancelFunc, overran bool) chan struct{} {
	if overran && pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	done := make(chan struct{})
	go func() {
		cancel()
		close(done)
	}()
	released := make(chan struct{})
	b.closing.Go(func() {
		defer close(released)
		t := time.NewTimer(closeBudget + stuckAfter)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			_ = in.stop()
			<-done
			return
		}
		if pid > 0 && processAlive(pid) {
			// The tab is gone; a renderer still busy with its scripts
			// is not.
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if !in.responsive() {
			_ = in.stop()
		}
	})
	t := time.NewTimer(closeBudget)
	defer t.Stop()
	select {
	case <-released:
	case <-t.C:
	}
	return released
}

// probeBudget bounds how long Chromium's browser process may take to
// answer after a tab closed.
const probeBudget = time.Second

// responsive reports whether Chromium's browser process answers a command
// within probeBudget.
func (in *instance) responsive() bool {
	ctx, cancel := context.WithTimeout(in.ctx, probeBudget)
	defer cancel()
	_, err := chromedp.CallBrowser(ctx, browser.GetVersion, cdp.Empty{})
	return err == nil
}

// rendering is the state of one Render call.
type rendering struct {
	b         *Browser
	in        *instance
	pid       int // the tab's renderer process, 0 when unknown
	client    *safefetch.Client
	page      *url.URL
	start     time.Time
	mainFrame cdp.FrameID
	wg        sync.WaitGroup

	fetches  atomic.Int64 // requests handed to client
	inflight atomic.Int64
	lastBusy atomic.Int64 // unix nanoseconds of the last request start or end

	mentionsTools atomic.Bool // the document or a script names modelContext

	mu         sync.Mutex
	toolEvents int // WebMCP.toolsAdded events read
	badTools   int // tools that did not decode, skipped
	badWhy     string
	moreTools  int      // tools past maxTools
	landed     *url.URL // the page's document once it answered other than a redirect
	requests   []readiness.RenderedRequest
	dropped    int
	tools      []*webmcp.Tool
}

func (r *rendering) run(ctx context.Context) (*readiness.Rendering, error) {
	crashed := make(chan struct{})
	fail := func(what string, err error) error {
		select {
		case <-crashed:
			if rss := r.in.killedAt(r.pid); rss > 0 {
				return fmt.Errorf("browser: %s: the page's renderer used %d MiB, over the bound of %d MiB, and was killed", what, rss>>20, r.b.opts.MaxRendererMemory>>20)
			}
			return fmt.Errorf("browser: %s: the page's renderer crashed", what)
		default:
		}
		if ctx.Err() != nil {
			return fmt.Errorf("browser: %s: the page did not finish within %s: %w", what, r.b.opts.Timeout, err)
		}
		return fmt.Errorf("browser: %s: %w", what, err)
	}
	if err := r.open(ctx); err != nil {
		return nil, fail("opening a tab", err)
	}
	c := chromedp.FromContext(ctx)
	r.mainFrame = cdp.FrameID(c.Target.TargetID)

	// chromedp enables Runtime, Log, Network, DOM and CSS for every tab:
	// their events (console messages, exceptions, every response) carry
	// what the page chooses, of any size, and none is needed. Page stays
	// on (the load event, dialogs), Inspector too (a crashed renderer),
	// and Runtime, without which Chromium records no stack for a tool's
	// registration (the script that registered it); its console and
	// exception events are dropped unread as they arrive (see
	// MaxMessageBytes).
	for _, m := range []cdp.Command[cdp.Empty, cdp.Empty]{log.Disable, network.Disable, css.Disable, dom.Disable} {
		if _, err := chromedp.Call(ctx, m, cdp.Empty{}); err != nil {
			return nil, fail("preparing the tab", err)
		}
	}

	// Subscribe before anything can happen.
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	added, stopAdded := c.Target.Subscribe(webmcp.ToolsAdded.Method)
	defer stopAdded()
	removed, stopRemoved := c.Target.Subscribe(webmcp.ToolsRemoved.Method)
	defer stopRemoved()
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	loads := chromedp.Events(ctx, page.LifecycleEvent)
	crashes := chromedp.Events(ctx, inspector.TargetCrashed)
	loaded := make(chan struct{})
	toolEvents := make(chan struct{}, 1)
	r.wg.Go(func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			r.wg.Go(func() { r.handle(ctx, &ev) })
		}
	})
	r.wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case raw, ok := <-added:
				if !ok {
					return
				}
				r.addTools(raw)
				select {
				case toolEvents <- struct{}{}:
				default:
				}
			case raw, ok := <-removed:
				if !ok {
					return
				}
				r.removeTools(raw)
			}
		}
	})
	r.wg.Go(func() {
		for _, err := range crashes {
			if err != nil {
				return
			}
			close(crashed)
			return
		}
	})
	r.wg.Go(func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	})
	// The load that counts is the main frame's, of the document the
	// navigation below loads: the load of the tab's first document,
	// about:blank, can arrive late.
	var loadMu sync.Mutex
	var navLoader cdp.LoaderID
	loadedBy := map[cdp.LoaderID]bool{}
	markLoaded := func() {
		select {
		case <-loaded:
		default:
			close(loaded)
		}
	}
	r.wg.Go(func() {
		for ev, err := range loads {
			if err != nil {
				return
			}
			if ev.Name != "load" || ev.FrameID != r.mainFrame {
				continue
			}
			loadMu.Lock()
			if len(loadedBy) < 64 {
				loadedBy[ev.LoaderID] = true
			}
			if navLoader != "" && ev.LoaderID == navLoader {
				markLoaded()
			}
			loadMu.Unlock()
		}
	})

	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: c.BrowserContextID}); err != nil {
		return nil, fail("refusing downloads", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: hardening}); err != nil {
		return nil, fail("preparing the tab", err)
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}}); err != nil {
		return nil, fail("pausing requests", err)
	}
	if _, err := chromedp.Call(ctx, webmcp.Enable, cdp.Empty{}); err != nil {
		return nil, fail("listening for WebMCP tools (does this Chromium have WebMCP?)", err)
	}
	r.lastBusy.Store(time.Now().UnixNano())
	nav, err := chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: r.page.String()})
	if err != nil {
		return nil, fail("navigating", err)
	}
	if nav.ErrorText != "" {
		return nil, fmt.Errorf("browser: navigating: %s", nav.ErrorText)
	}
	loadMu.Lock()
	navLoader = nav.LoaderID
	if loadedBy[navLoader] {
		markLoaded()
	}
	loadMu.Unlock()

	// Wait for the load event, then for a quiet moment, within the settle
	// deadline: two thirds of the page's time, the rest for the snapshot.
	settle := time.NewTimer(time.Until(r.start.Add(r.b.opts.Timeout * 2 / 3)))
	defer settle.Stop()
	isLoaded := false
	select {
	case <-loaded:
		isLoaded = true
	case <-settle.C:
	case <-crashed:
		return nil, fail("loading", errors.New("crashed"))
	case <-ctx.Done():
		return nil, fail("loading", ctx.Err())
	}
	if isLoaded {
		loadedAt := time.Now()
		tick := time.NewTicker(quiet / 3)
		defer tick.Stop()
	wait:
		for {
			if r.settled(loadedAt) {
				break
			}
			select {
			case <-tick.C:
			case <-toolEvents:
			case <-settle.C:
				break wait
			case <-crashed:
				return nil, fail("settling", errors.New("crashed"))
			case <-ctx.Done():
				return nil, fail("settling", ctx.Err())
			}
		}
	}

	dom, err := r.snapshot(ctx)
	if err != nil {
		return nil, fail("reading the DOM (a script that never yields keeps it busy)", err)
	}
	frames := map[cdp.FrameID]string{}
	if tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{}); err == nil {
		walkFrames(tree.FrameTree, frames, 0)
	}

	out := &readiness.Rendering{URL: r.page.String(), Browser: r.b.version, HTML: []byte(dom), Loaded: isLoaded}
	r.mu.Lock()
	if r.landed != nil {
		out.URL = r.landed.String()
	}
	for _, t := range r.tools {
		rt := readiness.RenderedTool{Name: t.Name, Description: t.Description, Frame: frames[t.FrameID],
			Declarative: t.BackendNodeID != 0}
		if len(t.InputSchema) > 0 && len(t.InputSchema) <= maxSchemaBytes && json.Valid(t.InputSchema) {
			rt.InputSchema = json.RawMessage(append([]byte(nil), t.InputSchema...))
		}
		if !rt.Declarative && t.StackTrace != nil {
			for _, f := range t.StackTrace.CallFrames {
				if f.URL != "" {
					rt.Script = f.URL
					break
				}
			}
		}
		out.Tools = append(out.Tools, rt)
	}
	out.Requests = append(out.Requests, r.requests...)
	if r.badTools > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%s that the browser reported could not be read (%s) and %s skipped; the others were judged",
			plural.N(r.badTools, "tool", "tools"), r.badWhy, map[bool]string{true: "was", false: "were"}[r.badTools == 1]))
	}
	if r.moreTools > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%s more than the renderer keeps (%d) were registered and not read", plural.N(r.moreTools, "tool", "tools"), maxTools))
	}
	r.mu.Unlock()
	out.Elapsed = time.Since(r.start)
	return out, nil
}

// open opens the tab and finds its renderer process: the one that appears
// while the tab opens (tabs open one at a time, and each browser context
// has renderer processes of its own).
func (r *rendering) open(ctx context.Context) error {
	r.b.opening.Lock()
	defer r.b.opening.Unlock()
	before := map[int]bool{}
	for _, pid := range pageRenderers(r.in.pid) {
		before[pid] = true
	}
	if err := chromedp.Do(ctx); err != nil {
		return err
	}
	var fresh []int
	for _, pid := range pageRenderers(r.in.pid) {
		if !before[pid] {
			fresh = append(fresh, pid)
		}
	}
	if len(fresh) == 1 {
		r.pid = fresh[0]
	}
	return nil
}

// settled reports whether a loaded page is done: no request in flight or
// made for quiet, no tool registered for quiet, and, when the page's
// document or scripts name document.modelContext and no tool came yet, no
// more than toolWait since the load (a page may register its tools a
// moment after it loaded).
func (r *rendering) settled(loadedAt time.Time) bool {
	if r.inflight.Load() != 0 || time.Since(time.Unix(0, r.lastBusy.Load())) < quiet {
		return false
	}
	r.mu.Lock()
	seen := r.toolEvents
	r.mu.Unlock()
	return seen > 0 || !r.mentionsTools.Load() || time.Since(loadedAt) >= toolWait
}

// snapshot serialises the DOM in a world of the renderer's own, where the
// page's scripts cannot change what serialises or cuts it (an override of
// String.prototype.slice, say), and cuts it there to MaxHTMLBytes of UTF-8:
// at most that many bytes, escaped as JSON, cross to this process.
func (r *rendering) snapshot(ctx context.Context) (string, error) {
	w, err := chromedp.Call(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: r.mainFrame, WorldName: "agentweb-snapshot"})
	if err != nil {
		return "", err
	}
	n := r.b.opts.MaxHTMLBytes
	expr := fmt.Sprintf(`(() => {
  const e = document.documentElement;
  if (!e) return "";
  const b = new TextEncoder().encode(e.outerHTML.substring(0, %d));
  return new TextDecoder().decode(b.subarray(0, %d)).replace(/\uFFFD$/, "");
})()`, n, n)
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: w.ExecutionContextID, ReturnByValue: new(true)})
	if err != nil {
		return "", err
	}
	var dom string
	if res.ExceptionDetails != nil || res.Result == nil || json.Unmarshal(res.Result.Value, &dom) != nil {
		return "", errors.New("no document")
	}
	if len(dom) > n {
		dom = dom[:n]
	}
	return dom, nil
}

// addTools reads one WebMCP.toolsAdded event tool by tool: a tool that does
// not decode (a description holding a lone surrogate, say) is skipped and
// counted, and the others are kept.
func (r *rendering) addTools(raw jsonv2.Value) {
	var ev struct {
		Tools     []jsonv2.Value `json:"tools"`
		Oversized bool           `json:"oversized"`
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.toolEvents++
	r.lastBusy.Store(time.Now().UnixNano())
	if err := jsonv2.Unmarshal(raw, &ev, jsonv2.AllowInvalidUTF8(true)); err != nil {
		r.skipTool(err)
		return
	}
	if ev.Oversized {
		r.skipTool(fmt.Errorf("over the bound of %d MiB a DevTools message", MaxMessageBytes>>20))
		return
	}
	for _, v := range ev.Tools {
		if len(r.tools) >= maxTools {
			r.moreTools++
			continue
		}
		var t webmcp.Tool
		if err := jsonv2.Unmarshal(v, &t); err != nil {
			r.skipTool(err)
			continue
		}
		r.tools = append(r.tools, &t)
	}
}

// skipTool counts a tool that did not decode; the caller holds r.mu.
func (r *rendering) skipTool(err error) {
	r.badTools++
	if r.badWhy == "" {
		r.badWhy = truncate(err.Error(), 120)
	}
}

// removeTools reads one WebMCP.toolsRemoved event: each tool removed is
// found by its toolId or, when the browser sends none, by its name and
// frame.
func (r *rendering) removeTools(raw jsonv2.Value) {
	var ev struct {
		Tools []struct {
			ToolID  string `json:"toolId"`
			Name    string `json:"name"`
			FrameID string `json:"frameId"`
		} `json:"tools"`
	}
	if jsonv2.Unmarshal(raw, &ev, jsonv2.AllowInvalidUTF8(true)) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, gone := range ev.Tools {
		for i, t := range r.tools {
			// Chromium 156 sends no toolId: a tool is its name in its
			// frame.
			same := gone.ToolID != "" && string(t.ToolID) == gone.ToolID ||
				gone.ToolID == "" && t.Name == gone.Name && string(t.FrameID) == gone.FrameID
			if same {
				r.tools = append(r.tools[:i], r.tools[i+1:]...)
				break
			}
		}
	}
}

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// walkFrames maps every frame of the tree to its URL, at most 64 deep.
func walkFrames(t *page.FrameTree, into map[cdp.FrameID]string, depth int) {
	if t == nil || depth > 64 || len(into) > 4096 {
		return
	}
	if t.Frame != nil {
		into[t.Frame.ID] = t.Frame.URL
	}
	for _, c := range t.ChildFrames {
		walkFrames(c, into, depth+1)
	}
}

// needed are the resource types a rendering fetches: what can change the
// DOM or register a tool.
var needed = map[network.ResourceType]bool{
	network.ResourceTypeDocument: true, network.ResourceTypeScript: true, network.ResourceTypeXHR: true,
	network.ResourceTypeFetch: true, network.ResourceTypeEventSource: true,
}

func (r *rendering) record(q readiness.RenderedRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.requests) >= maxRecords {
		r.dropped++
		return
	}
	r.requests = append(r.requests, q)
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
			// frame keeps its document, where a failed one would show an
			// error page in its place.
			_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: http.StatusNoContent})
			return
		}
		_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: reason})
	}
	u, err := url.Parse(q.URL)
	switch {
	case ev.Request == nil || err != nil:
		refuse(network.ErrorReasonBlockedByClient, "not sent: not a URL")
		return
	case q.URL == oversized:
		q.URL = ""
		refuse(network.ErrorReasonBlockedByClient, fmt.Sprintf("not sent: the request (its URL, headers or body) was over the bound of %d MiB a DevTools message", MaxMessageBytes>>20))
		return
	case u.Scheme != "https" && u.Scheme != "http":
		refuse(network.ErrorReasonBlockedByClient, "not sent: scheme "+u.Scheme)
		return
	case !needed[ev.ResourceType]:
		q.Skipped = true
		refuse(network.ErrorReasonBlockedByClient, "not fetched: a rendering does not need it")
		return
	case q.Method != http.MethodGet && q.Method != http.MethodHead:
		refuse(network.ErrorReasonBlockedByClient, "not sent: the renderer sends only GET and HEAD, which change nothing")
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

// dropHeaders are the response headers never handed to Chromium: framing
// that no longer applies (safefetch has read and decoded the body), and
// headers that would make it store state or send requests of its own
// (cookies, HSTS, alternative services, reporting endpoints).
var dropHeaders = map[string]bool{
	"Content-Length": true, "Content-Encoding": true, "Transfer-Encoding": true, "Connection": true, "Keep-Alive": true,
	"Set-Cookie": true, "Strict-Transport-Security": true, "Alt-Svc": true, "Nel": true, "Report-To": true,
	"Reporting-Endpoints": true, "Clear-Site-Data": true,
}

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

// errorReason is the network error Chromium sees for a safefetch refusal.
func errorReason(err error) network.ErrorReason {
	switch {
	case errors.Is(err, safefetch.ErrForbiddenURL), errors.Is(err, safefetch.ErrForbiddenAddress):
		return network.ErrorReasonAccessDenied
	case errors.Is(err, safefetch.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return network.ErrorReasonTimedOut
	case errors.Is(err, safefetch.ErrDNS):
		return network.ErrorReasonNameNotResolved
	case errors.Is(err, safefetch.ErrBudgetExhausted), errors.Is(err, safefetch.ErrTooLarge):
		return network.ErrorReasonBlockedByClient
	}
	return network.ErrorReasonFailed
}

// sameOrigin compares the normalized origins of a and b (scheme and host
// case, trailing dot, default port), as every origin test of the module
// does; a URL that has no origin safefetch would fetch is of no origin.
func sameOrigin(a, b *url.URL) bool {
	oa, err1 := weburl.Origin(a)
	ob, err2 := weburl.Origin(b)
	return err1 == nil && err2 == nil && oa == ob
}
