package safefetch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

// TestDocCommentsLinkTheDefaults holds each default of [safefetch.Options]
// to one statement, its constant. The package's comments link the constant
// and never restate its value, so none drifts the day a constant changes.
func TestDocCommentsLinkTheDefaults(t *testing.T) {
	restated := []string{
		fmt.Sprintf("%d MiB", safefetch.DefaultMaxBodyBytes>>20),
		fmt.Sprintf("%d KiB", safefetch.DefaultMaxHeaderBytes>>10),
		fmt.Sprintf("%d s ", int(safefetch.DefaultTimeout.Seconds())),
		fmt.Sprintf("%d s)", int(safefetch.DefaultTimeout.Seconds())),
		fmt.Sprintf("%d s,", int(safefetch.DefaultTimeout.Seconds())),
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	read := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		read++
		text := lineComments(string(b))
		for _, r := range restated {
			assert.NotContains(t, text, r, "%s restates a default; link its constant instead", f)
		}
	}
	require.NotZero(t, read, "no source file read")
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	for _, link := range []string{"[DefaultMaxBodyBytes]", "[DefaultMaxHeaderBytes]", "[DefaultTimeout]"} {
		assert.Contains(t, lineComments(string(doc)), link)
	}
}

var lineComment = regexp.MustCompile(`(?m)^\s*// ?(.*)$`)

// lineComments joins the text of a file's line comments with spaces, so a
// phrase reads the same wherever its lines wrap.
func lineComments(src string) string {
	var words []string
	for _, m := range lineComment.FindAllStringSubmatch(src, -1) {
		words = append(words, strings.Fields(m[1])...)
	}
	return strings.Join(words, " ") + " "
}
