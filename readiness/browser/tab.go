package browser

import (
	"context"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// hardening runs before any script of every document, in every frame,
// about:blank frames included. In it window.open returns nothing, and
// service workers cannot be registered. WebRTC and shared workers are
// absent. history.pushState and replaceState do nothing after their first
// 100 calls. document.modelContext.registerTool throws after its first
// 1,000. The calls are counted over the page and its same-origin frames.
// Each call is a message to Chromium's browser process, and a flood of
// them keeps it busy for seconds after the page is gone.
//
// Each is fixed on the prototype or the global, unwritable and
// unconfigurable. So neither an assignment nor a call through the
// prototype (ServiceWorkerContainer.prototype.register.call) reaches the
// original. The Chromium switches already refuse popups, and leave every
// request that escaped the Fetch domain unresolved. This keeps a page from
// trying.
const hardening = `(() => {
  const deny = function register() { return Promise.reject(new DOMException("not allowed while rendering", "NotAllowedError")); };
  const fix = (o, k, v) => { try { Object.defineProperty(o, k, {value: v, writable: false, configurable: false, enumerable: false}); } catch (e) {} };
  fix(self, "open", function open() { return null; });
  if (self.ServiceWorkerContainer) fix(ServiceWorkerContainer.prototype, "register", deny);
  for (const k of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "SharedWorker"]) fix(self, k, undefined);
  // One count of calls for the page and its same-origin frames, kept by
  // the top document. The page can call it, never reset it. So another
  // frame's realm gives no more calls.
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

// open opens the tab and finds its renderer process: the one that appears
// while the tab opens. Tabs open one at a time, and each browser context
// has renderer processes of its own.
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

// closeBudget is how long Render waits for its tab to close. Past it,
// Render returns and the close goes on in the background.
const closeBudget = 750 * time.Millisecond

// stuckAfter is how long a tab's close may take once its renderer is
// killed. Past it, Chromium's browser process is taken to be stuck, and
// the whole instance is stopped. The next page starts another.
const stuckAfter = 10 * time.Second

// closeTab closes the tab whose chromedp context cancel ends, and disposes
// of its browser context. The channel it returns is closed when the tab is
// gone.
//
// A tab that overran its deadline has its renderer process (pid, when
// known) killed first. Its scripts stop there, and so does what they send
// Chromium's browser process, which then closes the tab at once. Any
// other tab's renderer is killed if it outlives the close.
//
// When the close takes more than [closeBudget], Render returns and the
// close goes on. When it takes [stuckAfter] more, Chromium's browser
// process is stuck (still draining what a page sent it, say). Then the
// whole instance is stopped, and the next page starts another. So is one
// that does not answer within [probeBudget] once the tab is gone. The
// tab's slot is freed after both. So no more than Tabs tabs ever live, and
// the next page gets a browser that answers.
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
