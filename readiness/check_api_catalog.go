package readiness

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/linkset"
)

func init() {
	register(checkDef{id: "api_catalog", run: checkAPICatalog})
}

// apiCatalogProfile is the profile URI of an RFC 9727 API catalog
// ([RFC 9727], Section 7.3).
const apiCatalogProfile = "https://www.rfc-editor.org/info/rfc9727"

// apiCatalogRels are the link relations through which an RFC 9727 API catalog
// names an API ([RFC 9727], Section 4.2 and its examples, Appendix A). item
// (RFC 6573) names an API's endpoint. service-desc, service-doc and
// service-meta (RFC 8631) name its description, documentation and metadata.
// api-catalog names a further catalog (Section 4.2.2).
var apiCatalogRels = []string{"item", "service-desc", "service-doc", "service-meta", "api-catalog"}

// checkAPICatalog: the optional RFC 9727 API catalog at
// /.well-known/api-catalog. [RFC 9727], Section 4.2, makes it an RFC 9264 link
// set in JSON, served as application/linkset+json. Section 4.2 recommends the
// RFC 9727 profile parameter too. The document is read with package linkset. A
// catalog found is listed with its problems. They are another media type, a
// document that is not a link set, or a link set that names no API through the
// relations above. A missing profile parameter is a note, not a problem,
// because the RFC only recommends it.
//
// [RFC 9727]: https://www.rfc-editor.org/rfc/rfc9727
func checkAPICatalog(s *scan) outcome {
	f := s.get(s.resolve("/.well-known/api-catalog"), "")
	found := f.ok() && !looksLikeHTML(f.body())
	var problems, notes []string
	what := "an RFC 9727 API catalog (RFC 9264 link set)"
	if found {
		mt, params := f.mediaType()
		if mt != "application/linkset+json" {
			problems = append(problems, fmt.Sprintf("served as %q, not application/linkset+json (RFC 9727 §4.2)", mt))
		} else if params["profile"] != apiCatalogProfile {
			notes = append(notes, "no profile parameter "+apiCatalogProfile+" on the media type (RFC 9727 §4.2 recommends it)")
		}
		d, err := linkset.Parse(f.body())
		problems = append(problems, problemNotes(err)...)
		if err == nil && d != nil {
			apis := 0
			for i := range d.Contexts {
				for _, rel := range apiCatalogRels {
					apis += len(d.Contexts[i].Relation(rel))
				}
			}
			what = "an RFC 9727 API catalog of " + plural.N(len(d.Contexts), "link context", "link contexts") + ", " + plural.N(apis, "API link", "API links")
			if apis == 0 {
				problems = append(problems, "no API: no item, service-desc, service-doc or service-meta link in any context (RFC 9727 §4.2)")
			}
		}
	}
	out := convention(f, found, what, problems)
	out.notes = append(out.notes, notes...)
	return out
}
