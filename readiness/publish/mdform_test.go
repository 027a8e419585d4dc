package publish

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFormMarkdownBounds: a form's description holds the bounds mdform.go
// declares, at most maxFormFields field lines and maxFormText bytes of
// valid UTF-8 for each attribute it quotes.
func TestFormMarkdownBounds(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<form toolname="` + strings.Repeat("é", 300) + `" method="post" action="/x">`)
	for i := range maxFormFields + 8 {
		fmt.Fprintf(&page, `<input name="f%d" placeholder="%s">`, i, strings.Repeat("ab ", 100))
	}
	page.WriteString(`</form>`)
	md, err := newMarkdownConverter().ConvertString(page.String())
	require.NoError(t, err)
	fields, named := 0, false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "- `f"):
			fields++
			_, placeholder, ok := strings.Cut(line, "): ")
			require.True(t, ok, line)
			assert.LessOrEqual(t, len(placeholder), maxFormText)
		case strings.HasPrefix(line, "**Form** `"):
			named = true
			name := strings.Split(line, "`")[1]
			assert.True(t, utf8.ValidString(name), "cut on a character boundary")
			assert.LessOrEqual(t, len(name), maxFormText)
			assert.Greater(t, len(name), maxFormText-2, "cut at the bound, not before")
		}
	}
	assert.True(t, named, "the form's line names its tool:\n%s", md)
	assert.Equal(t, maxFormFields, fields)
}
