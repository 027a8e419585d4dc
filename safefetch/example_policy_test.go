package safefetch_test

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"

	"github.com/agentweb/agentweb/safefetch"
)

func ExampleCheckURL() {
	for _, u := range []string{
		"https://example.com/.well-known/agentic.json",
		"http://example.com/",
		"https://user@example.com/",
		"https://0x7f.1/",
		"https://169.254.169.254/latest/meta-data/",
	} {
		err := safefetch.CheckURL(u, false)
		var ue *safefetch.URLError
		if errors.As(err, &ue) {
			fmt.Printf("%s: refused (%s)\n", u, ue.Rule)
			continue
		}
		fmt.Printf("%s: ok\n", u)
	}
	// Development mode allows http to loopback only.
	fmt.Println(safefetch.CheckURL("http://localhost:8080/", true) == nil)
	// Output:
	// https://example.com/.well-known/agentic.json: ok
	// http://example.com/: refused (scheme)
	// https://user@example.com/: refused (userinfo)
	// https://0x7f.1/: refused (non-canonical-ip)
	// https://169.254.169.254/latest/meta-data/: refused (address)
	// true
}

func ExampleCheckAddr() {
	for _, s := range []string{"93.184.216.34", "10.0.0.1", "64:ff9b::8.8.8.8", "64:ff9b::a9fe:a9fe", "2002:7f00:1::"} {
		fmt.Println(safefetch.CheckAddr(netip.MustParseAddr(s)))
	}
	// Output:
	// <nil>
	// safefetch: address 10.0.0.1 refused: 10.0.0.0/8 (Private-Use): not globally reachable (RFC 1918)
	// <nil>
	// safefetch: address 64:ff9b::a9fe:a9fe refused: 169.254.0.0/16 (Link Local): NAT64 address in 64:ff9b::/96 (RFC 6052) judged by the IPv4 address it embeds, 169.254.169.254: not globally reachable (RFC 3927)
	// safefetch: address 2002:7f00:1:: refused: 2002::/16 (6to4): global reachability N/A in the registry (it depends on the relayed address), refused (RFC 3056); it embeds IPv4 address 127.0.0.1, itself in 127.0.0.0/8 (Loopback, RFC 1122 §3.2.1.3)
}

func ExampleSameOriginOrWWW() {
	from, _ := url.Parse("https://example.com/.well-known/agentic.json")
	for _, to := range []string{
		"https://www.example.com/.well-known/agentic.json",
		"https://cdn.example.com/agentic.json",
		"https://example.com:8443/agentic.json",
	} {
		u, _ := url.Parse(to)
		fmt.Println(safefetch.SameOriginOrWWW(from, u))
	}
	// Output:
	// <nil>
	// safefetch: redirect from https://example.com to https://cdn.example.com is neither the same origin nor its www counterpart
	// safefetch: redirect from https://example.com to https://example.com:8443 changes the port
}

func ExampleNormalizeURL() {
	for _, u := range []string{
		"HTTPS://Bücher.Example:443/katalog?q=1#top",
		"https://[2606:4700:4700:0:0:0:0:1111]:8443/",
	} {
		n, err := safefetch.NormalizeURL(u, false)
		fmt.Println(n, err)
	}
	// Output:
	// https://xn--bcher-kva.example/katalog?q=1 <nil>
	// https://[2606:4700:4700::1111]:8443/ <nil>
}
