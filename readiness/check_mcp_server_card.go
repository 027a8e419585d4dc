package readiness

import (
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
)

func init() {
	register(checkDef{id: "mcp_server_card", run: checkMCPServerCard})
}

// checkMCPServerCard: the optional MCP server card, at SEP-2127's
// /.well-known/mcp/server-card, else /.well-known/mcp.json or
// /.well-known/mcp/server-card.json (SEP-1649). A card found is read
// tolerantly: it should have a name (or serverInfo) and name its endpoint
// (remotes[].url, transport.endpoint, url or endpoint).
func checkMCPServerCard(s *scan) outcome {
	cards := s.serverCards()
	all := make([]*fetched, 0, len(cards))
	for _, c := range cards {
		all = append(all, c.f)
	}
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
				what += " naming " + shorten.Runes(clean(c.endpoint), 120)
			}
			if n := len(list(c.value["remotes"])); n > 0 {
				what += " (" + plural.N(n, "remote", "remotes") + " in remotes[])"
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
	// Absent everywhere, unless one location went unanswered.
	for _, c := range cards {
		if !c.f.answered() {
			out := convention(c.f, false, "", nil)
			out.requests = all
			return out
		}
	}
	out := convention(cards[0].f, false, "", nil)
	out.requests = all
	urls := make([]string, 0, len(all))
	for _, f := range all {
		urls = append(urls, f.url)
	}
	out.received = "absent: none of " + strings.Join(urls, ", ")
	return out
}
