package readiness

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/webread"
)

func init() {
	register(checkDef{id: "language_and_canonical", needs: []resource{resPage, resPages}, run: checkLanguageAndCanonical})
}

// checkLanguageAndCanonical: R6, pages declare their language and canonical
// URL (the check catalogue, Understand): <html lang> with a well-formed BCP
// 47 tag, and an absolute same-site rel=canonical.
func checkLanguageAndCanonical(s *scan) outcome {
	return s.overPages(func(p *pageRead) (Verdict, string) {
		lang := strings.TrimSpace(p.head.Lang)
		langOK := webread.ValidLanguageTag(lang)
		canon, canonOK := "", false
		for _, l := range p.head.Links {
			if hasRel(l, "canonical") {
				canon = l.RawHref
				u, err := url.Parse(strings.TrimSpace(l.RawHref))
				canonOK = err == nil && u.IsAbs() && s.sameSite(u)
				break
			}
		}
		var parts []string
		switch {
		case lang == "":
			parts = append(parts, "no <html lang>")
		case !langOK:
			parts = append(parts, fmt.Sprintf("lang %q is not a BCP 47 tag", shorten.Runes(clean(lang), 40)))
		default:
			parts = append(parts, fmt.Sprintf("lang %q", lang))
		}
		switch {
		case canon == "":
			parts = append(parts, "no rel=canonical")
		case !canonOK:
			parts = append(parts, fmt.Sprintf("canonical %q is not an absolute URL on this site", shorten.Runes(clean(canon), 200)))
		default:
			parts = append(parts, "canonical "+shorten.Runes(clean(canon), 200))
		}
		d := strings.Join(parts, ", ")
		switch {
		case langOK && canonOK:
			return VerdictPass, d
		case langOK || canonOK:
			return VerdictPartial, d
		}
		return VerdictFail, d
	})
}
