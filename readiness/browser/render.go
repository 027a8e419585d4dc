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

	"github.com/agentweb/agentweb/internal/plural"
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
