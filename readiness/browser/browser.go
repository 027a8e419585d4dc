package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Defaults of [Options].
const (
	DefaultTabs         = 2
	DefaultTimeout      = 15 * time.Second
	DefaultMaxRequests  = 32
	DefaultMaxHTMLBytes = 2 << 20
)

// startTimeout bounds how long New waits for Chromium to start when ctx has
// no earlier deadline.
const startTimeout = 30 * time.Second

// ErrNotFound is returned by [New] when no Chromium executable is found.
var ErrNotFound = errors.New("browser: no Chromium found (install Debian's chromium package, or set Options.ExecPath)")

// ErrClosed is returned by [Browser.Render] after [Browser.Close].
var ErrClosed = errors.New("browser: closed")

// Options configures [New]. The zero value (and a nil *Options) is safe:
// Chromium found on the system, two pages at once, 15 s a page, 32 requests
// a page (what readiness adds to a scan's default budget for each page
// rendered, readiness.DefaultRenderAttempts) and a DOM snapshot of at most 2 MiB.
type Options struct {
	// ExecPath is the Chromium executable. "" looks for chromium,
	// chromium-browser, google-chrome and google-chrome-stable on PATH.
	ExecPath string
	// Tabs bounds the pages rendered at once; a Render call waits for a
	// free tab. 0 means DefaultTabs.
	Tabs int
	// Timeout is every page's deadline, from the moment it has a tab to
	// its snapshot; a page that has not loaded by two thirds of it is read
	// as it stands. 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxRequests bounds the requests one page may have fulfilled (each is
	// also charged to the scan's budget); past it, requests are refused.
	// 0 means DefaultMaxRequests.
	MaxRequests int
	// MaxHTMLBytes bounds the DOM snapshot (document.documentElement's
	// outerHTML, cut at this many bytes). 0 means DefaultMaxHTMLBytes.
	MaxHTMLBytes int
}

// Browser is one Chromium process serving many renderings, at most
// Options.Tabs at once, each in a browser context of its own. It is safe
// for concurrent use.
type Browser struct {
	opts    Options
	version string
	dataDir string

	allocCancel   context.CancelFunc
	browserCtx    context.Context
	browserCancel context.CancelFunc

	tabs chan struct{}

	mu      sync.Mutex
	closed  bool
	renders sync.WaitGroup
	stop    chan struct{} // closed by Close: renders in flight end
}

// flags are the Chromium switches every Browser runs with, beyond chromedp's
// defaults (headless, no first run, no background networking, no sync, no
// extensions, no default apps, no breakpad). Each keeps the browser from
// reaching the network by any way but the DevTools Fetch domain, which the
// renderer answers from safefetch, or keeps a page from leaving its tab.
func flags(dataDir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.UserDataDir(dataDir),
		// A request that escaped the Fetch domain resolves nothing: every
		// host name, the proxy's included, is not found.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"),
		// No proxy from the environment or the system; and one that does
		// not exist, with loopback not bypassed, so that a request to an
		// address literal (which no resolver sees) fails too.
		chromedp.Flag("proxy-server", "http://proxy.invalid:9"),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("dns-prefetch-disable", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("deny-permission-prompts", true),
		// Popups and window.open fail (a headless switch), and chromedp's
		// own default that turns the popup blocker off is undone.
		chromedp.Flag("block-new-web-contents", true),
		chromedp.Flag("disable-popup-blocking", false),
		// Every frame stays in the page's process, so that the page's
		// Fetch domain pauses the requests of cross-site iframes too.
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,IsolateOrigins,site-per-process,OptimizationHints,MediaRouter,AutofillServerCommunication,InterestFeedContentSuggestions,PrivacySandboxSettings4"),
		// WebMCP: document.modelContext and the DevTools WebMCP domain.
		chromedp.Flag("enable-blink-features", "WebMCP"),
		chromedp.Flag("js-flags", "--max-old-space-size=256"),
	}
}

// New starts Chromium (a fresh profile in a temporary directory, removed by
// Close). It returns [ErrNotFound] when no Chromium is found. ctx bounds the
// start only; the browser lives until Close.
//
// Chromium's sandbox needs a user namespace that is not available to root,
// so a process running as root starts Chromium with --no-sandbox, and only
// then: the page's scripts then run without the sandbox's second wall,
// behind the first (a renderer process that reaches the network only
// through the Fetch domain, which safefetch answers).
func New(ctx context.Context, opts *Options) (*Browser, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Tabs <= 0 {
		o.Tabs = DefaultTabs
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRequests <= 0 {
		o.MaxRequests = DefaultMaxRequests
	}
	if o.MaxHTMLBytes <= 0 {
		o.MaxHTMLBytes = DefaultMaxHTMLBytes
	}
	path, err := findChromium(o.ExecPath)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "agentweb-chromium-")
	if err != nil {
		return nil, fmt.Errorf("browser: profile directory: %w", err)
	}
	all := append(chromedp.DefaultExecAllocatorOptions[:], flags(dir)...)
	all = append(all, chromedp.ExecPath(path), chromedp.CombinedOutput(io.Discard))
	if os.Geteuid() == 0 {
		all = append(all, chromedp.NoSandbox)
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), all...)
	quiet := func(string, ...any) {}
	browserCtx, browserCancel := chromedp.NewContext(allocCtx,
		chromedp.WithBrowserOption(chromedp.WithBrowserErrorf(quiet), chromedp.WithBrowserLogf(quiet)))
	b := &Browser{opts: o, dataDir: dir, allocCancel: allocCancel, browserCtx: browserCtx, browserCancel: browserCancel,
		tabs: make(chan struct{}, o.Tabs), stop: make(chan struct{})}

	startCtx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	started := make(chan error, 1)
	go func() {
		// The first Do binds the browser's life to browserCtx, which has no
		// deadline; the wait below bounds the start by ctx.
		if err := chromedp.Do(browserCtx); err != nil {
			started <- err
			return
		}
		v, err := chromedp.CallBrowser(browserCtx, browser.GetVersion, cdp.Empty{})
		if err == nil {
			b.version = productName(v.Product)
		}
		started <- err
	}()
	select {
	case err = <-started:
	case <-startCtx.Done():
		err = startCtx.Err()
	}
	if err != nil {
		b.shutdown()
		return nil, fmt.Errorf("browser: starting %s: %w", path, err)
	}
	return b, nil
}

// productName turns DevTools' product ("HeadlessChrome/156.0.8078.114")
// into the name receipts use ("Chromium 156.0.8078.114").
func productName(p string) string {
	_, v, ok := strings.Cut(p, "/")
	if !ok || v == "" {
		return "Chromium"
	}
	return "Chromium " + v
}

// findChromium returns the executable to run.
func findChromium(path string) (string, error) {
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrNotFound, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// Version is the browser's name and version, "Chromium 156.0.8078.114".
func (b *Browser) Version() string { return b.version }

// Close ends the renderings in flight, stops Chromium and every process it
// started, and removes its profile directory. It is safe to call more than
// once; a Render after Close returns [ErrClosed].
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.stop)
	b.mu.Unlock()
	b.renders.Wait()
	return b.shutdown()
}

func (b *Browser) shutdown() error {
	// A graceful close first (Browser.close), bounded; then the allocator
	// kills what is left of the process tree and waits for it, so a close
	// that timed out still leaves no process.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(b.browserCtx), 5*time.Second)
	defer cancel()
	_ = chromedp.Cancel(ctx)
	b.browserCancel()
	b.allocCancel()
	if err := os.RemoveAll(b.dataDir); err != nil {
		return fmt.Errorf("browser: close: %w", err)
	}
	return nil
}
