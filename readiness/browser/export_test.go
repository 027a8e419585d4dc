package browser

// WithoutSwitches makes the Browsers started from now on run without the
// named Chromium switches (proxy-server, host-resolver-rules), until undo.
func WithoutSwitches(names ...string) (undo func()) {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	withoutSwitches = m
	return func() { withoutSwitches = nil }
}

// Floods are pages that keep Chromium busy past any deadline.
var Floods = floods
