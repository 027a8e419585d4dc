package safefetch

import "sync"

// defaultClient makes the shared Client on first use. A test of this
// package may replace it (export_test.go); nothing else does.
var defaultClient = sync.OnceValue(func() *Client { return New(nil) })

// Default returns the one shared Client with the safe defaults of
// [Options], made on first use. Every package of the module uses it when
// its options leave Client nil, so that their requests share one transport
// and reuse its connections, as net/http's DefaultClient does. It has no
// Budget; give a Client of your own to bound a whole task.
func Default() *Client {
	return defaultClient()
}

// OrDefault returns c, or [Default] when c is nil.
func OrDefault(c *Client) *Client {
	if c == nil {
		return Default()
	}
	return c
}
