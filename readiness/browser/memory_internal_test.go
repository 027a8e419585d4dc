package browser

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/benchratio"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// floods are pages that keep Chromium's browser process or the renderer
// busy past any deadline.
var floods = map[string]string{
	"a fragment navigation flood":        `<script>let i = 0; setInterval(() => { for (let j = 0; j < 200; j++) location.hash = "h" + (i++); }, 0);</script>`,
	"registerTool from a hundred frames": `<script>for (let f = 0; f < 100; f++) { const e = document.createElement("iframe"); document.body.appendChild(e); const w = e.contentWindow; for (let i = 0; i < 1000; i++) { try { w.document.modelContext.registerTool.call(document.modelContext, {name: "t" + f + "_" + i, description: "Tool.", execute() {}}); } catch (x) {} } }</script>`,
	"a busy loop":                        `<script>while (true) {}</script>`,
	"ten thousand timers":                `<script>for (let i = 0; i < 10000; i++) setInterval(() => { const a = []; for (let j = 0; j < 1000; j++) a.push(j); }, 0);</script>`,
	"a pushState flood":                  `<script>let i = 0; setInterval(() => { for (let j = 0; j < 200; j++) history.pushState({}, "", "/p" + (i++)); }, 0);</script>`,
	"100,000 registerTool calls":         `<script>for (let i = 0; i < 100000; i++) { try { document.modelContext.registerTool({name: "t" + i, description: "Tool " + i + ".", execute() {}}); } catch (e) {} }</script>`,
}

// memoryHogs are pages that take memory outside the JavaScript heap, which
// --max-old-space-size does not bound.
var memoryHogs = map[string]string{
	"array buffers from four workers": `<script>
const src = "const keep = []; setInterval(() => { for (let i = 0; i < 4; i++) { const b = new Uint8Array(16 << 20); b.fill(1); keep.push(b); } }, 5);";
for (let i = 0; i < 4; i++) new Worker(URL.createObjectURL(new Blob([src], {type: "text/javascript"})));
</script>`,
	"WebAssembly memory": `<script>
const m = new WebAssembly.Memory({initial: 1, maximum: 65536});
setInterval(() => { const at = m.buffer.byteLength; try { m.grow(512); } catch (e) { return; } new Uint8Array(m.buffer, at).fill(1); }, 5);
</script>`,
	"canvases": `<script>
const keep = [];
setInterval(() => { const c = document.createElement("canvas"); c.width = c.height = 4096; const x = c.getContext("2d"); x.fillStyle = "#" + (keep.length % 9) + "a" + "b"; x.fillRect(0, 0, 4096, 4096); keep.push(c); document.body.appendChild(c); }, 5);
</script>`,
}

// peakByType samples the resident memory of the browser's processes every
// 20 ms until stop, and returns the peak of each process type (renderer,
// gpu-process, utility, browser).
func peakByType(root int) (stop func() map[string]int64) {
	var mu sync.Mutex
	peak := map[string]int64{}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			sample := map[string]int64{"browser": residentBytes(root)}
			for _, pid := range descendants(root, "") {
				cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				typ := "other"
				if _, rest, ok := strings.Cut(string(cmd), "--type="); ok {
					typ, _, _ = strings.Cut(strings.ReplaceAll(rest, "\x00", " "), " ")
				}
				sample[typ] = max(sample[typ], residentBytes(pid))
			}
			mu.Lock()
			for k, v := range sample {
				peak[k] = max(peak[k], v)
			}
			mu.Unlock()
			select {
			case <-t.C:
			case <-done:
				return
			}
		}
	})
	return func() map[string]int64 {
		close(done)
		wg.Wait()
		return peak
	}
}

// A page that takes memory outside the JavaScript heap is stopped at the
// renderer bound. No process of Chromium grows much past
// MaxRendererMemory. The rendering fails saying why, and the next page
// renders.
func TestRendererMemoryStaysUnderItsBound(t *testing.T) {
	needChromium(t)
	skipUnderRace(t)
	const bound = 256 << 20
	b, err := New(context.Background(), &Options{Timeout: 8 * time.Second, Tabs: 1, MaxRendererMemory: bound})
	require.NoError(t, err)
	defer b.Close()
	n := fetchtest.New()
	defer n.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", hogPage(`<h1>Shop</h1><form toolname="find" tooldescription="Find a product."><input name="q"></form>`))
	for name, body := range memoryHogs {
		// A request that takes its time keeps the page from settling
		// before it has taken its memory.
		mux.HandleFunc("/"+strings.ReplaceAll(name, " ", "-"), hogPage(`<h1>Hog</h1>`+body+`<script>fetch("/slow").catch(() => {});</script>`))
	}
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(20 * time.Second):
		case <-r.Context().Done():
		}
	})
	n.Site("shop.example", mux)
	for name := range memoryHogs {
		t.Run(name, func(t *testing.T) {
			stop := peakByType(b.pid())
			_, err := b.Render(context.Background(), "https://shop.example/"+strings.ReplaceAll(name, " ", "-"), n.Client())
			peaks := stop()
			t.Logf("%s: %v; peak MiB by process type: %v", name, err, mib(peaks))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "MiB, over the bound of 256 MiB, and was killed")
			for typ, v := range peaks {
				assert.LessOrEqual(t, v, int64(bound+rendererSlack), "%s peaked at %d MiB", typ, v>>20)
			}
			r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
			require.NoError(t, err, "the next page renders")
			assert.Len(t, r.Tools, 1)
		})
	}
}

// rendererSlack is what a renderer may grow past its bound between two
// readings of the watchdog and its kill, as Options.MaxRendererMemory's
// doc says (128 MiB). On a loaded 2-core machine, a page filling array
// buffers from four workers grew by about 0.5 GiB a second. It gained some
// 30 MiB between two readings, and was killed within 50 MiB past its
// bound.
const rendererSlack = 128 << 20

func mib(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		out[k] = v >> 20
	}
	return out
}

func hogPage(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body>`+body+`</body></html>`)
	}
}

// goHogs are pages that try to make the scanner's own process allocate:
// through the DOM snapshot, console messages, exceptions, big requests and
// big tools.
var goHogs = map[string]string{
	"String.prototype.slice returning 256 MiB": `<p>` + strings.Repeat("text ", 100) + `</p><script>
const big = "x".repeat(256 << 20);
String.prototype.slice = function () { return big; };
String.prototype.substring = function () { return big; };
Object.defineProperty(Element.prototype, "outerHTML", {get() { return big; }});
</script>`,
	"console.log of 16 MiB, eight times": `<script>const s = "y".repeat(16 << 20); for (let i = 0; i < 8; i++) console.log(s + i);</script>`,
	"exceptions of 16 MiB":               `<script>const s = "z".repeat(16 << 20); for (let i = 0; i < 8; i++) setTimeout(() => { throw new Error(s + i); }, 0);</script>`,
	"POSTs of 16 MiB":                    `<script>const s = "p".repeat(16 << 20); for (let i = 0; i < 4; i++) fetch("/api", {method: "POST", body: s}).catch(() => {});</script>`,
	"tools of 16 MiB": `<script>const s = "d".repeat(8 << 20); for (let i = 0; i < 4; i++) { try { document.modelContext.registerTool({name: "big" + i, description: s, inputSchema: {type: "object", description: s}, execute() {}}); } catch (e) {} }
document.modelContext.registerTool({name: "small", description: "A tool of a usual size.", execute() {}});</script>`,
}

// goHeapBound is what the Go heap may grow by while a hostile page renders,
// as documented.
const goHeapBound = 48 << 20

// The scanner's Go heap grows by less than goHeapBound whatever the page
// sends, and the snapshot is the page's own DOM, cut at MaxHTMLBytes.
func TestGoHeapStaysBounded(t *testing.T) {
	needChromium(t)
	skipUnderRace(t)
	b, err := New(context.Background(), &Options{Timeout: 8 * time.Second, Tabs: 1, MaxHTMLBytes: 4096, MaxRendererMemory: 2 << 30})
	require.NoError(t, err)
	defer b.Close()
	n := fetchtest.New()
	defer n.Close()
	mux := http.NewServeMux()
	for name, body := range goHogs {
		mux.HandleFunc("/"+strings.ReplaceAll(name, " ", "-"), hogPage(`<h1>Hog</h1>`+body))
	}
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {})
	n.Site("shop.example", mux)
	for name := range goHogs {
		t.Run(name, func(t *testing.T) {
			stop := benchratio.HeapPeak(5 * time.Millisecond)
			base := stop()
			stop = benchratio.HeapPeak(5 * time.Millisecond)
			r, err := b.Render(context.Background(), "https://shop.example/"+strings.ReplaceAll(name, " ", "-"), n.Client())
			peak := stop()
			grew := int64(peak) - int64(base)
			t.Logf("%s: Go heap grew by %d MiB (%v)", name, grew>>20, err)
			assert.Less(t, grew, int64(goHeapBound))
			if strings.HasPrefix(name, "console") || strings.HasPrefix(name, "exceptions") {
				// The renderer's own work on them may take it past its
				// deadline on a loaded machine; the heap is what counts.
				if err != nil {
					assert.Contains(t, err.Error(), "did not finish within")
					return
				}
			}
			require.NoError(t, err)
			assert.LessOrEqual(t, len(r.HTML), 4096)
			assert.Contains(t, string(r.HTML), "<h1>Hog</h1>", "the page's own DOM")
			switch {
			case strings.HasPrefix(name, "tools"):
				require.Len(t, r.Tools, 1)
				assert.Equal(t, "small", r.Tools[0].Name)
				require.NotEmpty(t, r.Notes)
				assert.Contains(t, r.Notes[0], "4 tools that the browser reported could not be read (over the bound of 4 MiB a DevTools message)")
			case strings.HasPrefix(name, "POST"):
				var refused []string
				for _, q := range r.Requests {
					refused = append(refused, q.Refused)
				}
				assert.Contains(t, refused, "not sent: the request (its URL, headers or body) was over the bound of 4 MiB a DevTools message")
			}
		})
	}
}
