package readiness

import "github.com/agentweb/agentweb/internal/shorten"

func observeUCP(s *scan) obsOutcome {
	f := s.obsGet(s.obsResolve("/.well-known/ucp"), "application/json")
	m, found, problems := jsonObject(f)
	what := "a JSON document"
	if m != nil {
		u, ok := m["ucp"].(map[string]any)
		if !ok {
			problems = append(problems, `/ucp: no "ucp" object`)
		} else {
			if v := str(u["version"]); v == "" {
				problems = append(problems, "/ucp/version: missing")
			} else {
				what += " of UCP version " + shorten.Runes(clean(v), 40)
			}
			if _, ok := u["services"].(map[string]any); !ok {
				problems = append(problems, "/ucp/services: not an object")
			}
			if u["capabilities"] == nil {
				problems = append(problems, "/ucp/capabilities: missing")
			}
		}
	}
	out := docOutcome(f, found, what, problems, nil)
	out.expected = `a JSON profile at /.well-known/ucp whose "ucp" object names its version, services and capabilities`
	out.meaning = meaning(out.status, "a purchasing agent can find the store's checkout and capabilities", "an agent cannot discover UCP commerce here")
	return out
}
