package readiness

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/linkset"
)

func init() {
	register(checkDef{id: "knowledge_linkset", run: checkKnowledgeLinkset})
}

// checkKnowledgeLinkset: the optional knowledge linkset at its well-known
// URI, read with linkset.Parse and held to the profile with Document.Check.
func checkKnowledgeLinkset(s *scan) outcome {
	f := s.get(s.resolve(linkset.WellKnownPath), "")
	found := f.ok() && !looksLikeHTML(f.body())
	var problems []string
	what := "a knowledge linkset"
	if found {
		d, err := linkset.Parse(f.body())
		problems = problemNotes(err)
		if err == nil && d != nil {
			for _, p := range d.Check() {
				problems = append(problems, problemNote(p))
			}
			what = fmt.Sprintf("a knowledge linkset of %s", plural.N(len(d.Contexts), "link context", "link contexts"))
		}
	}
	return convention(f, found, what, problems)
}
