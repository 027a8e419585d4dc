package readiness

import (
	"cmp"
	"fmt"
	"net/url"
	"path"
	"strings"
)

// twinURL is the page's Markdown twin: its path with ".md" appended, or
// "index.md" for a directory ("/" and paths ending in "/").
func twinURL(page *url.URL) string {
	u := *page
	u.RawQuery, u.Fragment, u.RawFragment, u.RawPath = "", "", "", ""
	switch {
	case strings.HasSuffix(u.Path, "/"):
		u.Path += "index.md"
	case path.Ext(u.Path) == ".md":
		return ""
	default:
		u.Path += ".md"
	}
	return u.String()
}

func observeMarkdownTwin(s *scan) obsOutcome {
	out := obsOutcome{expected: "Markdown at the page's URL with .md appended (index.md for a directory); never counted as the canonical Markdown form"}
	pu := *s.page
	o := s.obsOrigin()
	pu.Scheme, pu.Host = o.Scheme, o.Host
	u := twinURL(&pu)
	if u == "" {
		out.status, out.received = ObservationAbsent, "the page is itself a .md URL"
		out.meaning = meaning(out.status, "", "")
		return out
	}
	f := s.obsGet(u, "text/markdown")
	found := isDocument(f) && !llmsIsHTML(f.body())
	var problems []string
	what := "Markdown"
	if found {
		mt, _ := f.mediaType()
		what = fmt.Sprintf("Markdown served as %s, %d bytes", cmp.Or(mt, "no Content-Type"), len(f.body()))
		if mt != "text/markdown" && mt != "text/plain" {
			problems = append(problems, fmt.Sprintf("served as %q, not text/markdown", mt))
		}
		if len(strings.TrimSpace(string(f.body()))) == 0 {
			problems = append(problems, "an empty body")
		}
	}
	out2 := docOutcome(f, found, what, problems, nil)
	out2.expected = out.expected
	out2.meaning = meaning(out2.status, "an agent that appends .md to a URL gets the page as Markdown", "an agent that appends .md to a URL gets no Markdown (negotiation with Accept may still work)")
	return out2
}
