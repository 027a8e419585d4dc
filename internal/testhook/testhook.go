// Package testhook lets the module's own tests replace what
// safefetch.Default returns, so that a test can prove that the nil-Client
// path of every package reuses one client's connections on a fake
// internet. It is internal: no user of the module can reach it, and nothing
// but a test sets it.
package testhook

import "sync/atomic"

var defaultClient atomic.Value // holds a box

type box struct{ v any }

// SetDefaultClient makes safefetch.Default return c (a *safefetch.Client)
// until the returned function is called, which restores the previous value.
func SetDefaultClient(c any) (restore func()) {
	prev, _ := defaultClient.Load().(box)
	defaultClient.Store(box{c})
	return func() { defaultClient.Store(prev) }
}

// DefaultClient returns the value set by SetDefaultClient, or nil.
func DefaultClient() any {
	b, _ := defaultClient.Load().(box)
	return b.v
}
