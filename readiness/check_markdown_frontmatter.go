package readiness

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "markdown_frontmatter", needs: []resource{resMDForm}, run: checkMarkdownFrontmatter})
}

// checkMarkdownFrontmatter: the Markdown begins with front matter giving its
// canonical address, last-modified date and language (the agent-readiness
// scoring method Section 04, "frontmatter travels along"). Not applicable when there is
// no Markdown form.
func checkMarkdownFrontmatter(s *scan) outcome {
	m := s.mdFormRead()
	out := outcome{requests: m.requestsUsed, notes: []string{"read from one page"}}
	if m.unverified {
		out.verdict, out.received = VerdictUnverified, "whether a Markdown form exists is unknown: "+m.why
		return out
	}
	if !m.exists() {
		out.verdict, out.received = VerdictNotApplicable, "the page has no Markdown form"
		return out
	}
	fields, dups, err := webread.ParseFrontMatter(m.body)
	if err != nil {
		out.verdict, out.received = VerdictFail, "no front matter in "+m.bodyFrom+": "+err.Error()
		return out
	}
	for _, d := range dups {
		out.notes = append(out.notes, "key "+d+" given twice; the first value was read")
	}
	var have, missing []string
	if c := fields["canonical"]; c != "" {
		if u, err := url.Parse(c); err == nil && u.IsAbs() && s.sameSite(u) {
			have = append(have, "canonical")
		} else {
			missing = append(missing, fmt.Sprintf("canonical %q is not an absolute URL on this site", shorten.Runes(clean(c), 200)))
		}
	} else {
		missing = append(missing, "no canonical")
	}
	if d := fields["updated"]; d != "" {
		if webread.ValidDate(d) {
			have = append(have, "updated")
		} else {
			missing = append(missing, fmt.Sprintf("updated %q is not a date", shorten.Runes(clean(d), 40)))
		}
	} else {
		missing = append(missing, "no updated")
	}
	if l := fields["language"]; l != "" {
		if webread.ValidLanguageTag(l) {
			have = append(have, "language")
		} else {
			missing = append(missing, fmt.Sprintf("language %q is not a BCP 47 tag", shorten.Runes(clean(l), 40)))
		}
	} else {
		missing = append(missing, "no language")
	}
	switch len(have) {
	case 3:
		out.verdict, out.received = VerdictPass, "front matter with canonical, updated and language"
	case 0:
		out.verdict, out.received = VerdictFail, "front matter, but "+strings.Join(missing, ", ")
	default:
		out.verdict, out.received = VerdictPartial, "front matter with "+strings.Join(have, ", ")+"; "+strings.Join(missing, ", ")
	}
	return out
}
