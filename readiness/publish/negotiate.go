package publish

import "strings"

// prefersMarkdown reports whether an Accept field value prefers
// text/markdown to text/html.
func prefersMarkdown(accept string) bool {
	return strings.Contains(accept, "text/markdown")
}
