package shorten

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestRunes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ééé", 3, "ééé"},
		{"éééé", 3, "ééé…"},
		{"abc", 0, "…"},
	} {
		assert.Equal(t, tc.want, Runes(tc.s, tc.n), "%q %d", tc.s, tc.n)
	}
}

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"aé", 3, "aé"},  // 3 bytes
		{"aéb", 2, "a…"}, // never half of é
		{"ééé", 4, "éé…"},
		{"abc", 0, "…"},
	} {
		got := Bytes(tc.s, tc.n)
		assert.Equal(t, tc.want, got, "%q %d", tc.s, tc.n)
		assert.True(t, utf8.ValidString(got))
	}
}
