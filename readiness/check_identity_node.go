package readiness

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "identity_node", needs: []resource{resPage, resPages}, run: checkIdentityNode})
}

// checkIdentityNode: the node that says who the site is (an Organization, one
// of its subtypes, or a Person) has name, url, and logo or sameAs
// (the check catalogue, Understand). A logo that completes the node alone
// (no sameAs) must answer: a logo URL that answers 404 is no logo. Identity is scored apart from freshness
// (the agent-readiness scoring method, Section 07).
func checkIdentityNode(s *scan) outcome {
	ld, out, ok := s.pageJSONLD()
	if !ok {
		return out
	}
	best, bestN, bestMissing := "", -1, []string(nil)
	var bestNode webread.JSONLDNode
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
			best, bestN, bestMissing, bestNode = strings.Join(n.Types, ","), have, missing, n
		}
	}
	if bestN == 3 && !bestNode.Has("sameAs") {
		// The logo alone makes the node complete: it must be there.
		if u := s.logoURL(bestNode.Members["logo"]); u != "" {
			f := s.get(u, "image/*")
			out.requests = append(out.requests, f)
			switch {
			case !f.answered():
				out.verdict, out.received = VerdictUnverified, "the logo "+shorten.Runes(clean(u), 120)+": "+f.why()
				return out
			case f.status() >= 400:
				out.verdict = VerdictPartial
				out.received = fmt.Sprintf("a node of type %s with name and url, but its logo %s answered %d, and no sameAs", best, shorten.Runes(clean(u), 120), f.status())
				return out
			}
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

// logoURL returns the absolute http(s) URL of a JSON-LD logo value, resolved
// against the page. The value is a URL, an ImageObject with url or contentUrl,
// or a list whose first item is one. It returns "" when there is none.
func (s *scan) logoURL(v any) string {
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			return s.logoURL(x[0])
		}
	case map[string]any:
		if u, ok := x["url"]; ok {
			return s.logoURL(u)
		}
		return s.logoURL(x["contentUrl"])
	case string:
		u, err := s.page.Parse(strings.TrimSpace(x))
		if err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
			return u.String()
		}
	}
	return ""
}
