package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
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
)

// Render loads pageURL in a new tab, in a browser context of its own: no
// cookie or storage of another page. It runs the page's scripts. It
// returns the DOM they left and the WebMCP tools Chromium registered.
//
// The DevTools Fetch domain pauses every request of the page it sees at
// the request stage. The package documentation lists them, and those it
// does not see. client answers each (nil: safefetch.Default()), charged to
// its budget, one hop at a time: a redirect is handed to Chromium, whose
// next request is paused in turn. A request client refuses fails. Only GET
// and HEAD are sent, and only for documents, scripts, XHR, fetch and event
// streams. Images, stylesheets, fonts and media are refused unfetched:
// neither the DOM's forms nor the tools need them. A navigation of the
// page to another origin, downloads, permission prompts and popups are
// refused, and dialogs dismissed.
//
// The page has [Options].Timeout from the moment it has a tab. A page that
// has not loaded by two thirds of it is read as it stands. One whose
// scripts keep the browser busy past it fails. Once loaded, the page is
// read when it has made no request and registered no tool for 300 ms. A
// page whose document or scripts name modelContext, and that registered no
// tool yet, is given up to 2 s after its load to register one.
//
// Render returns within Timeout plus [DeadlineMargin]. At the deadline the
// tab's renderer process is killed and the tab closed: nothing of the page
// runs after. A renderer over [Options].MaxRendererMemory is killed, and
// its page fails, saying so. A tool the browser reports that cannot be
// read is skipped alone, and the rendering's Notes say so. They also say
// when Chromium had died and was started again for the page, and how many
// requests were made past the 256 a rendering lists.
//
// Render waits for a free tab as long as ctx allows: at most
// [Options].Tabs pages render at once.
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

	// The tab's events, made by subscribe.
	crashed   chan struct{} // closed when the renderer crashed
	loaded    chan struct{} // closed by the load of the navigation's document
	toolAdded chan struct{} // signalled by each WebMCP.toolsAdded event
	loadMu    sync.Mutex
	navLoader cdp.LoaderID          // the navigation's loader, once known
	loadedBy  map[cdp.LoaderID]bool // the main frame's loaders that loaded

	mu         sync.Mutex
	toolEvents int // WebMCP.toolsAdded events read
	badTools   int // tools that did not decode, skipped
	badWhy     string
	moreTools  int      // tools past maxTools
	landed     *url.URL // the page's document once it answered other than a redirect
	requests   []readiness.RenderedRequest
	dropped    int // requests past maxRecords, not listed
	tools      []*webmcp.Tool
}

// run renders the page, one step after another.
func (r *rendering) run(ctx context.Context) (*readiness.Rendering, error) {
	if err := r.open(ctx); err != nil {
		return nil, r.fail(ctx, "opening a tab", err)
	}
	r.mainFrame = cdp.FrameID(chromedp.FromContext(ctx).Target.TargetID)
	if err := r.mute(ctx); err != nil {
		return nil, err
	}
	defer r.subscribe(ctx)()
	if err := r.prepare(ctx); err != nil {
		return nil, err
	}
	if err := r.navigate(ctx); err != nil {
		return nil, err
	}
	loaded, err := r.settle(ctx)
	if err != nil {
		return nil, err
	}
	return r.snapshot(ctx, loaded)
}

// fail says why the step what failed: the renderer was killed for its
// memory or crashed, the page ran out of time, or err.
func (r *rendering) fail(ctx context.Context, what string, err error) error {
	select {
	case <-r.crashed:
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

// mute turns off the domains whose events the tab does not need.
//
// chromedp enables Runtime, Log, Network, DOM and CSS for every tab. Their
// events (console messages, exceptions, every response) carry what the
// page chooses, of any size. Page stays on, for the load event and
// dialogs; Inspector too, for a crashed renderer. Runtime stays on as
// well: without it Chromium records no stack for a tool's registration
// (the script that registered it). Its console and exception events are
// dropped unread as they arrive (see [MaxMessageBytes]).
func (r *rendering) mute(ctx context.Context) error {
	for _, m := range []cdp.Command[cdp.Empty, cdp.Empty]{log.Disable, network.Disable, css.Disable, dom.Disable} {
		if _, err := chromedp.Call(ctx, m, cdp.Empty{}); err != nil {
			return r.fail(ctx, "preparing the tab", err)
		}
	}
	return nil
}

// subscribe listens to the tab's events before anything can happen: paused
// requests, tools added and removed, a crash, dialogs and loads. Calling
// stop ends the WebMCP subscriptions.
func (r *rendering) subscribe(ctx context.Context) (stop func()) {
	c := chromedp.FromContext(ctx)
	r.crashed, r.loaded, r.toolAdded = make(chan struct{}), make(chan struct{}), make(chan struct{}, 1)
	r.loadedBy = map[cdp.LoaderID]bool{}
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	added, stopAdded := c.Target.Subscribe(webmcp.ToolsAdded.Method)
	removed, stopRemoved := c.Target.Subscribe(webmcp.ToolsRemoved.Method)
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	loads := chromedp.Events(ctx, page.LifecycleEvent)
	crashes := chromedp.Events(ctx, inspector.TargetCrashed)
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
				case r.toolAdded <- struct{}{}:
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
			close(r.crashed)
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
	// The load that counts is the main frame's, of the document that
	// navigate loads. The load of the tab's first document, about:blank,
	// can arrive late.
	r.wg.Go(func() {
		for ev, err := range loads {
			if err != nil {
				return
			}
			if ev.Name != "load" || ev.FrameID != r.mainFrame {
				continue
			}
			r.loadMu.Lock()
			if len(r.loadedBy) < 64 {
				r.loadedBy[ev.LoaderID] = true
			}
			if r.navLoader != "" && ev.LoaderID == r.navLoader {
				r.markLoaded()
			}
			r.loadMu.Unlock()
		}
	})
	return func() {
		stopRemoved()
		stopAdded()
	}
}

// markLoaded closes r.loaded once; the caller holds r.loadMu.
func (r *rendering) markLoaded() {
	select {
	case <-r.loaded:
	default:
		close(r.loaded)
	}
}

// prepare readies the tab for the page: downloads denied, the hardening
// script run before any other, requests paused, WebMCP tools reported.
func (r *rendering) prepare(ctx context.Context) error {
	c := chromedp.FromContext(ctx)
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: c.BrowserContextID}); err != nil {
		return r.fail(ctx, "refusing downloads", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: hardening}); err != nil {
		return r.fail(ctx, "preparing the tab", err)
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}}); err != nil {
		return r.fail(ctx, "pausing requests", err)
	}
	if _, err := chromedp.Call(ctx, webmcp.Enable, cdp.Empty{}); err != nil {
		return r.fail(ctx, "listening for WebMCP tools (does this Chromium have WebMCP?)", err)
	}
	return nil
}

// navigate sends the tab to the page and notes the loader whose load
// counts.
func (r *rendering) navigate(ctx context.Context) error {
	r.lastBusy.Store(time.Now().UnixNano())
	nav, err := chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: r.page.String()})
	if err != nil {
		return r.fail(ctx, "navigating", err)
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("browser: navigating: %s", nav.ErrorText)
	}
	r.loadMu.Lock()
	r.navLoader = nav.LoaderID
	if r.loadedBy[r.navLoader] {
		r.markLoaded()
	}
	r.loadMu.Unlock()
	return nil
}

// settle waits for the load event, then until the page is
// [rendering.settled]. Both waits end at the settle deadline: two thirds of
// the page's time, the rest being the snapshot's. It reports whether the
// page loaded.
func (r *rendering) settle(ctx context.Context) (loaded bool, err error) {
	deadline := time.NewTimer(time.Until(r.start.Add(r.b.opts.Timeout * 2 / 3)))
	defer deadline.Stop()
	select {
	case <-r.loaded:
	case <-deadline.C:
		return false, nil
	case <-r.crashed:
		return false, r.fail(ctx, "loading", errors.New("crashed"))
	case <-ctx.Done():
		return false, r.fail(ctx, "loading", ctx.Err())
	}
	loadedAt := time.Now()
	tick := time.NewTicker(quiet / 3)
	defer tick.Stop()
	for !r.settled(loadedAt) {
		select {
		case <-tick.C:
		case <-r.toolAdded:
		case <-deadline.C:
			return true, nil
		case <-r.crashed:
			return false, r.fail(ctx, "settling", errors.New("crashed"))
		case <-ctx.Done():
			return false, r.fail(ctx, "settling", ctx.Err())
		}
	}
	return true, nil
}

// snapshot reads what the page left: its DOM, the tools that stayed
// registered, the requests it made, and notes on the tools not read.
func (r *rendering) snapshot(ctx context.Context, loaded bool) (*readiness.Rendering, error) {
	dom, err := r.serialise(ctx)
	if err != nil {
		return nil, r.fail(ctx, "reading the DOM (a script that never yields keeps it busy)", err)
	}
	frames := map[cdp.FrameID]string{}
	if tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{}); err == nil {
		walkFrames(tree.FrameTree, frames, 0)
	}

	out := &readiness.Rendering{URL: r.page.String(), Browser: r.b.version, HTML: []byte(dom), Loaded: loaded}
	r.mu.Lock()
	if r.landed != nil {
		out.URL = r.landed.String()
	}
	out.Tools = r.renderedTools(frames)
	out.Requests = append(out.Requests, r.requests...)
	out.Notes = append(r.toolNotes(), r.requestNotes()...)
	r.mu.Unlock()
	out.Elapsed = time.Since(r.start)
	return out, nil
}

// settled reports whether a loaded page is done. No request is in flight,
// and none was made for [quiet]. No tool was registered for quiet either.
// A page may register its tools a moment after it loaded. So when its
// document or scripts name document.modelContext and no tool came yet, it
// is done only [toolWait] after its load.
func (r *rendering) settled(loadedAt time.Time) bool {
	if r.inflight.Load() != 0 || time.Since(time.Unix(0, r.lastBusy.Load())) < quiet {
		return false
	}
	r.mu.Lock()
	seen := r.toolEvents
	r.mu.Unlock()
	return seen > 0 || !r.mentionsTools.Load() || time.Since(loadedAt) >= toolWait
}

// serialise serialises the DOM in a world of the renderer's own. There the
// page's scripts cannot change what serialises or cuts it (an override of
// String.prototype.slice, say). It cuts the DOM there to MaxHTMLBytes of
// UTF-8: at most that many bytes, escaped as JSON, cross to this process.
func (r *rendering) serialise(ctx context.Context) (string, error) {
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
