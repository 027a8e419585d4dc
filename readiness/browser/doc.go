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
// Every request Chromium makes is paused by the DevTools Fetch domain at the
// request stage and answered by the scan's safefetch client, charged to its
// budget, or failed when safefetch refuses it (an intranet address, the
// budget, a bound). Chromium is started so that a request that escaped
// would go nowhere: every host name resolves to nothing
// (--host-resolver-rules="MAP * ~NOTFOUND"), every request that is not
// answered by the Fetch domain goes to a proxy that does not exist, loopback
// included (--proxy-server, --proxy-bypass-list=<-loopback>), so no proxy
// comes from the environment; QUIC, WebRTC's direct UDP, background
// networking, component updates, pings and DNS prefetch are off; site
// isolation is off, so that the page's Fetch domain pauses the requests of
// its iframes too.
//
// Each page gets a browser context of its own (a fresh profile: no cookie,
// storage or cache of another page), disposed of when the page is done.
// Downloads are denied, permission prompts denied, dialogs dismissed,
// popups and window.open refused, service workers cannot register, and a
// navigation of the page to another origin is refused. Only GET and HEAD
// are sent, and only for documents, scripts, XHR, fetch and event streams.
// Every page has a deadline ([Options].Timeout); one browser serves many
// scans, at most [Options].Tabs pages at once.
//
// Chromium's sandbox is kept, except when the process runs as root, where
// Chromium cannot start with it: New then passes --no-sandbox, and only
// then.
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
// machine a rendered scan of a small site took about 2.2 s against tens of
// milliseconds static, Chromium's process tree about 0.4 GiB (proportional
// set size) at its peak, and 0.50 and 0.54 GiB over batches of 50 and 150
// sites with one browser: flat with the number of sites.
package browser
