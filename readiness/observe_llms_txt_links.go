package readiness

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/plural"
)

// maxLLMsLinksChecked bounds the llms.txt links fetched.
const maxLLMsLinksChecked = 5

// llmsTargets returns the targets of the first n Markdown links of an
// llms.txt, each without the title that may follow it.
func llmsTargets(body []byte, n int) []string {
	var out []string
	for _, m := range llmsLink.FindAllString(string(body), n) {
		ref := strings.TrimSuffix(m[strings.LastIndex(m, "](")+2:], ")")
		if i := strings.IndexAny(ref, " \t"); i >= 0 {
			ref = ref[:i] // a title follows the target
		}
		out = append(out, ref)
	}
	return out
}

// getLLMsLink fetches the target u of an llms.txt link with the Accept of a
// page read, so a route the checks read is answered from the scan's memo.
// So is a document the checks read without an Accept (the card, the
// sitemap): whether a link answers does not hang on the Accept asked. The
// llms_txt_links and document_contracts observations both fetch through it,
// so they share each answer.
func (s *scan) getLLMsLink(u string) *fetched {
	for _, accept := range []string{acceptHTML, ""} {
		if f := s.fetchedBefore(s.obsAt(u, accept), accept); f != nil {
			return f
		}
	}
	return s.obsGet(s.obsAt(u, acceptHTML), acceptHTML)
}

func observeLLMsLinks(s *scan) obsOutcome {
	f := s.llmsRead()
	out := obsOutcome{expected: fmt.Sprintf("the first %d same-site links of llms.txt answer 200", maxLLMsLinksChecked)}
	if !f.answered() {
		out.status, out.received, out.requests = ObservationUnverified, f.url+": "+f.why(), []*fetched{f}
		out.meaning = meaning(out.status, "", "")
		return out
	}
	if !isDocument(f) || llmsIsHTML(f.body()) {
		out.status, out.received, out.requests = ObservationAbsent, fmt.Sprintf("absent: no llms.txt (%d)", f.status()), []*fetched{f}
		out.meaning = meaning(out.status, "", "there is no llms.txt whose links could be followed")
		return out
	}
	var links []string
	seen := map[string]bool{}
	foreign := 0
	for _, ref := range llmsTargets(f.body(), 1000) {
		u := s.obsSameSite(f.finalURL(), ref)
		if u == "" {
			foreign++
			continue
		}
		if !seen[u] {
			seen[u] = true
			links = append(links, u)
		}
	}
	out.requests = []*fetched{f}
	if len(links) == 0 {
		out.status, out.received = ObservationAbsent, fmt.Sprintf("absent: llms.txt has no same-site Markdown link (%d to other sites)", foreign)
		out.meaning = meaning(out.status, "", "llms.txt names no page of the site")
		return out
	}
	checked := links[:min(len(links), maxLLMsLinksChecked)]
	results := make([]*fetched, len(checked))
	var wg sync.WaitGroup
	for i, u := range checked {
		wg.Go(func() { results[i] = s.getLLMsLink(u) })
	}
	wg.Wait()
	okN, unanswered := 0, 0
	for _, r := range results {
		out.requests = append(out.requests, r)
		switch {
		case !r.answered():
			unanswered++
		case r.status() == 200:
			okN++
		default:
			out.notes = append(out.notes, fmt.Sprintf("%s answered %d", r.url, r.status()))
		}
	}
	if len(links) > len(checked) {
		out.notes = append(out.notes, fmt.Sprintf("checked the first %d of %d same-site links", len(checked), len(links)))
	}
	out.received = fmt.Sprintf("%d of %s checked answer 200", okN, plural.N(len(checked), "link", "links"))
	switch {
	case okN == len(checked):
		out.status = ObservationFound
	case unanswered > 0 && okN+unanswered == len(checked):
		out.status = ObservationUnverified
		out.received += fmt.Sprintf(", %d unanswered", unanswered)
	default:
		out.status = ObservationInvalid
	}
	out.meaning = meaning(out.status, "an agent that follows llms.txt reaches the pages it names", "")
	return out
}
