package agentic

// Version is the profile version this package reads and writes: the value
// of the "agentic" member of a Site Profile 1.1 document ("Required JSON
// fields").
const Version = "1.1.0"

// ActionVersion is the "agentic" value of an Action Profile 1.0 document,
// which this package recognises, preserves and indexes but never treats as a
// site profile ("Tools and compatibility").
const ActionVersion = "1.0.0"

// TypeSite is the required "type" member of a site profile.
const TypeSite = "site"

// SchemaURI is the only accepted value of the optional "$schema" member. The
// schema it names is pinned in this package and never fetched ("Required JSON
// fields").
const SchemaURI = "https://ruagentic.org/schemas/site-1.1.schema.json"

// Limits of Site Profile 1.1, from the specification and its schema.
// Lengths are counted in Unicode code points, sizes in UTF-8 bytes.
const (
	MaxResources        = 40    // resources: one to forty records
	MaxAPIs             = 5     // apis: zero to five OpenAPI indexes
	MaxOperations       = 160   // operations per API
	MaxURLLength        = 2048  // origin, url, source and document
	MaxNameLength       = 160   // name
	MaxDescriptionLen   = 600   // description
	MaxTitleLength      = 160   // resource title
	MaxOpenAPIVersion   = 32    // an API's openapi version string
	MaxPathLength       = 512   // operation path
	MaxOperationIDLen   = 160   // operationId
	MaxSummaryLength    = 240   // operation summary
	MaxProfileBytes     = 65536 // the compact JSON of a profile
	MaxTextBytes        = 65536 // each generated TXT file
	MaxPublishedFileLen = 65536 // README.md and LISTING.md written by WriteDir
)

// Kind is a resource kind ("Resource records").
type Kind string

// The eight resource kinds of Site Profile 1.1.
const (
	KindWebsite       Kind = "website"
	KindDocumentation Kind = "documentation"
	KindLLMs          Kind = "llms"
	KindOpenAPI       Kind = "openapi"
	KindMCP           Kind = "mcp"
	KindA2A           Kind = "a2a"
	KindAgentAuth     Kind = "agent-auth"
	KindAgentic       Kind = "agentic"
)

// Kinds lists every resource kind in the order the specification gives them.
func Kinds() []Kind {
	return []Kind{KindWebsite, KindDocumentation, KindLLMs, KindOpenAPI, KindMCP, KindA2A, KindAgentAuth, KindAgentic}
}

// Valid reports whether k is one of the eight kinds.
func (k Kind) Valid() bool {
	switch k {
	case KindWebsite, KindDocumentation, KindLLMs, KindOpenAPI, KindMCP, KindA2A, KindAgentAuth, KindAgentic:
		return true
	}
	return false
}

// Availability says whether a resource was read or only referenced
// ("Resource records").
type Availability string

const (
	// Retrieved: the document was successfully read by the publisher.
	Retrieved Availability = "retrieved"
	// Linked: a retrieved source referenced the URL; it was not read.
	Linked Availability = "linked"
)

// Methods lists the eight HTTP methods an indexed operation may use
// ("OpenAPI indexes").
func Methods() []string {
	return []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"}
}

func validMethod(m string) bool {
	switch m {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE":
		return true
	}
	return false
}

// Site is an Agentic Site Profile 1.1 document (/agentic.json). A Site
// returned by [ParseSite] conforms to the specification; a Site built by hand
// is checked again by [Site.Validate], [Site.Text] and [Site.JSON].
type Site struct {
	// Schema is the optional "$schema" member; when set it must equal SchemaURI.
	Schema string `json:"$schema,omitempty"`
	// Agentic is exactly Version ("1.1.0").
	Agentic string `json:"agentic"`
	// Type is exactly TypeSite ("site").
	Type string `json:"type"`
	// Origin is the canonical HTTPS origin of the website, e.g. "https://shop.example".
	Origin string `json:"origin"`
	// Name is the site name, 1 to 160 characters.
	Name string `json:"name"`
	// Description is the public site description, 1 to 600 characters.
	Description string `json:"description"`
	// Resources holds one to forty resource records, at least one retrieved.
	Resources []Resource `json:"resources"`
	// APIs holds zero to five OpenAPI indexes.
	APIs []API `json:"apis"`
}

// Resource is one resource record ("Resource records").
type Resource struct {
	Kind Kind `json:"kind"`
	// URL is the resource's HTTPS URL.
	URL string `json:"url"`
	// Source is the public document from which URL was discovered; a
	// directly retrieved well-known file may name itself.
	Source string `json:"source"`
	// Availability is Retrieved or Linked.
	Availability Availability `json:"availability"`
	// Title is optional, at most 160 characters.
	Title string `json:"title,omitempty"`
}

// API is an OpenAPI index ("OpenAPI indexes"). Document must equal the URL of
// a retrieved resource of kind openapi in the same profile.
type API struct {
	Document string `json:"document"`
	// OpenAPI is the document's "openapi" version string, 1 to 32 characters.
	OpenAPI    string      `json:"openapi"`
	Operations []Operation `json:"operations"`
}

// Operation is one indexed operation, copied from the OpenAPI document. It
// is a description, never an executable action.
type Operation struct {
	// Method is one of the eight upper-case methods of [Methods].
	Method string `json:"method"`
	// Path starts with exactly one "/" and has no "?", "#" or "\".
	Path string `json:"path"`
	// OperationID is copied verbatim when the document has one; it is never invented.
	OperationID string `json:"operationId,omitempty"`
	// Summary is the public operation summary, at most 240 characters.
	Summary string `json:"summary,omitempty"`
}

// Retrieved returns the resources whose availability is retrieved, in order.
func (s *Site) Retrieved() []Resource {
	var out []Resource
	for _, r := range s.Resources {
		if r.Availability == Retrieved {
			out = append(out, r)
		}
	}
	return out
}

// OperationCount returns the number of indexed operations over all APIs.
func (s *Site) OperationCount() int {
	n := 0
	for _, a := range s.APIs {
		n += len(a.Operations)
	}
	return n
}
