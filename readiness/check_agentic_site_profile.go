package readiness

import (
	"fmt"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/internal/plural"
)

func init() {
	register(checkDef{id: "agentic_site_profile", run: checkAgenticSiteProfile})
}

// checkAgenticSiteProfile: the optional Agentic Site Profile 1.1,
// /agentic.json validated with agentic.ParseSite and /agentic.txt compared
// with the TXT generated from it (agentic.CheckText).
func checkAgenticSiteProfile(s *scan) outcome {
	a := s.agenticRead()
	found := a.f.ok() && !looksLikeHTML(a.f.body())
	problems := problemNotes(a.err)
	what := "an Agentic Site Profile"
	txt := s.get(s.resolve("/agentic.txt"), "")
	if a.site != nil {
		what = fmt.Sprintf("an Agentic Site Profile 1.1 with %s", plural.N(len(a.site.Resources), "resource", "resources"))
		switch {
		case txt.ok() && !looksLikeHTML(txt.body()):
			st := agentic.CheckText(a.site, a.f.url, txt.body())
			what += fmt.Sprintf("; /agentic.txt %s", st)
			if st != agentic.TextStatusMatched {
				problems = append(problems, "/agentic.txt does not match the TXT generated from /agentic.json ("+string(st)+")")
			}
		case txt.answered():
			what += "; no /agentic.txt"
		}
	}
	out := convention(a.f, found, what, problems)
	out.requests = append(out.requests, txt)
	return out
}
