package readiness

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"

	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "structured_business_data", needs: []resource{resPage, resPages}, run: checkStructuredBusinessData})
}

// pageJSONLD reads the JSON-LD of every page the scan read as HTML, for the
// Understand checks. Structured data is a fact about the site: R7, "the site
// publishes structured business or product metadata" (the agent-readiness
// scoring method, Section 03). So a Product block on the product page counts as
// much as one on the start page. The receipt names every route read (Section
// 07, "findings state their scope"). The given page alone decides whether there
// is anything to judge. When there is not, it returns a finished outcome.
func (s *scan) pageJSONLD() (webread.JSONLD, outcome, bool) {
	pages, skipped := s.pagesRead()
	p := pages[0]
	out := outcome{requests: []*fetched{p.f}}
	if !p.f.answered() {
		out.verdict, out.received = VerdictUnverified, p.f.why()
		return webread.JSONLD{}, out, false
	}
	if !p.readable() {
		mt, _ := p.f.mediaType()
		out.verdict, out.received = VerdictFail, fmt.Sprintf("the page answered %d %s, not an HTML page", p.f.status(), mt)
		return webread.JSONLD{}, out, false
	}
	var ld webread.JSONLD
	out.requests = out.requests[:0]
	for _, p := range pages {
		one := p.ld
		ld.Blocks += one.Blocks
		for _, e := range one.ParseErrs {
			ld.ParseErrs = append(ld.ParseErrs, "on "+p.url+" does not parse: "+e)
		}
		ld.Nodes = append(ld.Nodes, one.Nodes[:min(len(one.Nodes), webread.MaxJSONLDNodes-len(ld.Nodes))]...)
		out.requests = append(out.requests, p.f)
		out.scope = append(out.scope, p.url)
	}
	out.notes = append(out.notes, "read from "+plural.N(len(pages), "page", "pages"))
	for _, p := range skipped {
		out.notes = append(out.notes, "route "+p.url+" not read: "+p.f.why())
	}
	return ld, out, true
}

// checkStructuredBusinessData: R7, structured business or product metadata
// (the check catalogue, Understand): a JSON-LD node of a business or product
// type with name and url, and every block parsing.
func checkStructuredBusinessData(s *scan) outcome {
	ld, out, ok := s.pageJSONLD()
	if !ok {
		return out
	}
	if ld.Blocks == 0 {
		out.verdict, out.received = VerdictFail, "no JSON-LD"
		return out
	}
	for _, e := range ld.ParseErrs {
		out.notes = append(out.notes, "a JSON-LD block "+shorten.Runes(clean(e), 300))
	}
	var complete, incomplete []string
	for _, n := range ld.Nodes {
		if !n.Is(businessTypes) {
			continue
		}
		t := strings.Join(n.Types, ",")
		if n.Has("name") && n.Has("url") {
			complete = append(complete, t)
		} else {
			incomplete = append(incomplete, t)
		}
	}
	switch {
	case len(complete) > 0 && len(ld.ParseErrs) == 0:
		out.verdict, out.received = VerdictPass, "a node of type "+complete[0]+" with name and url"
	case len(complete) > 0:
		out.verdict = VerdictPartial
		out.received = fmt.Sprintf("a node of type %s with name and url, but %d of %d JSON-LD blocks do not parse", complete[0], len(ld.ParseErrs), ld.Blocks)
	case len(incomplete) > 0:
		out.verdict, out.received = VerdictPartial, "a node of type "+incomplete[0]+" without name or url"
	case len(ld.ParseErrs) == ld.Blocks:
		// Nothing an agent can read: no structured data at all.
		out.verdict, out.received = VerdictFail, fmt.Sprintf("JSON-LD present, but none of its %s parses", plural.N(ld.Blocks, "block", "blocks"))
	default:
		out.verdict, out.received = VerdictPartial, fmt.Sprintf("JSON-LD present (%s), but no business or product node", plural.N(len(ld.Nodes), "node", "nodes"))
	}
	return out
}
