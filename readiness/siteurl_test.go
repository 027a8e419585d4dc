package readiness

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// poorSite is a deliberately poor site: three HTML pages that link to each
// other by absolute URL, and nothing else (every well-known file is 404).
func poorSite() http.Handler {
	page := func(title string) string {
		return fmt.Sprintf(`<!doctype html><html lang="en"><head><title>%[1]s</title></head><body>
<h1>%[1]s</h1><p>A small shop that sells tea. This page says a little about it, enough to be read as a page and not an app shell.</p>
<nav><a href="https://shop.example/">Home</a> <a href="https://shop.example/about">About</a> <a href="https://shop.example/contact">Contact</a> <a href="https://Shop.Example.:443/about#team">Team</a></nav>
</body></html>`, title)
	}
	pages := map[string]string{"/": page("Tea shop"), "/about": page("About the tea shop"), "/contact": page("Contact the tea shop")}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	})
}

func TestScanSameSiteURLSpellingsScoreTheSame(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", poorSite())
	o := n.Options()
	o.Timeout = 5 * time.Second
	client := safefetch.New(o)
	fixed := func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

	ref, err := Scan(context.Background(), "https://shop.example/", &Options{Client: client, Now: fixed})
	require.NoError(t, err)
	require.Len(t, ref.Scope.Routes, 3, "the reference spelling reads the page and its two linked routes, the one written two ways once")

	for _, site := range []string{
		"https://shop.example:443/",
		"https://SHOP.example./",
		"HTTPS://Shop.Example:443",
		"https://shop.example.:443/#top",
	} {
		t.Run(site, func(t *testing.T) {
			r, err := Scan(context.Background(), site, &Options{Client: client, Now: fixed})
			require.NoError(t, err)
			assert.Equal(t, "https://shop.example/", r.Site, "the report states the normalized URL")
			assert.Equal(t, ref.Scope.Routes, r.Scope.Routes)
			assert.Equal(t, ref.Score, r.Score)
			for i := range ref.Checks {
				assert.Equal(t, ref.Checks[i].Verdict, r.Checks[i].Verdict, ref.Checks[i].ID)
			}
		})
	}
}
