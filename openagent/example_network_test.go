package openagent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// This example publishes a profile on a fake internet (real TLS on
// loopback), discovers it from a page about the agent, fetches it with the
// identity a listing supplied, and shows that a different identity is an
// error rather than a rename.
func ExampleFetch() {
	n := fetchtest.New()
	defer n.Close()

	p, _ := openagent.Parse([]byte(`{"type":"logicsrc.agent","version":"0.1","name":"Research agent",
		"did":"research.coinpay","owner_did":"operator.coinpay","skills":["research"],"permissions_requested":["web:read"]}`))
	h, _ := openagent.Handler(p, nil)
	mux := http.NewServeMux()
	mux.Handle("/agents/research.json", h)
	mux.HandleFunc("/agents/research", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><head>%s</head></html>", openagent.LinkElement("research.json"))
	})
	n.Site("coinpay.example", mux)

	ctx := context.Background()
	opts := &openagent.FetchOptions{Client: n.Client()}
	d, err := openagent.Discover(ctx, "https://coinpay.example/agents/research", opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	urls := d.URLs()
	fmt.Println(urls)

	opts.ExpectDID = "research.coinpay"
	rec, err := d.Fetch(ctx, urls[0], opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Profile.DID, rec.URL, rec.ETag != "")

	opts.ExpectDID = "research.elsewhere"
	_, err = openagent.Fetch(ctx, urls[0], opts)
	var mismatch *openagent.DIDMismatchError
	if errors.As(err, &mismatch) {
		fmt.Println("expected", mismatch.Expected, "got", mismatch.Got)
	}
	// Output:
	// [https://coinpay.example/agents/research.json]
	// research.coinpay https://coinpay.example/agents/research.json true
	// expected research.elsewhere got research.coinpay
}
