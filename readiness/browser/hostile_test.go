package browser_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// hostileTimeout is the page deadline of the hostile tests.
const hostileTimeout = 10 * time.Second

// Hostile pages end within their deadline, the scan's other checks still
// answer, and the Act checks get a verdict (unverified only when the
// rendering itself failed, which the receipt says).
func TestScanHostilePages(t *testing.T) {
	b := newBrowser(t, &browser.Options{Timeout: hostileTimeout, Tabs: 3})
	form := `<form action="/book" method="post" toolname="book_table" tooldescription="Book a table."><input name="d" toolparamdescription="The day."></form>`
	type testCase struct {
		name  string
		page  string
		extra map[string]http.HandlerFunc
		want  readiness.Verdict
		says  string
		// orFailed accepts a rendering that failed within the deadline,
		// as the receipt says, instead of want.
		orFailed bool
		// alone runs the page after the others, not beside them: a
		// thousand frames keep Chromium's browser process busy for
		// seconds, which slows the opening of every other tab.
		alone bool
		check func(t *testing.T, n *fetchtest.Network, hits map[string]*atomic.Int64)
	}
	tests := []testCase{
		{name: "a busy loop", page: prose + `<script>while (true) {}</script>`,
			want: readiness.VerdictUnverified, says: "pages whose rendering failed: https://shop.example/ (browser: reading the DOM"},
		{name: "alert", page: prose + form + `<script>alert("hello"); confirm("sure?"); prompt("name?");</script>`,
			want: readiness.VerdictPass, says: "rendered in"},
		{name: "window.open", page: prose + `<script>window.open("https://shop.example/popup"); window.open("https://evil.example/");</script>`,
			want: readiness.VerdictNotApplicable, says: "no tool registered",
			check: func(t *testing.T, n *fetchtest.Network, hits map[string]*atomic.Int64) {
				assert.Zero(t, hits["/popup"].Load(), "no popup was opened")
			}},
		{name: "navigation away", page: prose + form + `<script>location.href = "https://evil.example/phish";</script>`,
			want: readiness.VerdictPass, says: `"book_table" (declarative`},
		{name: "a thousand iframes", page: prose + `<script>for (let i = 0; i < 1000; i++) { const f = document.createElement("iframe"); f.src = "/frame?" + i; document.body.appendChild(f); }</script>`,
			extra: map[string]http.HandlerFunc{"/frame": htmlPage(`<p>frame</p>`)},
			// On a loaded machine Chromium may not lay out a thousand
			// frames within the deadline: the rendering then fails, and
			// the receipt says so.
			want: readiness.VerdictNotApplicable, says: "", orFailed: true, alone: true,
			check: func(t *testing.T, n *fetchtest.Network, hits map[string]*atomic.Int64) {
				assert.LessOrEqual(t, hits["/frame"].Load(), int64(browser.DefaultMaxRequests), "the renderer's bound on requests held")
			}},
		{name: "a script fetching an intranet address", page: prose + `<script>fetch("https://intranet.example/secret").catch(() => {}); fetch("https://10.0.0.1/").catch(() => {});</script>`,
			want: readiness.VerdictNotApplicable, says: "no tool registered",
			check: func(t *testing.T, n *fetchtest.Network, hits map[string]*atomic.Int64) {
				assert.Zero(t, n.Dials(mustAddr("10.0.0.7")), "the intranet host was never dialled")
			}},
		{name: "a page that never finishes loading", page: prose + form + `<iframe src="/hang"></iframe><script>fetch("/hang?x").catch(() => {});</script>`,
			extra: map[string]http.HandlerFunc{"/hang": func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(200)
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			}},
			want: readiness.VerdictPass, says: `"book_table" (declarative`},
		{name: "a service worker", page: prose + `<script>navigator.serviceWorker && navigator.serviceWorker.register("/sw.js").catch(() => {});</script>`,
			extra: map[string]http.HandlerFunc{"/sw.js": jsFile(`self.addEventListener("fetch", e => {});`)},
			want:  readiness.VerdictNotApplicable, says: "no tool registered",
			check: func(t *testing.T, n *fetchtest.Network, hits map[string]*atomic.Int64) {
				assert.Zero(t, hits["/sw.js"].Load(), "no service worker was fetched")
			}},
		{name: "a WebSocket", page: prose + `<script>try { const s = new WebSocket("wss://shop.example/ws"); s.onerror = () => {}; } catch (e) {}</script>`,
			extra: map[string]http.HandlerFunc{"/ws": htmlPage("")},
			want:  readiness.VerdictNotApplicable, says: "no tool registered",
			check: func(t *testing.T, n *fetchtest.Network, hits map[string]*atomic.Int64) {
				assert.Zero(t, hits["/ws"].Load(), "the WebSocket never reached the site")
			}},
	}
	run := func(t *testing.T, tc testCase) {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.alone {
				t.Parallel()
			}
			n := fetchtest.New()
			defer n.Close()
			n.Host("intranet.example", "10.0.0.7")
			hits := map[string]*atomic.Int64{}
			mux := http.NewServeMux()
			mux.HandleFunc("/{$}", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+tc.page+`</body></html>`))
			for _, p := range []string{"/popup", "/frame", "/hang", "/sw.js", "/ws"} {
				hits[p] = &atomic.Int64{}
				h := tc.extra[p]
				if h == nil {
					h = htmlPage("<p>other</p>")
				}
				mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) { hits[p].Add(1); h(w, r) })
			}
			n.Site("shop.example", mux)
			n.Site("evil.example", htmlPage(`<form toolname="steal" tooldescription="x"></form>`))
			rep, took := scanRendered(t, b, n)
			assert.Less(t, took, hostileTimeout+15*time.Second, "the scan ends within the page's deadline and the scan's own work")
			c := checkOf(rep, "page_actions_declared")
			if tc.orFailed && c.Verdict == readiness.VerdictUnverified {
				assert.Contains(t, c.Receipt.Received, "pages whose rendering failed: https://shop.example/")
			} else {
				assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
				assert.Contains(t, c.Receipt.Received, tc.says, "%q", c.Receipt.Notes)
			}
			for _, id := range []string{"llms_txt", "sitemap", "language_and_canonical", "page_metadata"} {
				assert.NotEqual(t, readiness.VerdictUnverified, checkOf(rep, id).Verdict, "%s still answers", id)
			}
			if tc.check != nil {
				tc.check(t, n, hits)
			}
		})
	}
	t.Run("beside each other", func(t *testing.T) {
		for _, tc := range tests {
			if !tc.alone {
				run(t, tc)
			}
		}
	})
	for _, tc := range tests {
		if tc.alone {
			run(t, tc)
		}
	}
}

// listeners are plain HTTP servers on loopback, outside the fake internet,
// that count every connection they accept.
type listeners struct {
	addrs []string // host:port of each
	conns atomic.Int64
	hits  atomic.Int64
	close func()
	mu    sync.Mutex
	paths []string
}

func listen(t *testing.T) *listeners {
	t.Helper()
	l := &listeners{}
	var closers []func()
	for _, host := range []string{"127.0.0.1", "127.0.0.2", "[::1]"} {
		ln, err := net.Listen("tcp", host+":0")
		if err != nil {
			continue // no such address here
		}
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			l.hits.Add(1)
			l.mu.Lock()
			l.paths = append(l.paths, r.URL.Path)
			l.mu.Unlock()
		}))
		srv.Listener.Close()
		srv.Listener = ln
		srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
			if s == http.StateNew {
				l.conns.Add(1)
			}
		}
		srv.Start()
		closers = append(closers, srv.Close)
		l.addrs = append(l.addrs, ln.Addr().String())
	}
	require.NotEmpty(t, l.addrs)
	l.close = func() {
		for _, c := range closers {
			c()
		}
	}
	return l
}

// escapePage is a page that tries to reach addr by every kind of request a
// page can make, those the Fetch domain pauses and those it does not. It
// tries fetch, <img>, <iframe>, a stylesheet, a link's prefetch, a
// preconnect and a DNS prefetch. It tries speculation rules' prefetch and
// prerender, a WebSocket and a WebSocketStream, an EventSource, a beacon.
// It sends a keepalive fetch and a beacon as the tab closes. It tries a
// dedicated worker's fetch and WebSocket, a shared worker's fetch, a
// service worker registered through the prototype, FedCM, and a form's
// submission.
func escapePage(addr string) string {
	port := addr[strings.LastIndexByte(addr, ':')+1:]
	return fmt.Sprintf(`<!DOCTYPE html><html><head>
<link rel="preconnect" href="http://%[1]s"><link rel="dns-prefetch" href="http://%[1]s">
<link rel="prefetch" href="http://%[1]s/prefetch"><link rel="stylesheet" href="http://%[1]s/style.css">
<script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["http://%[1]s/spec-prefetch"]}], "prerender": [{"source": "list", "urls": ["http://%[1]s/spec-prerender"]}]}</script>
</head><body><h1>Shop</h1>%[3]s
<img src="http://%[1]s/img.png"><iframe src="http://%[1]s/frame"></iframe>
<form id="f" action="http://%[1]s/submit" method="post"><input name="x" value="1"></form>
<script>
fetch("http://%[1]s/fetch").catch(() => {});
fetch("http://localhost:%[2]s/fetch").catch(() => {});
navigator.sendBeacon && navigator.sendBeacon("http://%[1]s/beacon", "x");
try { const ws = new WebSocket("ws://%[1]s/ws"); ws.onerror = () => {}; } catch (e) {}
try { new WebSocketStream("ws://%[1]s/wss").opened.catch(() => {}); } catch (e) {}
try { const es = new EventSource("http://%[1]s/events"); es.onerror = () => es.close(); } catch (e) {}
try { new Worker(URL.createObjectURL(new Blob(['fetch("http://%[1]s/worker").catch(() => {}); try { new WebSocket("ws://%[1]s/worker-ws"); } catch (e) {}'], {type: "text/javascript"}))); } catch (e) {}
try { new SharedWorker(URL.createObjectURL(new Blob(['fetch("http://%[1]s/shared").catch(() => {});'], {type: "text/javascript"}))); } catch (e) {}
try { ServiceWorkerContainer.prototype.register.call(navigator.serviceWorker, "/sw.js").catch(() => {}); } catch (e) {}
try { navigator.credentials.get({identity: {providers: [{configURL: "http://%[1]s/fedcm.json", clientId: "x"}]}}).catch(() => {}); } catch (e) {}
addEventListener("pagehide", () => { fetch("http://%[1]s/keepalive", {keepalive: true}).catch(() => {}); navigator.sendBeacon("http://%[1]s/beacon-at-close", "x"); });
setTimeout(() => document.getElementById("f").submit(), 200);
</script></body></html>`, addr, port, prose)
}

// Listeners on loopback, outside the fake internet, count no connection
// while the page tries to reach them by every kind of request. Nothing
// leaves Chromium but through the Fetch domain, which safefetch answers
// (and safefetch refuses loopback). What the Fetch domain does not see
// goes nowhere, with either network switch alone: WebSockets, speculation
// rules, shared and service workers, keepalive requests at the tab's
// close, FedCM, preconnects. Without both, connections arrive: the test
// sees an escape.
func TestNothingLeavesButThroughSafefetch(t *testing.T) {
	needBrowser(t)
	for _, tc := range []struct {
		name    string
		without []string
		escapes bool
	}{
		{name: "both switches"},
		{name: "the resolver rule alone", without: []string{"proxy-server", "proxy-bypass-list"}},
		{name: "the proxy alone", without: []string{"host-resolver-rules"}},
		{name: "neither switch", without: []string{"proxy-server", "proxy-bypass-list", "host-resolver-rules"}, escapes: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			undo := browser.WithoutSwitches(tc.without...)
			b := newBrowser(t, &browser.Options{Timeout: hostileTimeout})
			undo()
			l := listen(t)
			defer l.close()
			n := fetchtest.New()
			defer n.Close()
			var sw atomic.Int64
			mux := http.NewServeMux()
			mux.HandleFunc("/{$}", htmlPage(escapePage(l.addrs[len(l.addrs)-1])))
			for i, a := range l.addrs {
				mux.HandleFunc(fmt.Sprintf("/p%d", i), htmlPage(escapePage(a)))
			}
			mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
				sw.Add(1)
				jsFile(`fetch("http://`+l.addrs[0]+`/sw-fetch")`)(w, r)
			})
			n.Site("shop.example", mux)
			rep, _ := scanRendered(t, b, n)
			assert.Contains(t, checkOf(rep, "page_actions_declared").Receipt.Received, "rendered in")
			for i := range l.addrs {
				_, err := b.Render(context.Background(), fmt.Sprintf("https://shop.example/p%d", i), n.Client())
				assert.NoError(t, err)
			}
			time.Sleep(time.Second) // anything that escaped has arrived
			l.mu.Lock()
			t.Logf("%d connections, requests for %q", l.conns.Load(), l.paths)
			l.mu.Unlock()
			if tc.escapes {
				assert.Positive(t, l.conns.Load(), "without both switches, connections reach the listeners")
				return
			}
			assert.Zero(t, l.hits.Load(), "requests that reached the loopback listeners")
			assert.Zero(t, l.conns.Load(), "connections the loopback listeners accepted")
			assert.Zero(t, sw.Load(), "the service worker's script was never fetched")
		})
	}
}

// The guards hold against calls through a prototype and from another
// frame's realm: a service worker cannot register, window.open returns
// null, WebRTC and shared workers are absent.
func TestTheGuardsHoldAgainstPrototypeCalls(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	var sw atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", htmlPage(`<body><script>
const out = [];
const note = p => p.then(() => "registered", e => e.name);
const f = document.createElement("iframe"); document.body.appendChild(f);
const other = f.contentWindow;
Promise.all([
  note(navigator.serviceWorker.register("/sw.js")),
  note(ServiceWorkerContainer.prototype.register.call(navigator.serviceWorker, "/sw.js")),
  note(other.ServiceWorkerContainer.prototype.register.call(navigator.serviceWorker, "/sw.js")),
]).then(sw => {
  let open; try { window.open = () => "reassigned"; } catch (e) {}
  open = [window.open("/x"), other.open("/x"), Window.prototype.open ? Window.prototype.open.call(window, "/x") : null].map(String).join("-");
  const name = ["sw", ...sw, "open", open, typeof RTCPeerConnection, typeof other.RTCPeerConnection, typeof SharedWorker].join("-");
  document.modelContext.registerTool({name: name.replace(/[^A-Za-z0-9_-]/g, "_"), description: "What the page could do.", execute() {}});
});
</script></body>`))
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) { sw.Add(1); jsFile(``)(w, r) })
	n.Site("shop.example", mux)
	assert.Equal(t, "sw-NotAllowedError-NotAllowedError-NotAllowedError-open-null-null-null-undefined-undefined-undefined", renderToolName(t, b, n, "/"))
	assert.Zero(t, sw.Load(), "no service worker script was fetched")
}

// A rendering's requests are charged to the scan's budget: the scan's
// attempts grow by what the browser fetched.
func TestRenderChargesTheScanBudget(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", htmlPage(`<!DOCTYPE html><html><body><h1>Shop</h1>`+prose+`<script>fetch("/a");fetch("/b");fetch("/c");</script></body></html>`))
	for _, p := range []string{"/a", "/b", "/c"} {
		mux.HandleFunc(p, jsFile("{}"))
	}
	n.Site("shop.example", mux)
	static, err := readiness.Scan(context.Background(), "https://shop.example/", &readiness.Options{Client: n.Client(), MaxPages: -1})
	require.NoError(t, err)
	rendered, _ := scanRendered(t, b, n)
	// The rendering fetched the page and its three requests.
	assert.Equal(t, static.Scope.Budget.Attempts+4, rendered.Scope.Budget.Attempts)
	// and the default budget grew by what a page's rendering may use.
	assert.Equal(t, readiness.DefaultAttempts+readiness.DefaultRenderAttempts, rendered.Scope.Budget.MaxAttempts)
	assert.Equal(t, browser.DefaultMaxRequests, readiness.DefaultRenderAttempts, "a page's rendering fits what the budget grew by")
}

func TestRenderAfterCloseAndNotFound(t *testing.T) {
	needBrowser(t)
	_, err := browser.New(context.Background(), &browser.Options{ExecPath: "/nonexistent/chromium"})
	assert.ErrorIs(t, err, browser.ErrNotFound)
	b, err := browser.New(context.Background(), nil)
	require.NoError(t, err)
	require.NoError(t, b.Close())
	require.NoError(t, b.Close(), "Close twice is safe")
	_, err = b.Render(context.Background(), "https://shop.example/", nil)
	assert.ErrorIs(t, err, browser.ErrClosed)
}

// Close ends the renderings in flight, as its doc says: a Render waiting
// on a page that would take the whole Timeout returns soon after Close.
func TestCloseEndsRendersInFlight(t *testing.T) {
	needBrowser(t)
	b, err := browser.New(context.Background(), &browser.Options{Timeout: 15 * time.Second})
	require.NoError(t, err)
	n := fetchtest.New()
	defer n.Close()
	asked := make(chan struct{}, 1)
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case asked <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-time.After(15 * time.Second):
		}
	}))
	done := make(chan error, 1)
	go func() {
		_, err := b.Render(context.Background(), "https://shop.example/", n.Client())
		done <- err
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("the page was never asked for")
	}
	start := time.Now()
	require.NoError(t, b.Close())
	select {
	case err := <-done:
		assert.Error(t, err, "a rendering ended by Close is no rendering")
	case <-time.After(browser.DeadlineMargin):
		t.Fatal("Render did not return after Close")
	}
	assert.Less(t, time.Since(start), 5*time.Second, "Close returned soon, not after the page's Timeout")
}

// A page that redirects to another origin before it lands (apex to www) is
// followed, and rendered where it landed; afterwards, navigation to
// another origin is refused.
func TestRenderFollowsTheLandingRedirect(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", http.RedirectHandler("https://www.shop.example/", http.StatusMovedPermanently))
	n.Site("www.shop.example", htmlPage(`<!DOCTYPE html><html><body><h1>Shop</h1><form toolname="find" tooldescription="Find a product."><input name="q2" toolparamdescription="What."></form></body></html>`))
	r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
	require.NoError(t, err)
	assert.Equal(t, "https://www.shop.example/", r.URL)
	require.Len(t, r.Tools, 1)
	assert.True(t, r.Tools[0].Declarative)
	assert.Equal(t, "find", r.Tools[0].Name)
}

// renderToolName renders the page at path on n and returns the name of
// the one tool it registered: the pages below name their tool after what
// they observed.
func renderToolName(t *testing.T, b *browser.Browser, n *fetchtest.Network, path string) string {
	t.Helper()
	r, err := b.Render(context.Background(), "https://shop.example"+path, n.Client())
	require.NoError(t, err)
	require.Len(t, r.Tools, 1, "%+v", r.Requests)
	return r.Tools[0].Name
}

// No cookie or storage survives a page; a permission prompt is denied; a
// download is refused; WebRTC is absent and window.open returns null.
func TestRenderKeepsNoStateAndGrantsNothing(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	// Tool names are restricted to letters, digits, _ and -.
	register := `function tool(name) { document.modelContext.registerTool({name: String(name).replace(/[^A-Za-z0-9_-]/g, "_"), description: "What the page saw.", execute() {}}); }`
	mux := http.NewServeMux()
	mux.HandleFunc("/write", htmlPage(`<script>`+register+`try { document.cookie = "k=v; path=/"; localStorage.setItem("k", "v"); sessionStorage.setItem("k", "v"); tool("wrote-" + document.cookie); } catch (e) { tool("error-" + e); }</script>`))
	mux.HandleFunc("/read", htmlPage(`<script>`+register+`tool("read-" + document.cookie + "-" + localStorage.getItem("k") + "-" + sessionStorage.getItem("k"));</script>`))
	mux.HandleFunc("/rtc", htmlPage(`<script>`+register+`tool("rtc-" + typeof RTCPeerConnection + "-" + typeof window.open("https://shop.example/x"));</script>`))
	mux.HandleFunc("/where", htmlPage(`<script>`+register+`navigator.geolocation.getCurrentPosition(() => tool("granted"), e => tool("denied-" + e.code));</script>`))
	mux.HandleFunc("/download", htmlPage(`<body><script>`+register+`const a = document.createElement("a"); a.href = "/file.bin"; a.download = "agentweb-test.bin"; document.body.appendChild(a); a.click(); tool("clicked");</script>`))
	mux.HandleFunc("/file.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="agentweb-test.bin"`)
		fmt.Fprint(w, "payload")
	})
	n.Site("shop.example", mux)
	assert.Equal(t, "wrote-k_v", renderToolName(t, b, n, "/write"), "the page itself may keep state while it runs")
	assert.Equal(t, "read--null-null", renderToolName(t, b, n, "/read"), "nothing survives into the next page")
	assert.Equal(t, "denied-1", renderToolName(t, b, n, "/where"), "PERMISSION_DENIED")
	assert.Equal(t, "rtc-undefined-object", renderToolName(t, b, n, "/rtc"), "no WebRTC; window.open returns null")
	assert.Equal(t, "clicked", renderToolName(t, b, n, "/download"))
	home, _ := os.UserHomeDir()
	for _, dir := range []string{filepath.Join(home, "Downloads"), home, os.TempDir()} {
		_, err := os.Stat(filepath.Join(dir, "agentweb-test.bin"))
		assert.True(t, os.IsNotExist(err), "no download in %s", dir)
	}
}
