package readiness

import (
	"strings"
)

func init() {
	register(checkDef{id: "page_metadata", needs: []resource{resPage, resPages}, run: checkPageMetadata})
}

// checkPageMetadata: <title> and <meta name=description> (the check catalogue,
// Understand).
func checkPageMetadata(s *scan) outcome {
	return s.overPages(func(p *pageRead) (Verdict, string) {
		title := strings.TrimSpace(p.head.Title) != ""
		desc := false
		for _, m := range p.head.Metas {
			if strings.EqualFold(m.Name, "description") && strings.TrimSpace(m.Content) != "" {
				desc = true
			}
		}
		switch {
		case title && desc:
			return VerdictPass, "<title> and a meta description"
		case title:
			return VerdictPartial, "<title> but no meta description"
		case desc:
			return VerdictPartial, "a meta description but no <title>"
		}
		return VerdictFail, "neither <title> nor a meta description"
	})
}
