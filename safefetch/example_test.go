package safefetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// Fetching through a fake internet: a redirect to the www counterpart is
// followed and recorded, a host with a private address is refused.
func Example() {
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", http.RedirectHandler("https://www.shop.example/", http.StatusMovedPermanently))
	n.Site("www.shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "welcome")
	}))
	n.Host("intranet.example", "192.168.1.10")

	client := n.Client().WithRedirectPolicy(safefetch.SameOriginOrWWW)
	resp, err := client.Get(context.Background(), "https://shop.example/", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("declared:", resp.URL)
	fmt.Println("final:   ", resp.FinalURL, resp.StatusCode, string(resp.Body))
	for _, h := range resp.Hops {
		fmt.Println("hop:     ", h.StatusCode, h.URL, "from", h.RemoteAddr)
	}

	_, err = client.Get(context.Background(), "https://intranet.example/", nil)
	fmt.Println("forbidden address:", errors.Is(err, safefetch.ErrForbiddenAddress))
	// Output:
	// declared: https://shop.example/
	// final:    https://www.shop.example/ 200 welcome
	// hop:      301 https://shop.example/ from 93.184.215.1:443
	// hop:      200 https://www.shop.example/ from 93.184.215.2:443
	// forbidden address: true
}

// A Budget shared by the fetches of one scan, here the Agentic site
// profile's limits, with the attempts lowered to show exhaustion.
func ExampleBudget() {
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "ok")
	}))

	budget := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 2, Bytes: 8 << 20, Concurrency: 5})
	client := n.Client().WithBudget(budget)
	for i := range 3 {
		_, err := client.Get(context.Background(), "https://shop.example/", nil)
		fmt.Println(i, err)
	}
	u := budget.Usage()
	fmt.Println("attempts:", u.Attempts, "bytes:", u.Bytes, "exhausted:", u.Exhausted)
	// Output:
	// 0 <nil>
	// 1 <nil>
	// 2 safefetch: GET https://shop.example/: budget exhausted: attempts (limit 2)
	// attempts: 2 bytes: 4 exhausted: attempts
}

// Libraries that take an *http.Client (the MCP go-sdk's transports, for
// example) get the same pinned, capped, budgeted fetching.
func ExampleClient_HTTPClient() {
	n := fetchtest.New()
	defer n.Close()
	n.Site("mcp.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 2<<20)) // 2 MiB, over the default 1 MiB cap
	}))
	n.Host("metadata.example", "169.254.169.254")

	hc := n.Client().HTTPClient()
	resp, err := hc.Get("https://mcp.example/")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println("too large:", errors.Is(err, safefetch.ErrTooLarge))

	_, err = hc.Get("https://metadata.example/latest/")
	fmt.Println("forbidden address:", errors.Is(err, safefetch.ErrForbiddenAddress))
	// Output:
	// too large: true
	// forbidden address: true
}
