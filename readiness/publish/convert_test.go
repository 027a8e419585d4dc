package publish_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// hugePage is an HTML page of about 600 KiB (under the client's 1 MiB cap, and small enough for the handler to pool its buffer), which takes html-to-markdown
// far longer than a millisecond to convert.
func hugePage() string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Every tea</title></head><body><main><h1>Every tea</h1>\n")
	for i := 0; b.Len() < 600<<10; i++ {
		fmt.Fprintf(&b, "<section><h2>Tea %d</h2><p>A <em>loose-leaf</em> tea from garden <a href=\"/teas/%d\">%d</a>, picked by hand.</p><ul><li>black</li><li>green</li></ul></section>\n", i, i, i)
	}
	b.WriteString("</main></body></html>")
	return b.String()
}

// A conversion that times out must not read the page buffer the handler
// gives back for the next request to write into. Run with -race: small
// pages are served without pause while conversions are abandoned on the
// huge page, and a conversion that read a pooled buffer races with them.
func TestConversionThatTimesOutOwnsItsPage(t *testing.T) {
	huge := hugePage()
	pages := plainPages().(*http.ServeMux)
	pages.HandleFunc("/everything", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, huge)
	})
	s := teaSite()
	s.ConvertTimeout = time.Millisecond
	h, err := s.Handler(pages)
	require.NoError(t, err)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("tea.example", h)
	c := n.Client()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, p := range []string{"/", "/teas", "/about", "/contact", "/shipping"} {
					resp, err := c.Get(t.Context(), "https://tea.example"+p, nil)
					if assert.NoError(t, err) {
						assert.Equal(t, http.StatusOK, resp.StatusCode)
					}
				}
			}
		})
	}
	for range 5 {
		resp := get(t, c, "https://tea.example/everything", "text/markdown")
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, resp.Header.Get("Content-Type"), "text/html", "a conversion that timed out is served as HTML")
	}
	close(stop)
	wg.Wait()
}
