package readiness

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocCommentsStateTheDefaultBudget ties the doc comments that state the
// scan's default budget to the constants: the package comment, the
// constants' comment and Options.Budget's comment each name the default
// attempts, concurrency, bytes and time, and fail here the day a constant
// changes without them.
func TestDocCommentsStateTheDefaultBudget(t *testing.T) {
	mib := func(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }
	secs := fmt.Sprintf("%d s", int(DefaultTimeout.Seconds()))
	for _, tc := range []struct{ file, want string }{
		{"engine.go", fmt.Sprintf("Default scan bounds: %s further pages, and a budget of %d HTTP attempts, %d in flight, %s a response, %s in all and %s.",
			[]string{"no", "one", "two", "three"}[DefaultMaxPages], DefaultAttempts, DefaultConcurrency, mib(DefaultMaxBodyBytes), mib(DefaultTotalBytes), secs)},
		{"engine.go", fmt.Sprintf("Each zero field takes its default: %d attempts, %d concurrent, %s of bodies, %s.",
			DefaultAttempts, DefaultConcurrency, mib(DefaultTotalBytes), secs)},
		{"doc.go", fmt.Sprintf("by default %d attempts, %d in flight, %s a response, %s in all and %s.",
			DefaultAttempts, DefaultConcurrency, mib(DefaultMaxBodyBytes), mib(DefaultTotalBytes), secs)},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(tc.file)
			require.NoError(t, err)
			assert.Contains(t, commentText(string(b)), tc.want)
		})
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
