package readiness

import "github.com/agentweb/agentweb/openagent"

func init() {
	register(checkDef{id: "openagent_profile", run: checkOpenAgentProfile})
}

// checkOpenAgentProfile: the optional OpenAgent 0.1 profile at its
// well-known path, validated with openagent.Parse.
func checkOpenAgentProfile(s *scan) outcome {
	f := s.get(s.resolve(openagent.WellKnownPath), "")
	found := f.ok() && !looksLikeHTML(f.body())
	var problems []string
	what := "an OpenAgent profile"
	if found {
		p, err := openagent.Parse(f.body())
		problems = problemNotes(err)
		if err == nil && p != nil {
			what = "an OpenAgent " + openagent.Version + " profile"
		}
	}
	return convention(f, found, what, problems)
}
