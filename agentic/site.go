package agentic

import "time"

// Version is the profile version this package reads and writes: the value
// of the "agentic" member of a Site Profile 1.1 document
// ([Agentic Site Profile 1.1], section "Required JSON fields").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
const Version = "1.1.0"

// ActionVersion is the "agentic" value of an Action Profile 1.0 document.
// This package recognises, preserves and indexes such a document, but never
// treats it as a site profile ([Agentic Site Profile 1.1], section "Tools
// and compatibility").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
const ActionVersion = "1.0.0"

// TypeSite is the required "type" member of a site profile.
const TypeSite = "site"

// SchemaURI is the only accepted value of the optional "$schema" member. The
// schema it names is pinned in this package and never fetched
// ([Agentic Site Profile 1.1], section "Required JSON fields").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
const SchemaURI = "https://ruagentic.org/schemas/site-1.1.schema.json"

// Limits are the bounds of [Agentic Site Profile 1.1] and of its reference
// tools, as one value. They say what a profile may hold ("Required JSON
// fields", "Resource records", "OpenAPI indexes"), with the counts and
// lengths of the reference schema. They also say what one [Discover] or
// [Audit] run may spend ("Discovery and auditing"). Lengths count Unicode
// code points, sizes UTF-8 bytes. Get them with [SpecLimits]; changing the
// returned value changes nothing in this package.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
type Limits struct {
	// Resources is the most resource records a profile holds: 40. A
	// profile holds at least one.
	Resources int
	// APIs is the most OpenAPI indexes a profile holds: 5.
	APIs int
	// Operations is the most operations one API index holds: 160.
	Operations int
	// URLLength bounds origin, url, source and document: 2048.
	URLLength int
	// NameLength, DescriptionLength and TitleLength bound the site name
	// (160), the site description (600) and a resource title (160).
	NameLength, DescriptionLength, TitleLength int
	// OpenAPIVersionLength bounds an API's openapi version string: 32.
	OpenAPIVersionLength int
	// PathLength, OperationIDLength and SummaryLength bound an operation's
	// path (512), operationId (160) and summary (240).
	PathLength, OperationIDLength, SummaryLength int
	// ProfileBytes bounds the compact JSON of a profile, TextBytes each
	// generated TXT file, and PublishedFileBytes the README.md and
	// LISTING.md that [Discovery.WriteDir] writes. Each is 64 KiB.
	ProfileBytes, TextBytes, PublishedFileBytes int

	// Attempts is the number of HTTP attempts of one run, redirect hops
	// included: 22. Concurrency is the documents read at once: 5.
	Attempts, Concurrency int
	// ResponseBytes bounds one response body: 1 MiB. TotalBytes bounds all
	// bodies of a run, charged as they are read: 8 MiB (see
	// safefetch.BudgetLimits.Bytes).
	ResponseBytes, TotalBytes int64
	// Deadline bounds a run: 40 s. A DNS lookup may finish at most DNSGrace
	// later: 5 s.
	Deadline, DNSGrace time.Duration
	// Redirects is the most redirects followed per document: 3. Each goes
	// to the same https origin or its exact www counterpart.
	Redirects int
	// AuditDocuments is the most retrieved same-origin documents [Audit]
	// reads, OpenAPI indexes first: 5.
	AuditDocuments int
}

// SpecLimits returns the limits this package enforces.
func SpecLimits() Limits {
	return Limits{
		Resources: maxResources, APIs: maxAPIs, Operations: maxOperations,
		URLLength: maxURLLength, NameLength: maxNameLength, DescriptionLength: maxDescriptionLength, TitleLength: maxTitleLength,
		OpenAPIVersionLength: maxOpenAPIVersionLength, PathLength: maxPathLength, OperationIDLength: maxOperationIDLength, SummaryLength: maxSummaryLength,
		ProfileBytes: maxProfileBytes, TextBytes: maxTextBytes, PublishedFileBytes: maxPublishedFileBytes,
		Attempts: scanMaxAttempts, Concurrency: scanMaxConcurrent, ResponseBytes: scanMaxResponseBytes, TotalBytes: scanMaxTotalBytes,
		Deadline: scanDeadline, DNSGrace: scanDNSGrace, Redirects: scanMaxRedirects, AuditDocuments: auditMaxDocuments,
	}
}

// The values of [SpecLimits].
const (
	maxResources            = 40
	maxAPIs                 = 5
	maxOperations           = 160
	maxURLLength            = 2048
	maxNameLength           = 160
	maxDescriptionLength    = 600
	maxTitleLength          = 160
	maxOpenAPIVersionLength = 32
	maxPathLength           = 512
	maxOperationIDLength    = 160
	maxSummaryLength        = 240
	maxProfileBytes         = 65536
	maxTextBytes            = 65536
	maxPublishedFileBytes   = 65536

	scanMaxAttempts      = 22
	scanMaxConcurrent    = 5
	scanMaxResponseBytes = 1 << 20
	scanMaxTotalBytes    = 8 << 20
	scanDeadline         = 40 * time.Second
	scanDNSGrace         = 5 * time.Second
	scanMaxRedirects     = 3
	auditMaxDocuments    = 5
)

// Kind is a resource kind ([Agentic Site Profile 1.1], section "Resource
// records").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
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

// Availability says whether a resource was read or only referenced
// ([Agentic Site Profile 1.1], section "Resource records").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
type Availability string

const (
	// AvailabilityRetrieved: the document was successfully read by the publisher.
	AvailabilityRetrieved Availability = "retrieved"
	// AvailabilityLinked: a retrieved source referenced the URL; it was not read.
	AvailabilityLinked Availability = "linked"
)

// methods lists the eight HTTP methods an indexed operation may use
// ("OpenAPI indexes").
func methods() []string {
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

// Resource is one resource record ([Agentic Site Profile 1.1], section
// "Resource records").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
type Resource struct {
	Kind Kind `json:"kind"`
	// URL is the resource's HTTPS URL.
	URL string `json:"url"`
	// Source is the public document from which URL was discovered; a
	// directly retrieved well-known file may name itself.
	Source string `json:"source"`
	// Availability is AvailabilityRetrieved or AvailabilityLinked.
	Availability Availability `json:"availability"`
	// Title is optional, at most 160 characters.
	Title string `json:"title,omitempty"`
}

// API is an OpenAPI index ([Agentic Site Profile 1.1], section "OpenAPI
// indexes"). Document must equal the URL of a retrieved resource of kind
// openapi in the same profile.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
type API struct {
	Document string `json:"document"`
	// OpenAPI is the document's "openapi" version string, 1 to 32 characters.
	OpenAPI    string      `json:"openapi"`
	Operations []Operation `json:"operations"`
}

// Operation is one indexed operation, copied from the OpenAPI document. It
// is a description, never an executable action.
type Operation struct {
	// Method is one of the eight upper-case HTTP methods GET, POST, PUT,
	// PATCH, DELETE, HEAD, OPTIONS and TRACE.
	Method string `json:"method"`
	// Path starts with exactly one "/" and has no "?", "#" or "\".
	Path string `json:"path"`
	// OperationID is copied verbatim when the document has one; it is never invented.
	OperationID string `json:"operationId,omitempty"`
	// Summary is the public operation summary, at most 240 characters.
	Summary string `json:"summary,omitempty"`
}

// operationCount returns the number of indexed operations over all APIs.
func (s *Site) operationCount() int {
	n := 0
	for _, a := range s.APIs {
		n += len(a.Operations)
	}
	return n
}
