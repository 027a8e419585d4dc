// Package browser renders pages in the system's Chromium for the readiness
// scanner: a [Browser] is a [readiness.Renderer]. It drives Chromium over the
// Chrome DevTools Protocol with github.com/chromedp/chromedp.
//
// # What it sees that the static scan does not
//
// The static scan reads a page's HTML and the text of every script it loads,
// and never runs them. A rendering runs them: the DOM they build (an app
// shell's content and forms) and the WebMCP tools Chromium actually
// registered, declarative (a form's toolname) and imperative
// (document.modelContext.registerTool), with their names, descriptions and
// input schemas, found whatever the code looks like (a tool registered
// under a computed name, or by a script that another script loads, is found
// by no text search). It is what Lighthouse's agentic-browsing audits and
// Cloudflare's isitagentready WebMCP check read, through the DevTools
// protocol's WebMCP domain (WebMCP.toolsAdded).
//
// # Nothing but safefetch opens a connection
//
// The DevTools Fetch domain pauses the requests of the page's tab at the
// request stage: its documents and iframes, scripts, XHR and fetch,
// EventSource, images, stylesheets, fonts and media, form submissions, link
// prefetches, and the requests of its dedicated workers. Each is answered
// by the scan's safefetch client, charged to its budget, or refused
// (safefetch refuses an intranet address, the budget, a bound; the
// renderer refuses every method but GET and HEAD and every resource type
// but documents, scripts, XHR, fetch and event streams).
//
// The Fetch domain does not see every request Chromium can make. These go
// past it: WebSocket and WebSocketStream connections, speculation rules'
// prefetch and prerender, a shared worker's requests, a service worker's
// script, keepalive fetches and beacons sent as the tab closes, FedCM,
// preconnects and DNS prefetches, and Chromium's own background requests.
// Chromium is started so that they go nowhere, by two switches of which
// each alone suffices (the tests run without each in turn, and see
// connections arrive only without both): every host name resolves to
// nothing (--host-resolver-rules="MAP * ~NOTFOUND", address literals
// included), and every request goes to a proxy that does not exist,
// loopback included (--proxy-server, --proxy-bypass-list=<-loopback>), so
// no proxy comes from the environment. QUIC, WebRTC's direct UDP,
// background networking, component updates, pings and DNS prefetch are
// off; site isolation is off, so that the page's Fetch domain pauses the
// requests of its iframes too. A script run before the page's own, in
// every frame, removes what a page needs to try: service workers cannot
// register, shared workers and WebRTC are absent, window.open returns
// nothing; each is fixed on its prototype or the global, unwritable, so a
// call through the prototype or from another frame's realm gets the same.
//
// Each page gets a browser context of its own (a fresh profile: no cookie,
// storage or cache of another page), disposed of when the page is done.
// Downloads are denied, permission prompts denied, dialogs dismissed,
// popups and window.open refused, and a navigation of the page to another
// origin is refused. One browser serves many scans, at most
// [Options].Tabs pages at once.
//
// # What a hostile page meets
//
// A page chosen by a stranger is bounded in time, in Chromium's memory and
// in this process's:
//
//   - Time: Render returns within [Options].Timeout plus [DeadlineMargin].
//     At the deadline the tab's renderer process (the one that appeared
//     when the tab opened) is killed, then the tab closed; a tab whose
//     close hangs, or a browser process that does not answer within a
//     second of it, has Chromium itself stopped, and the next page starts
//     another. The next page always gets a fresh tab. Chromium's IPC
//     flooding protection stays on, and history.pushState, replaceState
//     and document.modelContext.registerTool stop after 100, 100 and 1,000
//     calls a page, so a flood of them does not keep the browser process
//     busy for the other tabs.
//   - Chromium's memory: the JavaScript heap is bounded at 256 MiB
//     (--max-old-space-size), and a watchdog reads every renderer's
//     resident memory every 50 ms and kills one over
//     [Options].MaxRendererMemory (array buffers, WebAssembly memory,
//     canvases); a renderer that fills memory as fast as it can was killed
//     within 50 MiB past its bound in the tests (which allow 128). This
//     kill stands for an operating-system limit: RLIMIT_AS is unusable with
//     V8's address-space reservations, and a cgroup per renderer needs
//     privileges and cgroup v2, which a scanner cannot count on.
//   - This process's memory: chromedp's Runtime, Log, Network, DOM and CSS
//     domains are turned off in every tab (console messages, exceptions
//     and responses never cross); the DOM snapshot is serialised and cut
//     to MaxHTMLBytes in an isolated world of the renderer, where the
//     page's scripts cannot change what serialises it; and every DevTools
//     message is read within [MaxMessageBytes] (see there). In the tests,
//     pages sending 16 MiB console messages, exceptions, request bodies and
//     tool descriptions grew the Go heap by at most 25 MiB (the tests
//     allow 48).
//   - Tools: a tool that cannot be read (a description holding a lone
//     surrogate, say) is skipped alone, and the rendering's Notes say so.
//   - A dead Chromium (killed for its memory by the system, say) is
//     started again for the next page, at most [MaxRestarts] times in a
//     row without a page rendered between; the rendering's Notes say so.
//   - Directories: Chromium's profile and temporary files live in one
//     directory, removed by Close; one that a process killed by SIGKILL
//     or SIGTERM left is removed by the next [New].
//
// # What a site can learn about the scanner
//
// A site can tell that this scanner is rendering it, and serve it other
// content than it serves people: its scripts see HeadlessChrome in
// navigator.userAgent, navigator.webdriver set, SwiftShader as the WebGL
// renderer and the host's CPU count; and every request the page
// makes reaches the site with the User-Agent of the scan's safefetch
// client (agentweb/0 by default), not Chromium's. To tell whether a site
// does, scan it with and without the browser, or with another User-Agent,
// and compare.
//
// # Installing Chromium
//
// On Debian and Ubuntu: apt-get install chromium. [New] looks for chromium,
// chromium-browser, google-chrome and google-chrome-stable on PATH, or runs
// [Options].ExecPath. Chromium 156 or later is needed for WebMCP (New
// passes --enable-blink-features=WebMCP; only document.modelContext is
// exposed).
//
// # What it costs
//
// One Chromium process tree for the Browser's life, and per page a tab, a
// few requests more than the static scan (the scripts, XHR and fetch the
// page makes; images, stylesheets, fonts and media are never fetched) and
// the time the page takes to load and settle: the package's benchmarks
// measure a rendered scan beside a static one of the same site, and
// Chromium's memory over batches of 50 and 150 sites. On a loaded 2-core
// machine a rendered scan of a small site took about 1.2 s against 12 ms
// static, Chromium's process tree about 0.4 GiB (proportional set size) at
// its peak, and 0.50 and 0.54 GiB over batches of 50 and 150 sites with
// one browser: flat with the number of sites. A batch of 50 sites of which
// 10 are hostile pages (floods, memory hogs, pages that send this process
// large messages) took 51 s against 29 s for its 40 harmless ones alone,
// with 5 s deadlines and two tabs, every harmless site rendered: within
// the 40 harmless ones plus 10 deadlines (109 s).
package browser
