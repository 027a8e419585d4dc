package readiness

import (
	"fmt"

	"github.com/agentweb/agentweb/linkset"
)

func init() {
	register(checkDef{id: "api_catalog", run: checkAPICatalog})
}

// checkAPICatalog: the optional RFC 9727 API catalog at
// /.well-known/api-catalog, an RFC 9264 link set read with package linkset.
func checkAPICatalog(s *scan) outcome {
	f := s.get(s.resolve("/.well-known/api-catalog"), "")
	found := f.ok() && !looksLikeHTML(f.body())
	var problems []string
	what := "an RFC 9727 API catalog (RFC 9264 link set)"
	if found {
		d, err := linkset.Parse(f.body())
		problems = problemNotes(err)
		if err == nil && d != nil {
			what = fmt.Sprintf("an RFC 9727 API catalog of %d link context(s)", len(d.Contexts))
		}
	}
	return convention(f, found, what, problems)
}
