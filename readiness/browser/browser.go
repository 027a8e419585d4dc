package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Defaults of [Options].
const (
	// DefaultTabs is [Options].Tabs' default: two pages at once.
	DefaultTabs = 2
	// DefaultTimeout is [Options].Timeout's default: 15 s a page.
	DefaultTimeout = 15 * time.Second
	// DefaultMaxRequests is [Options].MaxRequests' default: 32 requests a
	// page. It is what readiness adds to a scan's default budget for each
	// page rendered, [readiness.DefaultRenderAttempts].
	DefaultMaxRequests = 32
	// DefaultMaxHTMLBytes is [Options].MaxHTMLBytes' default: a DOM
	// snapshot of at most 2 MiB.
	DefaultMaxHTMLBytes = 2 << 20
	// DefaultMaxRendererMemory is [Options].MaxRendererMemory's default:
	// 512 MiB of resident memory for each renderer process.
	DefaultMaxRendererMemory = 512 << 20
	// DeadlineMargin bounds how long past its Timeout a Render returns. It
	// is the time to kill the tab's renderer and wait up to 750 ms for the
	// tab to close, on a loaded machine. A close that takes longer goes on
	// after Render returned, holding the tab's slot. It ends with Chromium
	// stopped when its browser process does not answer.
	DeadlineMargin = 3 * time.Second
)

// startTimeout bounds how long New waits for Chromium to start when ctx has
// no earlier deadline.
const startTimeout = 30 * time.Second

// ErrNotFound is returned by [New] when no Chromium executable is found.
var ErrNotFound = errors.New("browser: no Chromium found (install Debian's chromium package, or set Options.ExecPath)")

// ErrClosed is returned by [Browser.Render] after [Browser.Close].
var ErrClosed = errors.New("browser: closed")

// Options configures [New]. The zero value (and a nil *Options) is safe:
// Chromium is found on the system, and every bound takes its default.
type Options struct {
	// ExecPath is the Chromium executable. "" looks for chromium,
	// chromium-browser, google-chrome and google-chrome-stable on PATH.
	ExecPath string
	// Tabs bounds the pages rendered at once. A Render call waits for a
	// free tab. 0 means [DefaultTabs].
	Tabs int
	// Timeout is every page's deadline, from the moment it has a tab to
	// its snapshot. A page that has not loaded by two thirds of it is read
	// as it stands. At the deadline the tab's renderer process is killed
	// and the tab closed: Render returns within Timeout plus
	// [DeadlineMargin]. 0 means [DefaultTimeout].
	Timeout time.Duration
	// MaxRequests bounds the requests one page may have fulfilled. Each is
	// also charged to the scan's budget. Past it, requests are refused.
	// 0 means [DefaultMaxRequests].
	MaxRequests int
	// MaxHTMLBytes bounds the DOM snapshot: document.documentElement's
	// outerHTML, cut in the page at this many bytes of UTF-8 before it is
	// sent. 0 means [DefaultMaxHTMLBytes].
	MaxHTMLBytes int
	// MaxRendererMemory bounds the resident memory (RSS) of every
	// renderer process, in bytes. A watchdog reads it every 50 ms and
	// kills a renderer over it. The page it rendered fails, saying why.
	// The JavaScript heap alone is bounded at 256 MiB apart from it. This
	// bound also holds for array buffers, WebAssembly memory and canvases.
	// A renderer can grow up to 128 MiB past the bound between a reading
	// and its kill. 0 means [DefaultMaxRendererMemory].
	MaxRendererMemory int64
}

// Browser is one Chromium process serving many renderings, at most
// [Options].Tabs at once, each in a browser context of its own. It is safe
// for concurrent use. Chromium may die (killed by the system for its
// memory, say). Then the next Render starts another, at most [MaxRestarts]
// times in a row without a page rendered between. The rendering says so.
type Browser struct {
	opts    Options
	path    string
	version string

	tabs chan struct{}
	// opening serialises the opening of tabs. So the renderer process
	// that appears while a tab opens is that tab's.
	opening sync.Mutex

	instMu   sync.Mutex
	inst     *instance
	restarts int // restarts since the last page rendered

	mu      sync.Mutex
	closed  bool
	renders sync.WaitGroup
	closing sync.WaitGroup // tabs closing after their Render returned
	stop    chan struct{}  // closed by Close: renders in flight end
}

// instance is one run of Chromium: its process tree, its directory and
// its memory watchdog.
type instance struct {
	dir    string // holds profile/ and tmp/ (Chromium's TMPDIR)
	cancel context.CancelFunc
	// allocCancel stops the process and waits until it has exited.
	allocCancel context.CancelFunc
	ctx         context.Context // the browser's chromedp context; done when Chromium is gone
	pid         int
	// childW is the end of the pipe Chromium writes its messages to,
	// closed here once Chromium has its own copy.
	childW *os.File

	watchDone chan struct{}
	killMu    sync.Mutex
	killed    map[int]int64 // renderer pid -> the RSS it was killed at
	stopOnce  sync.Once
}

// flags are the Chromium switches every Browser runs with, beyond
// chromedp's defaults: headless, no first run, no background networking,
// no sync, no extensions, no default apps, no breakpad. Some keep the
// browser off the network but for the DevTools Fetch domain, which the
// renderer answers from safefetch. The others keep a page in its tab.
func flags(dataDir string) []chromedp.ExecAllocatorOption {
	all := []chromedp.ExecAllocatorOption{
		chromedp.UserDataDir(dataDir),
		// Chromium's own temporary files go into the Browser's directory,
		// removed with it.
		chromedp.Env("TMPDIR=" + filepath.Join(filepath.Dir(dataDir), "tmp")),
		// A request that escaped the Fetch domain resolves nothing: every
		// host name, the proxy's included, is not found.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"),
		// No proxy from the environment or the system, but one that does
		// not exist, with loopback not bypassed. So a request to an
		// address literal, which no resolver sees, fails too.
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
		// Chromium's own bound on a frame's navigations and history
		// updates (200 in 10 s), which chromedp's defaults turn off. A
		// page flooding them keeps the browser process busy for every
		// tab, after the page is gone.
		chromedp.Flag("disable-ipc-flooding-protection", false),
	}
	// The tests take a network switch away to show that the other alone
	// holds.
	for name := range withoutSwitches {
		all = append(all, chromedp.Flag(name, false))
	}
	return all
}

// withoutSwitches names switches of flags that the tests remove.
var withoutSwitches map[string]bool

// New starts Chromium with a fresh profile in a temporary directory,
// removed by Close. It returns [ErrNotFound] when no Chromium is found.
// ctx bounds the start only; the browser lives until Close. A ctx that is
// done, or ends while Chromium starts, makes New return its error. Then no
// process or directory is left. New also removes the directories that
// Browsers of processes no longer running left behind: a process killed
// by SIGKILL cannot remove its own.
//
// Chromium's sandbox needs a user namespace that is not available to
// root. So a process running as root starts Chromium with --no-sandbox,
// and only then. The page's scripts then run without the sandbox's second
// wall, behind the first: a renderer process that reaches the network
// only through the Fetch domain, which safefetch answers.
func New(ctx context.Context, opts *Options) (*Browser, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("browser: starting: %w", err)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Tabs = positiveOr(o.Tabs, DefaultTabs)
	o.Timeout = positiveOr(o.Timeout, DefaultTimeout)
	o.MaxRequests = positiveOr(o.MaxRequests, DefaultMaxRequests)
	o.MaxHTMLBytes = positiveOr(o.MaxHTMLBytes, DefaultMaxHTMLBytes)
	o.MaxRendererMemory = positiveOr(o.MaxRendererMemory, DefaultMaxRendererMemory)
	path, err := findChromium(o.ExecPath)
	if err != nil {
		return nil, err
	}
	removeOrphans(os.TempDir())
	b := &Browser{opts: o, path: path, tabs: make(chan struct{}, o.Tabs), stop: make(chan struct{})}
	in, err := b.start(ctx)
	if err != nil {
		return nil, err
	}
	b.inst = in
	return b, nil
}

// positiveOr returns v when it is above zero, and def otherwise: an
// option of zero or below takes its default.
func positiveOr[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// dirPrefix names the directories of Browsers: dirPrefix, the pid of the
// process that made it, "-", a random suffix.
const dirPrefix = "agentweb-chromium-"

// start runs Chromium once.
func (b *Browser) start(ctx context.Context) (*instance, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("browser: starting: %w", err)
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("browser: profile directory: %w", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o700); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("browser: profile directory: %w", err)
	}
	in := &instance{dir: dir, killed: map[int]int64{}}
	all := append(chromedp.DefaultExecAllocatorOptions[:], flags(filepath.Join(dir, "profile"))...)
	all = append(all, chromedp.ExecPath(b.path), chromedp.CombinedOutput(io.Discard), chromedp.ModifyCmdFunc(in.interpose))
	if os.Geteuid() == 0 {
		all = append(all, chromedp.NoSandbox)
	}
	// The instance's life hangs on parent: cancelling it stops the process
	// whatever state the start is in. chromedp's own cancel functions wait
	// for a browser that may never have been allocated.
	parent, cancel := context.WithCancel(context.Background())
	allocCtx, allocCancel := chromedp.NewExecAllocator(parent, all...)
	quiet := func(string, ...any) {}
	browserCtx, _ := chromedp.NewContext(allocCtx,
		chromedp.WithBrowserOption(chromedp.WithBrowserErrorf(quiet), chromedp.WithBrowserLogf(quiet)))
	in.cancel, in.allocCancel, in.ctx = cancel, allocCancel, browserCtx

	startCtx, stopStart := context.WithTimeout(ctx, startTimeout)
	defer stopStart()
	var version string
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
			version = productName(v.Product)
		}
		started <- err
	}()
	select {
	case err = <-started:
	case <-startCtx.Done():
		err = startCtx.Err()
		cancel()
		<-started // ends once parent is cancelled
	}
	if in.childW != nil {
		// Chromium has its copy, or never started.
		_ = in.childW.Close()
	}
	if err == nil {
		if c := chromedp.FromContext(browserCtx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
			in.pid = c.Browser.Process().Pid
		} else {
			err = errors.New("no browser process")
		}
	}
	if err != nil {
		in.watchDone = make(chan struct{})
		close(in.watchDone)
		_ = in.stop()
		return nil, fmt.Errorf("browser: starting %s: %w", b.path, err)
	}
	if version != "" {
		b.version = version
	}
	in.watchDone = make(chan struct{})
	go in.watch(b.opts.MaxRendererMemory)
	return in, nil
}

// alive reports whether the instance's Chromium still answers.
func (in *instance) alive() bool { return in.ctx.Err() == nil }

// stop kills the instance's process tree and removes its directory; it
// waits until both are gone. It is safe to call more than once.
func (in *instance) stop() error {
	var err error
	in.stopOnce.Do(func() {
		in.cancel()
		in.allocCancel() // waits until the browser process has exited
		<-in.watchDone
		// Chromium's children (zygote, renderers, utility processes) can
		// outlive the browser process by a moment.
		killLeftovers(in.dir)
		if e := os.RemoveAll(in.dir); e != nil {
			err = fmt.Errorf("browser: close: %w", e)
		}
	})
	return err
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
// started, and removes its directory. It is safe to call more than once; a
// Render after Close returns [ErrClosed].
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
	b.instMu.Lock()
	defer b.instMu.Unlock()
	var err error
	if b.inst != nil {
		err = b.inst.stop()
	}
	b.closing.Wait()
	return err
}

// MaxRestarts bounds the times a Browser starts Chromium again after it
// died, in a row without a page rendered between.
const MaxRestarts = 3

// ErrDied is returned by [Browser.Render] when Chromium died and was
// already restarted [MaxRestarts] times in a row.
var ErrDied = errors.New("browser: Chromium died and was restarted too many times in a row")

// instance returns the running Chromium, starting another when the last one
// died; note says so.
func (b *Browser) instance(ctx context.Context) (in *instance, note string, err error) {
	b.instMu.Lock()
	defer b.instMu.Unlock()
	if b.inst != nil && b.inst.alive() {
		return b.inst, "", nil
	}
	if b.restarts >= MaxRestarts {
		return nil, "", ErrDied
	}
	if b.inst != nil {
		_ = b.inst.stop()
		b.inst = nil
	}
	b.restarts++
	in, err = b.start(ctx)
	if err != nil {
		return nil, "", err
	}
	b.inst = in
	return in, fmt.Sprintf("Chromium had stopped and was started again for this page (restart %d of at most %d in a row)", b.restarts, MaxRestarts), nil
}

// rendered notes a page rendered: the restarts in a row start again from 0.
func (b *Browser) rendered() {
	b.instMu.Lock()
	b.restarts = 0
	b.instMu.Unlock()
}
