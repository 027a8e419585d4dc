package readiness

func init() {
	register(checkDef{id: "a2a_agent_card", run: checkA2AAgentCard})
}

// checkA2AAgentCard: the optional A2A agent card at
// /.well-known/agent-card.json, a JSON object with a name, a skills array
// and supportedInterfaces (A2A 1.0) or a url.
func checkA2AAgentCard(s *scan) outcome {
	f := s.get(s.resolve("/.well-known/agent-card.json"), "")
	m, found, problems := jsonObject(f)
	if m != nil {
		if str(m["name"]) == "" {
			problems = append(problems, "no name")
		}
		if _, ok := m["skills"].([]any); !ok {
			problems = append(problems, "no skills array")
		}
		if _, ok := m["supportedInterfaces"].([]any); !ok && str(m["url"]) == "" {
			problems = append(problems, "no supportedInterfaces (A2A 1.0) or url")
		}
	}
	return convention(f, found, "an A2A agent card", problems)
}
