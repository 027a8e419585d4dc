package readiness_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// Scanning a list of sites: two sites of one operator are never scanned at
// once (PerHost 1), results arrive as scans finish, and an unusable entry
// is reported, not fatal. Progress is called by one scan at a time, so it
// keeps a plain map, and each event names its site.
func ExampleScanAll() {
	n := fetchtest.New()
	defer n.Close()
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Home</title></head><body><h1>Welcome</h1><p>We sell tea.</p></body></html>`)
	})
	n.Site("tea.example", page)
	n.Site("shop.tea.example", page)
	n.Site("coffee.example", page)

	sites := []string{"https://tea.example/", "https://shop.tea.example/", "https://coffee.example/", "ftp://nowhere.example/"}
	var lines []string
	checked := map[string]int{} // checks finished, by site
	progress := func(e readiness.Event) {
		if e.Kind == readiness.EventKindCheckFinished {
			checked[e.Site]++
		}
	}
	for r := range readiness.ScanAll(context.Background(), slices.Values(sites), &readiness.BatchOptions{
		Options: readiness.Options{Client: n.Client(), Progress: progress},
	}) {
		if r.Err != nil {
			lines = append(lines, fmt.Sprintf("%s: error", r.Site))
			continue
		}
		lines = append(lines, fmt.Sprintf("%s: ready=%t shard %d of 3", r.Site, r.Report.Ready, readiness.Shard(r.Site, 3)))
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Println(readiness.RegistrableDomain("https://shop.tea.example/"))
	fmt.Println(checked["https://coffee.example/"] == len(readiness.Catalogue()))
	// Output:
	// ftp://nowhere.example/: error
	// https://coffee.example/: ready=false shard 2 of 3
	// https://shop.tea.example/: ready=false shard 2 of 3
	// https://tea.example/: ready=false shard 2 of 3
	// tea.example
	// true
}
