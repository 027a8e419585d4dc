package readiness

import (
	"fmt"
	"strings"
)

func init() {
	register(checkDef{id: "identity_node", needs: []resource{resPage, resPages}, run: checkIdentityNode})
}

// checkIdentityNode: the node that says who the site is (an Organization, one
// of its subtypes, or a Person) has name, url, and logo or sameAs
// (the check catalogue, Understand). Identity is scored apart from freshness
// (the agent-readiness scoring method, §07).
func checkIdentityNode(s *scan) outcome {
	ld, out, ok := s.pageJSONLD()
	if !ok {
		return out
	}
	best, bestN, bestMissing := "", -1, []string(nil)
	for _, n := range ld.Nodes {
		if !n.Is(identityTypes) {
			continue
		}
		var missing []string
		if !n.Has("name") {
			missing = append(missing, "name")
		}
		if !n.Has("url") {
			missing = append(missing, "url")
		}
		if !n.Has("logo") && !n.Has("sameAs") {
			missing = append(missing, "logo or sameAs")
		}
		if have := 3 - len(missing); have > bestN {
			best, bestN, bestMissing = strings.Join(n.Types, ","), have, missing
		}
	}
	switch {
	case bestN < 0:
		out.verdict, out.received = VerdictFail, "no identity node (Organization or Person) in JSON-LD"
	case bestN == 3:
		out.verdict, out.received = VerdictPass, "a node of type "+best+" with name, url, and logo or sameAs"
	case bestN > 0:
		out.verdict, out.received = VerdictPartial, fmt.Sprintf("a node of type %s without %s", best, strings.Join(bestMissing, ", "))
	default:
		out.verdict, out.received = VerdictFail, "a node of type "+best+" with none of name, url, logo, sameAs"
	}
	return out
}
