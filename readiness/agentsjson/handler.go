package agentsjson

import (
	"net/http"

	"github.com/agentweb/agentweb/internal/serve"
)

// The two addresses of the card (the method's Section 05): the well-known URI
// (RFC 8615) and the site root.
const (
	WellKnownPath = "/.well-known/agents.json"
	RootPath      = "/agents.json"
)

// Handler serves c at [WellKnownPath] and [RootPath] from one value. Both
// paths answer the same bytes ([Card.Marshal]), so the twins always agree.
// The answer has Content-Type: application/json and a strong ETag
// (RFC 9110 Section 8.8.3). A matching If-None-Match gets 304 Not Modified
// (RFC 9110 Section 13.1.2). Access-Control-Allow-Origin is *, because a
// card is public and read by agents running in browsers. Cache-Control is
// max-age=3600. GET and HEAD are answered, other methods get 405 with an
// Allow header, and any other path is 404. The card is written once, when
// the handler is built. A card Marshal refuses is an error here, never a
// broken file in production.
//
// [RFC 8615]: https://www.rfc-editor.org/rfc/rfc8615
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
func Handler(c *Card) (http.Handler, error) {
	if c == nil {
		c = &Card{}
	}
	body, err := c.Marshal()
	if err != nil {
		return nil, err
	}
	doc := serve.Handler(serve.Document{
		Body:         body,
		ContentType:  "application/json",
		CacheControl: "max-age=3600",
		Header:       http.Header{"Access-Control-Allow-Origin": {"*"}},
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case WellKnownPath, RootPath:
			doc.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}), nil
}
