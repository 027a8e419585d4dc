// Command fetch fetches one URL through safefetch and prints the evidence (final URL, hops,
// remote address, status, headers, size), or the refusal and exactly why.
//
//	go run ./examples/fetch                        # a show on a fake internet, no network needed
//	go run ./examples/fetch https://example.com/   # a real fetch, public addresses only
//	go run ./examples/fetch -dev http://127.0.0.1:8080/  # development mode: loopback only
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func main() {
	dev := flag.Bool("dev", false, "development mode: also allow http and https to loopback addresses (and only to them for http)")
	flag.Parse()
	switch flag.NArg() {
	case 0:
		demo(os.Stdout)
	case 1:
		if !fetch(os.Stdout, safefetch.New(&safefetch.Options{AllowLoopback: *dev}), flag.Arg(0)) {
			os.Exit(cli.ExitInvalid)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: fetch [-dev] [URL]   (no URL: a show on a fake internet)")
		os.Exit(cli.ExitUsage)
	}
}

// fetch GETs rawURL with c and prints what happened; it reports success.
func fetch(w io.Writer, c *safefetch.Client, rawURL string) bool {
	resp, err := c.Get(context.Background(), rawURL, http.Header{"Accept": {"*/*"}})
	if resp != nil { // on ErrTooLarge too: what the server declared is evidence
		evidence(w, resp)
	}
	if err != nil {
		refusal(w, err)
		return false
	}
	return true
}

func evidence(w io.Writer, r *safefetch.Response) {
	fmt.Fprintf(w, "  declared  %s %s\n", r.Method, r.URL)
	for i, h := range r.Hops {
		fmt.Fprintf(w, "  hop %d     %d %s  (from %s)", i+1, h.StatusCode, h.URL, h.RemoteAddr)
		if h.Location != "" {
			fmt.Fprintf(w, " -> %s", h.Location)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "  final     %d %s from %s\n", r.StatusCode, r.FinalURL, r.RemoteAddr)
	for _, k := range slices.Sorted(maps.Keys(r.Header)) {
		for _, v := range r.Header[k] {
			if len(v) > 80 {
				v = v[:80] + "..."
			}
			fmt.Fprintf(w, "  header    %s: %s\n", k, v)
		}
	}
	if r.Body != nil || r.Method == http.MethodHead {
		fmt.Fprintf(w, "  body      %d bytes in %s\n", len(r.Body), r.Elapsed.Round(time.Millisecond))
	}
}

// sentinels are the refusals a caller can branch on, by name.
var sentinels = []struct {
	name string
	err  error
}{
	{"ErrForbiddenURL", safefetch.ErrForbiddenURL},
	{"ErrForbiddenAddress", safefetch.ErrForbiddenAddress},
	{"ErrDNS", safefetch.ErrDNS},
	{"ErrTooLarge", safefetch.ErrTooLarge},
	{"ErrTooManyRedirects", safefetch.ErrTooManyRedirects},
	{"ErrRedirectRefused", safefetch.ErrRedirectRefused},
	{"ErrBudgetExhausted", safefetch.ErrBudgetExhausted},
	{"ErrTimeout", safefetch.ErrTimeout},
	{"ErrContentEncoding", safefetch.ErrContentEncoding},
}

func refusal(w io.Writer, err error) {
	var matched []string
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			matched = append(matched, "safefetch."+s.name)
		}
	}
	if matched == nil { // the network or the server failed: no rule or bound said no
		fmt.Fprintf(w, "  FAILED    %v\n", err)
		return
	}
	fmt.Fprintf(w, "  REFUSED   %v\n  matches   %s\n", err, strings.Join(matched, ", "))
	var ue *safefetch.URLError
	var ae *safefetch.AddrError
	switch {
	case errors.As(err, &ae):
		fmt.Fprintf(w, "  because   %s of %q is in %s (%s)\n", ae.Addr, ae.Host, ae.Block, ae.Name)
	case errors.As(err, &ue):
		fmt.Fprintf(w, "  because   rule %q: %s\n", ue.Rule, ue.Reason)
	}
}

// demo runs five fetches against a fake internet: real TLS servers on
// loopback behind public-looking addresses, so every check runs unchanged.
func demo(w io.Writer) {
	n := fetchtest.New()
	defer n.Close()
	shop := http.NewServeMux()
	shop.HandleFunc("/agentic.json", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/json")
		fmt.Fprint(rw, `{"name":"Shop"}`)
	})
	shop.Handle("/old", http.RedirectHandler("http://shop.example/agentic.json", http.StatusMovedPermanently))
	shop.HandleFunc("/catalog", func(rw http.ResponseWriter, r *http.Request) {
		rw.Write(make([]byte, 3<<20)) // 3 MiB, over the 1 MiB cap
	})
	n.Site("shop.example", shop)
	n.Site("acme.example", http.RedirectHandler("https://www.acme.example/", http.StatusMovedPermanently))
	n.Site("www.acme.example", http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		fmt.Fprint(rw, "welcome to acme") // served as text/plain; charset=utf-8 (sniffed)
	}))
	n.Host("intranet.example", "93.184.215.200", "10.0.0.7") // one public, one private answer

	c := n.Client().WithRedirectPolicy(safefetch.SameOriginOrWWW)
	for _, step := range []struct{ title, url string }{
		{"a good fetch", "https://shop.example/agentic.json"},
		{"a redirect to the www counterpart (SameOriginOrWWW)", "https://acme.example/"},
		{"a host with a private address among its answers", "https://intranet.example/"},
		{"a redirect that downgrades to http", "https://shop.example/old"},
		{"a body over the 1 MiB cap", "https://shop.example/catalog"},
	} {
		fmt.Fprintf(w, "== %s: GET %s\n", step.title, step.url)
		fetch(w, c, step.url)
		fmt.Fprintln(w)
	}
}
