package readinesstest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/readiness/readinesstest"
)

// recorder is a testing.TB that records a failure instead of failing: the
// way to test what a test helper reports. Everything else goes to the
// real test it wraps.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = true
	r.msg = fmt.Sprintf(format, args...)
}

const teaText = `<p>We sell loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in
Vienna and shipped within the European Union in two working days. Every tea is tasted before it is listed.</p>`

func pages() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Tea Shop</title></head><body><h1>Tea Shop</h1>`+teaText+`</body></html>`)
	})
	return mux
}

func kitSite(t *testing.T) http.Handler {
	site := publish.Site{
		Origin: "https://tea.example", Name: "Tea Shop", Language: "en",
		Description: "Loose-leaf tea from small gardens, shipped within the EU.",
		Contact:     publish.Contact{Email: "people@tea.example"},
		Pages:       []publish.Page{{Path: "/", Title: "Tea Shop", Description: "What we sell."}},
	}
	h, err := site.Handler(pages())
	require.NoError(t, err)
	return h
}

func TestKitSiteIsReady(t *testing.T) {
	r := readinesstest.Scan(t, kitSite(t), "https://tea.example", nil)
	require.NotNil(t, r)
	assert.Equal(t, "https://tea.example/", r.Site)
	readinesstest.Require(t, r, readinesstest.Want{Ready: true, Score: 90, Requirements: []string{"R1", "R4"}, Pass: []string{"llms_txt", "sitemap"}})
	rec := &recorder{TB: t}
	readinesstest.Require(rec, r, readinesstest.Want{Ready: true, Score: 90})
	assert.False(t, rec.failed, rec.msg)
}

func TestZeroWantAsksNothing(t *testing.T) {
	r := readinesstest.Scan(t, pages(), "https://plain.example/", nil)
	rec := &recorder{TB: t}
	readinesstest.Require(rec, r, readinesstest.Want{})
	assert.False(t, rec.failed, rec.msg)
	assert.False(t, r.Ready)
}

// A bare site falls short: the message lists the score against the wanted
// one, each unmet requirement, each check that should have passed, and
// then the whole fix-first list with each fix's points.
func TestBrokenSiteListsEveryShortfall(t *testing.T) {
	r := readinesstest.Scan(t, pages(), "https://plain.example/", nil)
	rec := &recorder{TB: t}
	readinesstest.Require(rec, r, readinesstest.Want{Score: 90, Ready: true, Requirements: []string{"R1", "R3", "R4", "R11"}, Pass: []string{"llms_txt", "no_such_check"}})
	require.True(t, rec.failed)
	msg := rec.msg
	t.Log(msg)
	assert.Contains(t, msg, "readinesstest: https://plain.example/ falls short")
	assert.Contains(t, msg, fmt.Sprintf("score %.1f, want at least 90.0", r.Score))
	assert.Contains(t, msg, "  - not ready, want ready\n")
	assert.Equal(t, 1, strings.Count(msg, "R3 not met"), "listed once though asked twice")
	assert.Contains(t, msg, "R3 not met (fail): sitemap: fail")
	assert.Contains(t, msg, "R4 not met (fail): llms_txt: fail")
	assert.NotContains(t, msg, "R1 not met", "R1 is met by the page's text")
	assert.Contains(t, msg, "R11: no such requirement")
	assert.Contains(t, msg, "llms_txt is fail, want pass")
	assert.Contains(t, msg, "no_such_check: no such check")
	// The fix-first list after the shortfalls, every entry with its points.
	_, fixes, ok := strings.Cut(msg, "fix first (the fix that adds the most points first):\n")
	require.True(t, ok)
	require.NotEmpty(t, r.Fixes)
	for i, f := range r.Fixes {
		assert.Contains(t, fixes, fmt.Sprintf("  %d. +%.1f %s", i+1, f.Points, f.Check))
	}
	assert.Less(t, strings.Index(msg, "R4 not met"), strings.Index(msg, "fix first"))
}

func TestScanRefusesABadOrigin(t *testing.T) {
	for _, origin := range []string{"http://tea.example", "tea.example", "https://user@tea.example/", "https://"} {
		rec := &recorder{TB: t}
		r := readinesstest.Scan(rec, pages(), origin, nil)
		assert.Nil(t, r, origin)
		assert.True(t, rec.failed, origin)
		assert.Contains(t, rec.msg, "is not an https URL", origin)
	}
	// The fake internet serves DNS names on the default port: a port or an
	// IP literal is refused with a message, never a panic.
	for origin, says := range map[string]string{
		"https://tea.example:8443/": "has a port", "https://127.0.0.1/": "is an IP address", "https://[::1]/": "IPv6 literal",
	} {
		rec := &recorder{TB: t}
		assert.Nil(t, readinesstest.Scan(rec, pages(), origin, nil), origin)
		assert.Contains(t, rec.msg, says, origin)
	}
	rec := &recorder{TB: t}
	assert.Nil(t, readinesstest.Scan(rec, pages(), "https://tea.example", nil, readinesstest.WithHost("cdn.example:444", pages())))
	assert.Contains(t, rec.msg, `WithHost("cdn.example:444")`)
	// A host safefetch would refuse is refused here, with the reason.
	for _, origin := range []string{"https://127.1/", "https://a_b.example/", "https://-tea.example/"} {
		rec := &recorder{TB: t}
		assert.Nil(t, readinesstest.Scan(rec, pages(), origin, nil), origin)
		assert.Contains(t, rec.msg, "is not a host name", origin)
	}
}

// An origin with an IDN, or capitals, is served at the name the scan asks
// for: the host's A-label form in lower case.
func TestScanNormalizesTheHost(t *testing.T) {
	for origin, site := range map[string]string{
		"https://thé.example":  "https://xn--th-cja.example/",
		"https://Tea.Example/": "https://tea.example/",
	} {
		r := readinesstest.Scan(t, pages(), origin, nil, readinesstest.WithHost("cdn.thé.example", pages()))
		require.NotNil(t, r, origin)
		assert.Equal(t, site, r.Site, origin)
		assert.Greater(t, r.Score, 0.0, "the pages were read: %s", origin)
	}
}

// The scan's error fails the test: here the test's context is done
// before the scan starts.
func TestScanFailsWhenTheScanCannotRun(t *testing.T) {
	rec := &doneRecorder{recorder{TB: t}}
	r := readinesstest.Scan(rec, pages(), "https://tea.example", nil)
	assert.Nil(t, r)
	assert.True(t, rec.failed)
	assert.Contains(t, rec.msg, "readinesstest: the scan of https://tea.example/ could not run: ")
	assert.Contains(t, rec.msg, "context canceled")
}

// doneRecorder is a recorder whose test context is already done.
type doneRecorder struct{ recorder }

func (r *doneRecorder) Context() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// WithHost serves another host on the same fake internet: here the CDN the
// page loads its tool script from. Without it the host does not resolve.
func TestWithHost(t *testing.T) {
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Tea</title></head><body><h1>Tea</h1>`+teaText+
			`<script src="https://cdn.example/tools.js"></script></body></html>`)
	})
	var hits atomic.Int32
	cdn := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `document.modelContext.registerTool({name: "search", description: "Search the teas", execute: async () => ({})});`)
	})
	with := readinesstest.Scan(t, page, "https://tea.example", nil, readinesstest.WithHost("cdn.example", cdn))
	assert.Positive(t, hits.Load(), "the scan read the script from the other host")
	without := readinesstest.Scan(t, page, "https://tea.example", nil)
	verdict := func(r *readiness.Report) readiness.Verdict {
		for _, c := range r.Checks {
			if c.ID == "page_actions_declared" {
				return c.Verdict
			}
		}
		return ""
	}
	assert.Equal(t, readiness.VerdictPass, verdict(with))
	assert.NotEqual(t, readiness.VerdictPass, verdict(without))
}
