package fetchtest_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A site on the fake internet is fetched like a real one: https, no port,
// a verified certificate, and a public-looking remote address.
func Example() {
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "hello from shop.example")
	}))
	n.Host("intranet.example", "10.0.0.7") // a DNS record only

	client := n.Client()
	resp, err := client.Get(context.Background(), "https://shop.example/", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, resp.RemoteAddr, string(resp.Body))
	fmt.Println("requests served:", n.Requests("shop.example"))

	_, err = client.Get(context.Background(), "https://intranet.example/", nil)
	fmt.Println("refused:", err != nil)
	// Output:
	// 200 93.184.215.1:443 hello from shop.example
	// requests served: 1
	// refused: true
}
