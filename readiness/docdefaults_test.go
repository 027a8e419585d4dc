package readiness

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocCommentsStateTheDefaultBudget holds the default budget to one
// statement, on its constants. Options.Budget's doc and the package doc link
// the constants; no comment of the package restates their numbers, so none
// drifts the day a constant changes.
func TestDocCommentsStateTheDefaultBudget(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"engine.go", "Each zero field takes its default: [DefaultAttempts], [DefaultConcurrency], [DefaultTotalBytes] and [DefaultTimeout]."},
		{"engine.go", "0 means [DefaultMaxBodyBytes]."},
		{"engine.go", "0 means [DefaultMaxPages];"},
		{"doc.go", "charged to one budget, by default [DefaultAttempts] and the bounds beside it."},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(tc.file)
			require.NoError(t, err)
			assert.Contains(t, commentText(string(b)), tc.want)
		})
	}
	restated := []string{
		fmt.Sprintf("%d attempts", DefaultAttempts),
		fmt.Sprintf("%d HTTP attempts", DefaultAttempts),
		fmt.Sprintf("%d in flight", DefaultConcurrency),
		fmt.Sprintf("%d concurrent", DefaultConcurrency),
		fmt.Sprintf("%d MiB in all", DefaultTotalBytes>>20),
		fmt.Sprintf("%d MiB of bodies", DefaultTotalBytes>>20),
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		text := commentText(string(b))
		for _, r := range restated {
			assert.NotContains(t, text, r, "%s restates a default; link its constant instead", f)
		}
	}
}

var commentLine = regexp.MustCompile(`(?m)^\s*// ?(.*)$`)

// commentText joins the text of a file's line comments with spaces, so a
// sentence reads the same wherever its lines wrap.
func commentText(src string) string {
	var words []string
	for _, m := range commentLine.FindAllStringSubmatch(src, -1) {
		words = append(words, strings.Fields(m[1])...)
	}
	return strings.Join(words, " ")
}
