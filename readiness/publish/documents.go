package publish

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
)

// buildDocuments validates and builds everything the kit serves besides
// llms.txt, robots.txt and the sitemap: the MCP endpoint and OpenAPI
// document, the four spec documents, then the card that lists them.
func (k *kit) buildDocuments() error {
	if err := k.buildMCP(); err != nil {
		return err
	}
	if err := k.buildOpenAPI(); err != nil {
		return err
	}
	if err := k.buildSpecDocuments(); err != nil {
		return err
	}
	if err := k.buildCatalog(); err != nil {
		return err
	}
	for _, d := range k.documents {
		k.routes[d.path] = d.handler
		if d.twin != "" {
			k.routes[d.twin] = d.handler
		}
	}
	return k.buildCard()
}

// buildSpecDocuments adds the agentic site profile, given or built from
// the site's facts. It adds the OpenAgent profile, knowledge link set
// and agent-signup document when the site gives them. Each goes through
// its own package's handler, which refuses a document that does not
// conform.
func (k *kit) buildSpecDocuments() error {
	site := k.site.Agentic
	built := site == nil && !k.site.NoAgentic
	if built {
		site = k.agenticFromFacts()
	}
	if site != nil {
		h, err := agentic.Handler(site, &agentic.HandlerOptions{ProfileURL: k.abs("/agentic.json")})
		switch {
		case err != nil && built && onlyOriginRules(err):
			// A development origin (http, a port, a loopback or private
			// host) can carry no valid profile. The kit serves none
			// rather than refuse the whole site. It serves every other
			// document as it would in production.
		case err != nil:
			return &SiteError{Field: "Agentic", Reason: "the Agentic Site Profile does not conform", Err: err}
		default:
			k.documents = append(k.documents, document{path: "/agentic.json", twin: "/agentic.txt", key: "agentic",
				title: "Agentic Site Profile", notes: "the site's documentation, APIs and agent connections (agentic.json, agentic.txt)", handler: h})
		}
	}
	if p := k.site.OpenAgent; p != nil {
		h, err := openagent.Handler(p, nil)
		if err != nil {
			return &SiteError{Field: "OpenAgent", Reason: "the OpenAgent profile cannot be published", Err: err}
		}
		k.documents = append(k.documents, document{path: openagent.WellKnownPath, key: "openagent", title: "OpenAgent profile",
			notes: "the site's agent: identity, owner, skills, permissions", handler: h, link: openagent.LinkHeader(openagent.WellKnownPath)})
	}
	if d := k.site.Linkset; d != nil {
		h, err := linkset.Handler(d, nil)
		if err != nil {
			return &SiteError{Field: "Linkset", Reason: "the knowledge link set does not conform", Err: err}
		}
		k.documents = append(k.documents, document{path: linkset.WellKnownPath, key: "knowledge_linkset", title: "Knowledge link set",
			notes: "the knowledge artefacts this site publishes, with their digests", handler: h, link: linkset.LinkHeader(linkset.WellKnownPath)})
	}
	if d := k.site.AgentSignup; d != nil {
		h, err := agentsignup.Handler(d, nil)
		if err != nil {
			return &SiteError{Field: "AgentSignup", Reason: "the agent-signup document does not conform", Err: err}
		}
		k.documents = append(k.documents, document{path: agentsignup.WellKnownPath, key: "agent_signup", title: "Agent sign-up",
			notes: "how an agent signs up for its human owner (agent-identity-v1)", handler: h})
	}
	return nil
}

// originRules are the rules of the Agentic Site Profile that an origin
// itself breaks when it is not a public https origin on the default port.
var originRules = map[string]bool{agentic.RuleURLHTTPS: true, agentic.RuleURLPort: true, agentic.RuleURLPrivateAddress: true}

// onlyOriginRules reports whether every problem of a validation error is
// one that the site's origin causes (see originRules).
func onlyOriginRules(err error) bool {
	var ve *agentic.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) == 0 {
		return false
	}
	for _, p := range ve.Problems {
		if !originRules[p.Rule] {
			return false
		}
	}
	return true
}

// agenticFromFacts builds the Agentic Site Profile 1.1 the site's facts
// support, within the profile's limits. It names the home page and
// llms.txt as retrieved resources, and the OpenAPI document with its
// operations. It names the MCP endpoint as linked from llms.txt, and each
// listed page as documentation. The profile is validated by
// agentic.Handler, agentic's own validator.
func (k *kit) agenticFromFacts() *agentic.Site {
	lim := agentic.SpecLimits()
	home, llms := k.abs("/"), k.abs(llmsPath)
	s := &agentic.Site{
		Agentic: "1.1.0", Type: "site", Origin: strings.TrimSuffix(home, "/"),
		Name: k.site.Name, Description: k.site.Description, APIs: []agentic.API{},
		Resources: []agentic.Resource{
			{Kind: agentic.KindWebsite, URL: home, Source: home, Availability: agentic.AvailabilityRetrieved, Title: k.site.Name},
			{Kind: agentic.KindLLMs, URL: llms, Source: llms, Availability: agentic.AvailabilityRetrieved},
		},
	}
	if k.site.OpenAPI != nil {
		doc := k.abs(openAPIPath)
		s.Resources = append(s.Resources, agentic.Resource{Kind: agentic.KindOpenAPI, URL: doc, Source: llms, Availability: agentic.AvailabilityRetrieved})
		if api, ok := openAPIIndex(k.site.OpenAPI, doc, lim); ok {
			s.APIs = append(s.APIs, api)
		}
	}
	if m := k.site.MCP; m != nil {
		s.Resources = append(s.Resources, agentic.Resource{Kind: agentic.KindMCP, URL: k.abs(m.Path), Source: llms, Availability: agentic.AvailabilityLinked})
	}
	for _, p := range k.site.Pages {
		if len(s.Resources) == lim.Resources {
			break
		}
		u := k.abs(p.Path)
		if u == home {
			continue
		}
		title := p.Title
		if len([]rune(title)) > lim.TitleLength {
			title = string([]rune(title)[:lim.TitleLength])
		}
		s.Resources = append(s.Resources, agentic.Resource{Kind: agentic.KindDocumentation, URL: u, Source: llms, Availability: agentic.AvailabilityLinked, Title: title})
	}
	return s
}

// openAPIIndex reads the operations of an OpenAPI 3 document for the
// profile's API index, within the limits. It copies method, path,
// operationId and summary, in path then method order. It returns false
// when the document has no usable operation.
func openAPIIndex(doc []byte, url string, lim agentic.Limits) (agentic.API, bool) {
	var d struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if json.Unmarshal(doc, &d) != nil || d.OpenAPI == "" || len(d.OpenAPI) > lim.OpenAPIVersionLength {
		return agentic.API{}, false
	}
	api := agentic.API{Document: url, OpenAPI: d.OpenAPI, Operations: []agentic.Operation{}}
	paths := make([]string, 0, len(d.Paths))
	for p := range d.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	methods := []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "?#\\") || len(p) > lim.PathLength {
			continue
		}
		for _, m := range methods {
			raw, ok := d.Paths[p][m]
			if !ok || len(api.Operations) == lim.Operations {
				continue
			}
			var op struct {
				OperationID string `json:"operationId"`
				Summary     string `json:"summary"`
			}
			json.Unmarshal(raw, &op)
			o := agentic.Operation{Method: strings.ToUpper(m), Path: p}
			if op.OperationID != "" && len(op.OperationID) <= lim.OperationIDLength {
				o.OperationID = op.OperationID
			}
			if op.Summary != "" && len([]rune(op.Summary)) <= lim.SummaryLength {
				o.Summary = op.Summary
			}
			api.Operations = append(api.Operations, o)
		}
	}
	return api, len(api.Operations) > 0
}
