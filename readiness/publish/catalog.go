package publish

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentweb/agentweb/internal/ard"
	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/serve"
)

// CatalogEntry is one entry of the site's AI catalog ([Site].Catalog), as
// Agentic Resource Discovery 1.0 defines a catalog entry: an agent, an MCP
// server, a skill package or another catalog, named by reference.
type CatalogEntry struct {
	// Identifier is the entry's URN, urn:air:<publisher>[:<namespace>]:<name>,
	// such as "urn:air:shop.example:mcp:orders".
	Identifier string
	// DisplayName names the entry for a person.
	DisplayName string
	// Type is the media type of what URL serves, such as
	// "application/mcp-server-card+json" or "application/a2a-agent-card+json".
	Type string
	// URL is where the entry's document is: an absolute URL or a path on
	// the site.
	URL string
	// Description says what the entry does, in a sentence.
	Description string
	// RepresentativeQueries are 2 to 5 questions a person would ask that
	// the entry answers; registries index them. Without them the catalog
	// is valid, with a warning.
	RepresentativeQueries []string
}

// buildCatalog adds the AI catalog at /.well-known/ai-catalog.json
// (Agentic Resource Discovery 1.0) when the site lists entries. It holds
// its specVersion, the site as host, and the entries. They are validated
// by the same rules as the scanner's ai_catalog observation: the ARD JSON
// Schema and the conformance test's rules, warnings allowed. Pages
// advertise it with a Link header field, rel="ai-catalog", which
// Lighthouse's ard gatherer reads, rather than a robots.txt Agentmap line,
// which Lighthouse's SEO robots-txt audit fails.
func (k *kit) buildCatalog() error {
	if len(k.site.Catalog) == 0 {
		return nil
	}
	type entry struct {
		Identifier            string   `json:"identifier"`
		DisplayName           string   `json:"displayName"`
		Type                  string   `json:"type"`
		URL                   string   `json:"url"`
		Description           string   `json:"description,omitempty"`
		RepresentativeQueries []string `json:"representativeQueries,omitempty"`
	}
	doc := struct {
		SpecVersion string            `json:"specVersion"`
		Host        map[string]string `json:"host"`
		Entries     []entry           `json:"entries"`
	}{SpecVersion: "1.0", Host: map[string]string{"displayName": k.site.Name}}
	for _, e := range k.site.Catalog {
		doc.Entries = append(doc.Entries, entry{Identifier: e.Identifier, DisplayName: e.DisplayName, Type: e.Type,
			URL: k.absOrSelf(e.URL), Description: e.Description, RepresentativeQueries: e.RepresentativeQueries})
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	r := ard.Validate(b)
	if r.Errors() > 0 {
		var errs []string
		for _, f := range r.Findings {
			if !f.Warning {
				errs = append(errs, f.String())
			}
		}
		return &SiteError{Field: "Catalog", Reason: fmt.Sprintf("the AI catalog does not conform: %s", strings.Join(errs, "; "))}
	}
	h := serve.Handler(serve.Document{Body: append(b, '\n'), ContentType: "application/json", CacheControl: cacheControl,
		Header: http.Header{"Access-Control-Allow-Origin": {"*"}}})
	k.documents = append(k.documents, document{path: ard.WellKnownPath, title: "AI catalog",
		notes: "the site's agents, MCP servers and skills for registries (Agentic Resource Discovery)", handler: h,
		link: linkheader.Format(linkheader.Link{Target: ard.WellKnownPath, Rel: []string{ard.Rel}, Type: "application/json"})})
	return nil
}
