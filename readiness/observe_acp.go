package readiness

func observeACP(s *scan) obsOutcome {
	f := s.obsGet(s.obsResolve("/.well-known/acp.json"), "application/json")
	m, found, problems := jsonObject(f)
	what := "a JSON document"
	if m != nil && len(m) == 0 {
		problems = append(problems, "/: an empty object")
	}
	out := docOutcome(f, found, what, problems, nil)
	out.expected = "a JSON document at /.well-known/acp.json"
	out.meaning = meaning(out.status, "an agent can discover the merchant's Agentic Commerce Protocol endpoints", "an agent cannot discover ACP commerce here")
	return out
}
