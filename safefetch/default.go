package safefetch

import (
	"sync"

	"github.com/agentweb/agentweb/internal/testhook"
)

var defaultClient = sync.OnceValue(func() *Client { return New(nil) })

// Default returns the one shared Client with the safe defaults of
// [Options], made on first use. Every package of the module uses it when
// its options leave Client nil, so that their requests share one transport
// and reuse its connections, as net/http's DefaultClient does. It has no
// Budget; give a Client of your own to bound a whole task.
func Default() *Client {
	if c, ok := testhook.DefaultClient().(*Client); ok && c != nil {
		return c
	}
	return defaultClient()
}

// OrDefault returns c, or [Default] when c is nil.
func OrDefault(c *Client) *Client {
	if c == nil {
		return Default()
	}
	return c
}
