package readiness

func init() {
	register(checkDef{id: "mcp_server_card", run: checkMCPServerCard})
}

// checkMCPServerCard: the optional MCP server card, at
// /.well-known/mcp.json or /.well-known/mcp/server-card.json. A card found is
// read tolerantly: it should have a name (or serverInfo) and name its
// endpoint (remotes[].url, url or endpoint).
func checkMCPServerCard(s *scan) outcome {
	cards := s.serverCards()
	for _, c := range cards {
		if c.found || c.problem != "" {
			var problems []string
			if c.problem != "" {
				problems = append(problems, c.problem)
			} else {
				if str(c.value["name"]) == "" && c.value["serverInfo"] == nil {
					problems = append(problems, "no name or serverInfo")
				}
				if c.endpoint == "" {
					problems = append(problems, "no endpoint (remotes[].url, url or endpoint)")
				}
			}
			what := "an MCP server card"
			if c.endpoint != "" {
				what += " naming " + truncate(clean(c.endpoint), 120)
			}
			out := convention(c.f, true, what, problems)
			for _, o := range cards {
				if o != c {
					out.requests = append(out.requests, o.f)
				}
			}
			return out
		}
	}
	out := convention(cards[0].f, false, "", nil)
	if cards[0].f.answered() && !cards[1].f.answered() {
		out = convention(cards[1].f, false, "", nil)
	}
	out.requests = []*fetched{cards[0].f, cards[1].f}
	if out.verdict == VerdictOptional {
		out.received = "absent: neither " + cards[0].f.url + " nor " + cards[1].f.url
	}
	return out
}
