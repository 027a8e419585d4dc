package readiness

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "markdown_representation", needs: []resource{resMarkdown, resPage, resMDForm}, run: checkMarkdownRepresentation})
}

// variesOnAccept reports whether a Vary header names Accept (or is "*").
func variesOnAccept(h http.Header) bool {
	for _, v := range h.Values("Vary") {
		for f := range strings.SplitSeq(v, ",") {
			f = strings.TrimSpace(f)
			if f == "*" || strings.EqualFold(f, "Accept") {
				return true
			}
		}
	}
	return false
}

// checkMarkdownRepresentation: R2, a page exposes its own Markdown
// representation (the agent-readiness scoring method, Section 04, "Markdown on
// request"). GET the page with Accept: text/markdown returns 200,
// text/markdown; charset=utf-8 and Vary: Accept. The answer is judged against
// the form the request's Accept header prefers, parsed with q-values.
func checkMarkdownRepresentation(s *scan) outcome {
	m := s.mdFormRead()
	out := outcome{requests: m.requestsUsed, notes: []string{"read from one page"}}
	want := webread.Preferred(m.negotiated.accept, formOffers)
	out.expected = fmt.Sprintf("200, %s; charset=utf-8, Vary: Accept", want)
	if m.unverified {
		out.verdict, out.received = VerdictUnverified, m.why
		return out
	}
	f := m.negotiated
	mt, params := f.mediaType()
	switch {
	case m.isMD && mt == want:
		var missing []string
		if !strings.EqualFold(params["charset"], "utf-8") {
			missing = append(missing, "no charset=utf-8")
		}
		if !variesOnAccept(f.resp.Header) {
			missing = append(missing, "no Vary: Accept")
		}
		if len(missing) == 0 {
			out.verdict, out.received = VerdictPass, fmt.Sprintf("200 %s with Vary: Accept", f.resp.Header.Get("Content-Type"))
		} else {
			out.verdict, out.received = VerdictPartial, fmt.Sprintf("200 %s, but %s", clean(f.resp.Header.Get("Content-Type")), strings.Join(missing, " and "))
		}
	case m.altMD:
		out.verdict, out.received = VerdictPartial, "Markdown only at the announced alternate "+m.alt.url+"; the page itself answered "+describe(f)
		out.notes = append(out.notes, "a /md-style alternate is a fallback, never the canonical form")
	default:
		out.verdict, out.received = VerdictFail, describe(f)+", not Markdown"
	}
	return out
}

// describe is "status media-type[, Vary: ...]" for receipts.
func describe(f *fetched) string {
	if f == nil || f.resp == nil {
		return "no response"
	}
	d := fmt.Sprintf("%d %s", f.status(), clean(f.resp.Header.Get("Content-Type")))
	if v := f.resp.Header.Values("Vary"); len(v) > 0 {
		d += ", Vary: " + clean(strings.Join(v, ", "))
	} else {
		d += ", no Vary header"
	}
	return d
}
