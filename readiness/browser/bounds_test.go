package browser_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// The bounds of Options hold: at most Tabs pages at once, a snapshot of at
// most MaxHTMLBytes; and only GET and HEAD are sent, for the resources a
// rendering needs.
func TestRenderBounds(t *testing.T) {
	b := newBrowser(t, &browser.Options{Tabs: 1, MaxHTMLBytes: 4096})
	n := fetchtest.New()
	defer n.Close()
	var inflight, peak, posts, assets atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		now := inflight.Add(1)
		for {
			p := peak.Load()
			if now <= p || peak.CompareAndSwap(p, now) {
				break
			}
		}
		time.Sleep(300 * time.Millisecond)
		inflight.Add(-1)
		htmlPage(`<h1>Slow</h1>`)(w, r)
	})
	mux.HandleFunc("/big", htmlPage(`<body><p>`+strings.Repeat("x", 20000)+`</p><img src="/i.png"><link rel="stylesheet" href="/s.css">
<script>fetch("/api", {method: "POST", body: "x"}).catch(() => {}); navigator.sendBeacon("/api", "y");</script></body>`))
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			posts.Add(1)
		}
	})
	for _, p := range []string{"/i.png", "/s.css"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) { assets.Add(1) })
	}
	n.Site("shop.example", mux)
	client := n.Client()

	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			_, err := b.Render(context.Background(), "https://shop.example/slow", client)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.Equal(t, int64(1), peak.Load(), "pages rendered at once with Tabs: 1")

	r, err := b.Render(context.Background(), "https://shop.example/big", client)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(r.HTML), 4096, "the snapshot is cut at MaxHTMLBytes")
	assert.Zero(t, posts.Load(), "no request but GET and HEAD is sent")
	assert.Zero(t, assets.Load(), "images and stylesheets are never fetched")
	var refused []string
	for _, q := range r.Requests {
		if q.Refused != "" {
			refused = append(refused, q.Type+" "+q.Method+": "+q.Refused)
		}
	}
	assert.Contains(t, strings.Join(refused, "\n"), "Image GET: not fetched: a rendering does not need it")
	assert.Contains(t, strings.Join(refused, "\n"), "POST: not sent: the renderer sends only GET and HEAD")
}
