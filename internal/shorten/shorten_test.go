package shorten

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestRunesAndBytes: both cut on a character boundary and mark the cut;
// they differ only in what n counts.
func TestRunesAndBytes(t *testing.T) {
	for _, tc := range []struct {
		s            string
		n            int
		runes, bytes string
	}{
		{"", 3, "", ""},
		{"abc", 3, "abc", "abc"},
		{"abcd", 3, "abc…", "abc…"},
		{"aé", 3, "aé", "aé"},     // 2 characters, 3 bytes
		{"aéb", 2, "aé…", "a…"},   // never half of é
		{"éééé", 3, "ééé…", "é…"}, // 8 bytes
		{"abc", 0, "…", "…"},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.s, tc.n), func(t *testing.T) {
			assert.Equal(t, tc.runes, Runes(tc.s, tc.n))
			got := Bytes(tc.s, tc.n)
			assert.Equal(t, tc.bytes, got)
			assert.True(t, utf8.ValidString(got))
		})
	}
}
