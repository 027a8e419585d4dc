// Package browser renders pages in the system's Chromium for the readiness
// scanner. A [Browser] is a [readiness.Renderer]. It drives Chromium over
// the Chrome DevTools Protocol with github.com/chromedp/chromedp.
//
// # What it sees that the static scan does not
//
// The static scan reads a page's HTML and the text of every script it
// loads, and never runs them. A rendering runs them. It sees the DOM they
// build (an app shell's content and forms). It sees the WebMCP tools
// Chromium actually registered, with their names, descriptions and input
// schemas. A tool is declarative (a form's toolname) or imperative
// (document.modelContext.registerTool). It is found whatever the code looks
// like: no text search finds a tool registered under a computed name, or
// by a script that another script loads. Lighthouse's agentic-browsing
// audits and Cloudflare's isitagentready WebMCP check read the same. They
// use the DevTools protocol's WebMCP domain (WebMCP.toolsAdded).
//
// # Nothing but safefetch opens a connection
//
// The DevTools Fetch domain pauses the requests of the page's tab at the
// request stage. These are its documents and iframes, scripts, XHR and
// fetch, EventSource, images, stylesheets, fonts and media, form
// submissions, link prefetches, and the requests of its dedicated workers.
// The scan's safefetch client answers each, charged to its budget, or it
// is refused. Safefetch refuses an intranet address, the budget, a bound.
// The renderer refuses every method but GET and HEAD. It also refuses every
// resource type but documents, scripts, XHR, fetch and event streams.
//
// The Fetch domain does not see every request Chromium can make. These go
// past it: WebSocket and WebSocketStream connections, speculation rules'
// prefetch and prerender, a shared worker's requests, a service worker's
// script, keepalive fetches and beacons sent as the tab closes, FedCM,
// preconnects and DNS prefetches, and Chromium's own background requests.
// Chromium is started so that they go nowhere, by two switches. Each alone
// suffices: the tests run without each in turn, and see connections arrive
// only without both.
//   - Every host name resolves to nothing, address literals included
//     (--host-resolver-rules="MAP * ~NOTFOUND").
//   - Every request goes to a proxy that does not exist, loopback included
//     (--proxy-server, --proxy-bypass-list=<-loopback>). So no proxy comes
//     from the environment.
//
// QUIC, WebRTC's direct UDP, background networking, component updates,
// pings and DNS prefetch are off. Site isolation is off, so that the
// page's Fetch domain pauses the requests of its iframes too. A script runs
// before the page's own, in every frame, and removes what a page needs to
// try. Service workers cannot register. Shared workers and WebRTC are
// absent. window.open returns nothing. Each is fixed on its prototype or
// the global, unwritable. A call through the prototype or from another
// frame's realm gets the same.
//
// Each page gets a browser context of its own: a fresh profile, with no
// cookie, storage or cache of another page. It is disposed of when the
// page is done. Downloads and permission prompts are denied, and dialogs
// dismissed. Popups, window.open and a navigation of the page to another
// origin are refused. One browser serves many scans, at most
// [Options].Tabs pages at once.
//
// # What a hostile page meets
//
// A page chosen by a stranger is bounded in time, in Chromium's memory and
// in this process's:
//
//   - Time: Render returns within [Options].Timeout plus [DeadlineMargin].
//     At the deadline the tab's renderer process is killed, then the tab
//     closed. That renderer is the one that appeared when the tab opened.
//     A tab whose close hangs has Chromium itself stopped. So does a
//     browser process that does not answer within a second of the close.
//     The next page starts another Chromium, and always gets a fresh tab.
//     Chromium's IPC flooding protection stays on. history.pushState and
//     replaceState stop after 100 calls a page, and
//     document.modelContext.registerTool after 1,000. So a flood of them
//     does not keep the browser process busy for the other tabs.
//   - Chromium's memory: the JavaScript heap is bounded at 256 MiB
//     (--max-old-space-size). A watchdog reads every renderer's resident
//     memory and kills one over [Options].MaxRendererMemory. That bound
//     holds for array buffers, WebAssembly memory and canvases too. This
//     kill stands for an operating-system limit. RLIMIT_AS is unusable
//     with V8's address-space reservations. A cgroup per renderer needs
//     privileges and cgroup v2, which a scanner cannot count on.
//   - This process's memory: chromedp's Runtime, Log, Network, DOM and CSS
//     domains are turned off in every tab. So console messages, exceptions
//     and responses never cross. The DOM snapshot is serialised and cut to
//     [Options].MaxHTMLBytes in an isolated world of the renderer. There
//     the page's scripts cannot change what serialises it. Every DevTools
//     message is read within [MaxMessageBytes]. The tests hold the Go
//     heap's growth under 48 MiB while pages send 16 MiB console messages,
//     exceptions, request bodies and tool descriptions.
//   - Tools: a tool that cannot be read (a description holding a lone
//     surrogate, say) is skipped alone. The rendering's Notes say so. A
//     tool is kept with a name, description and script URL of at most
//     16 KiB each, cut past it, and an input schema of at most 16 KiB.
//   - A dead Chromium (killed for its memory by the system, say) is started
//     again for the next page. This happens at most [MaxRestarts] times in
//     a row without a page rendered between. The rendering's Notes say so.
//   - Directories: Chromium's profile and temporary files live in one
//     directory, removed by Close. A process killed by SIGKILL or SIGTERM
//     leaves its directory behind; the next [New] removes it.
//
// # What a site can learn about the scanner
//
// A site can tell that this scanner is rendering it, and serve it other
// content than it serves people. Its scripts see HeadlessChrome in
// navigator.userAgent, navigator.webdriver set, SwiftShader as the WebGL
// renderer and the host's CPU count. Every request the page makes reaches
// the site with the User-Agent of the scan's safefetch client, not
// Chromium's (agentweb/0 by default). To tell whether a site does, scan it
// with and without the browser, or with another User-Agent, and compare.
//
// # Installing Chromium
//
// On Debian and Ubuntu: apt-get install chromium. [New] looks for
// chromium, chromium-browser, google-chrome and google-chrome-stable on
// PATH, or runs [Options].ExecPath. WebMCP needs Chromium 156 or later.
// New passes --enable-blink-features=WebMCP; only document.modelContext
// is exposed.
//
// # What it costs
//
// One Chromium process tree for the Browser's life. Per page, a tab and a
// few requests more than the static scan: the scripts, XHR and fetch the
// page makes. Images, stylesheets, fonts and media are never fetched. A
// page also takes the time it needs to load and settle, within
// [Options].Timeout. Chromium's memory is bounded by the number of tabs
// ([Options].Tabs) and by [Options].MaxRendererMemory for each. It does not
// grow with the number of pages rendered. The package's benchmarks measure
// a rendered scan beside a static one of the same site, and Chromium's
// memory over batches of 50 and 150 sites.
package browser
