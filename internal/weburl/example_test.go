package weburl_test

import (
	"fmt"
	"net/url"

	"github.com/agentweb/agentweb/internal/weburl"
)

func Example() {
	host, _ := weburl.NormalizeHost("Bücher.Example.")
	fmt.Println(host)

	u, _ := url.Parse("HTTPS://WWW.Example.com:443/path?q=1")
	origin, _ := weburl.Origin(u)
	fmt.Println(origin)

	fmt.Println(weburl.IsWWWCounterpart("example.com", "www.example.com"))
	fmt.Println(weburl.IsWWWCounterpart("co.uk", "www.co.uk"))
	fmt.Println(weburl.IsWWWCounterpart("www.example.com", "www.www.example.com"))

	_, err := weburl.NormalizeHost("0x7f.1")
	fmt.Println(err)
	// Output:
	// xn--bcher-kva.example
	// https://www.example.com
	// true
	// false
	// false
	// weburl: invalid host: "0x7f.1" reads as an IPv4 address but is not a canonical literal
}
