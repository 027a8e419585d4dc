package browser

import "testing"

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

// NeedBrowser skips a test unless AGENTWEB_BROWSER=1.
var NeedBrowser = needChromium

// SkipUnderRace skips a test that measures time or memory under -race.
var SkipUnderRace = skipUnderRace

// skipUnderRace skips a test that measures time or memory, which the race
// detector distorts; .ci/run runs these tests without it.
func skipUnderRace(t testing.TB) {
	t.Helper()
	if raceEnabled {
		t.Skip("it measures time or memory, which -race distorts; .ci/run runs it without -race")
	}
}
