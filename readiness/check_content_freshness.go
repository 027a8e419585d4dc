package readiness

import (
	"fmt"
)

func init() {
	register(checkDef{id: "content_freshness", needs: []resource{resPage, resPages}, run: checkContentFreshness})
}

// checkContentFreshness: CreativeWork-family nodes carry dateModified
// (the check catalogue, Understand). It is asked only of content types that
// define the field, never of Organization, Product, Person or WebSite
// (the agent-readiness scoring method, Section 07, "the right field for each type").
func checkContentFreshness(s *scan) outcome {
	ld, out, ok := s.pageJSONLD()
	if !ok {
		return out
	}
	works, modified, published := 0, 0, 0
	for _, n := range ld.Nodes {
		if !n.Is(creativeWorkTypes) || n.Is(identityTypes) || n.Is(businessTypes) {
			continue
		}
		works++
		switch {
		case n.Has("dateModified"):
			modified++
		case n.Has("datePublished"):
			published++
		}
	}
	switch {
	case works == 0:
		out.verdict, out.received = VerdictNotApplicable, "no CreativeWork-family node in JSON-LD"
	case modified == works:
		out.verdict, out.received = VerdictPass, fmt.Sprintf("all %d CreativeWork-family nodes carry dateModified", works)
	case modified > 0 || published > 0:
		out.verdict = VerdictPartial
		out.received = fmt.Sprintf("%d of %d CreativeWork-family nodes carry dateModified, %d only datePublished", modified, works, published)
	default:
		out.verdict, out.received = VerdictFail, fmt.Sprintf("none of %d CreativeWork-family nodes carries dateModified or datePublished", works)
	}
	return out
}
