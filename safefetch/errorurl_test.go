package safefetch_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/agentweb/agentweb/safefetch"
)

// TestErrorsShortenALongURL holds the Error docs of *Error and *URLError:
// a URL past 256 bytes is shortened, on a character boundary, so the
// message stays valid UTF-8. The URL does not parse, so *Error quotes it
// as given instead of re-encoding it.
func TestErrorsShortenALongURL(t *testing.T) {
	long := "https://shop.example/%zz" + strings.Repeat("é", 200)
	for _, err := range []error{
		&safefetch.Error{Method: "GET", URL: long, Err: errors.New("cause")},
		&safefetch.URLError{URL: long, Rule: safefetch.RuleScheme, Reason: "reason"},
	} {
		msg := err.Error()
		assert.True(t, utf8.ValidString(msg), "%T: %q", err, msg)
		assert.Contains(t, msg, "…", "%T", err)
		assert.NotContains(t, msg, long, "%T", err)
		assert.Less(t, len(msg), 256+64, "%T", err)
	}
}

// TestErrorRedactsAPasswordInAURLThatDoesNotParse: *Error quotes such a URL
// as given, its password redacted all the same.
func TestErrorRedactsAPasswordInAURLThatDoesNotParse(t *testing.T) {
	msg := (&safefetch.Error{Method: "GET", URL: "https://user:secret@shop.example/%zz", Err: errors.New("cause")}).Error()
	assert.NotContains(t, msg, "secret")
	assert.Contains(t, msg, "shop.example/%zz")
}
