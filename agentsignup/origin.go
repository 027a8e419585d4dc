package agentsignup

import (
	"net/url"

	"github.com/agentweb/agentweb/internal/weburl"
)

// originOf returns the canonical origin of u: "scheme://host[:port]", host
// lower-cased and converted to ASCII (IDNA), default port dropped.
func originOf(u *url.URL) (string, error) {
	return weburl.Origin(u)
}
