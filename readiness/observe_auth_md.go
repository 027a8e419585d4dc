package readiness

import (
	"fmt"
	"strings"
)

func observeAuthMD(s *scan) obsOutcome {
	f := s.obsGet(s.obsResolve("/auth.md"), "text/markdown")
	found := isDocument(f) && !llmsIsHTML(f.body())
	var problems, notes []string
	what := "a Markdown document"
	if found {
		body := string(f.body())
		if !llmsH1.MatchString(body) {
			problems = append(problems, "no H1 line: the text opens with a title line (# auth.md)")
		}
		if mt, _ := f.mediaType(); mt != "text/markdown" && mt != "text/plain" {
			notes = append(notes, fmt.Sprintf("served as %q, not as text/markdown", mt))
		}
		if strings.Contains(body, "oauth-protected-resource") {
			what += " pointing to protected-resource metadata"
		}
	}
	out := docOutcome(f, found, what, problems, notes)
	out.expected = "a Markdown document with an H1 at /auth.md, telling agents how to register"
	out.meaning = meaning(out.status, "an agent can read how to register with the service before it signs in", "an agent has no written account of how to register here")
	return out
}
