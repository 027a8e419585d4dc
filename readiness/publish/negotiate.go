package publish

import "github.com/agentweb/agentweb/internal/webread"

// pageForms are the two forms of a page (the agent-readiness scoring
// method, Section 04), HTML first: it is what a request that states no
// preference gets.
var pageForms = []string{"text/html", "text/markdown"}

// prefersMarkdown reports whether an Accept field value prefers
// text/markdown to text/html, by RFC 9110 q-values and specificity, with
// the same parser the scanner judges the answer by.
func prefersMarkdown(accept string) bool {
	return webread.Preferred(accept, pageForms) == "text/markdown"
}
