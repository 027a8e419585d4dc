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
	tests := []struct {
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
	}{
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
	type testCase = struct {
		name     string
		page     string
		extra    map[string]http.HandlerFunc
		want     readiness.Verdict
		says     string
		orFailed bool
		alone    bool
		check    func(t *testing.T, n *fetchtest.Network, hits map[string]*atomic.Int64)
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

// A plain listener on loopback, outside the fake internet, that the page
// tries to reach by fetch, <img>, <iframe>, WebSocket, EventSource, a
// beacon, a dedicated worker's fetch and WebSocket, a form's submission and
// a link's prefetch counts no hit: nothing leaves Chromium but through
// the Fetch domain, which safefetch answers (and safefetch refuses
// loopback).
func TestNothingLeavesButThroughSafefetch(t *testing.T) {
	b := newBrowser(t, &browser.Options{Timeout: hostileTimeout})
	var hits atomic.Int64
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	n := fetchtest.New()
	defer n.Close()
	page := fmt.Sprintf(`<!DOCTYPE html><html><body><h1>Shop</h1>%s
<img src="http://%[2]s/img.png"><iframe src="http://%[2]s/frame"></iframe>
<link rel="prefetch" href="http://%[2]s/prefetch"><link rel="stylesheet" href="http://%[2]s/style.css">
<form id="f" action="http://%[2]s/submit" method="post"><input name="x" value="1"></form>
<script>
fetch("http://%[2]s/fetch").catch(() => {});
fetch("http://localhost:%[3]s/fetch").catch(() => {});
navigator.sendBeacon && navigator.sendBeacon("http://%[2]s/beacon", "x");
try { const ws = new WebSocket("ws://%[2]s/ws"); ws.onerror = () => {}; } catch (e) {}
try { const es = new EventSource("http://%[2]s/events"); es.onerror = () => es.close(); } catch (e) {}
try { new Worker(URL.createObjectURL(new Blob(['fetch("http://%[2]s/worker").catch(() => {}); try { new WebSocket("ws://%[2]s/worker-ws"); } catch (e) {}'], {type: "text/javascript"}))); } catch (e) {}
setTimeout(() => document.getElementById("f").submit(), 200);
</script></body></html>`, prose, addr, addr[strings.LastIndexByte(addr, ':')+1:])
	n.Site("shop.example", htmlPage(page))
	rep, _ := scanRendered(t, b, n)
	c := checkOf(rep, "page_actions_declared")
	assert.Contains(t, c.Receipt.Received, "rendered in")
	time.Sleep(500 * time.Millisecond) // anything that escaped has arrived
	assert.Zero(t, hits.Load(), "requests that reached the loopback listener")
	assert.Zero(t, conns.Load(), "connections the loopback listener accepted")
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
