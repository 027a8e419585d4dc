package agentsignup

import (
	"errors"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// originOf returns the canonical origin of u: "https://host[:port]", host
// lower-cased and converted to ASCII, default port dropped.
func originOf(u *url.URL) (string, error) {
	if u.Scheme != "https" && u.Scheme != "http" {
		return "", errors.New("agentsignup: origin scheme must be https")
	}
	host, err := idna.Lookup.ToASCII(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."))
	if err != nil || host == "" {
		return "", errors.New("agentsignup: invalid host")
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port := u.Port()
	if port == "" || (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		return u.Scheme + "://" + host, nil
	}
	return u.Scheme + "://" + host + ":" + port, nil
}
