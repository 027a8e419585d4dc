package readiness

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/readiness/agentsjson"
	"github.com/gowebpki/jcs"
)

// maxCardItems bounds how many entries of any one list of a card (and of
// the other documents the scanner reads tolerantly) are read.
const maxCardItems = agentsjson.MaxItems

// card is what the tolerant agents.json reader understood of a capability
// card. The scanner reads cards only through package agentsjson, the reader
// a publisher's card is written with.
type card = agentsjson.Card

// readCard reads an agents.json body as a card. It returns nil, and the
// reader's error, when the body is not a JSON object.
func readCard(body []byte) (*card, error) {
	return agentsjson.Parse(body)
}

// str is v as a string without surrounding white space, or "" when v is not
// a string: a member of white space alone counts as absent. It is not a type
// assertion because of that trim.
func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// list is v as a JSON array of at most maxCardItems members, or nil when v
// is not an array.
func list(v any) []any {
	l, _ := v.([]any)
	if len(l) > maxCardItems {
		l = l[:maxCardItems]
	}
	return l
}

// cardCopy is one of the two agents.json locations as read.
type cardCopy struct {
	f       *fetched
	present bool // a 2xx answer
	value   any
	jsonErr error
	card    *card
}

type cardsRead struct {
	wellKnown, root *cardCopy
}

// cardsRead reads both agents.json locations, once per scan.
func (s *scan) cardsRead() *cardsRead { return readOnce(s, "cards", s.readCards) }

func (s *scan) readCards() *cardsRead {
	read := func(path string) *cardCopy {
		c := &cardCopy{f: s.get(s.resolve(path), "")}
		if !c.f.ok() {
			return c
		}
		mt, _ := c.f.mediaType()
		if mt == "text/html" || looksLikeHTML(c.f.body()) {
			// An HTML page served for every path (a single-page app's
			// fallback) is not a card.
			return c
		}
		c.present = true
		c.value, c.jsonErr = strictjson.Decode(c.f.body())
		if c.jsonErr == nil {
			c.card, _ = readCard(c.f.body())
		}
		return c
	}
	o := &cardsRead{}
	var wg sync.WaitGroup
	wg.Go(func() { o.root = read("/agents.json") })
	o.wellKnown = read("/.well-known/agents.json")
	wg.Wait()
	return o
}

// canonicalJSON returns the RFC 8785 (JCS) bytes of a JSON text, or nil
// when it is not valid JSON.
func canonicalJSON(b []byte) []byte {
	if !json.Valid(b) {
		return nil
	}
	out, err := jcs.Transform(bytes.Clone(b))
	if err != nil {
		return nil
	}
	return out
}
