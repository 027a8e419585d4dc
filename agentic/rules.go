package agentic

import (
	"errors"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// Problem is one reason a document does not conform: a JSON Pointer, a
// stable rule name (one of the Rule constants), a message and a severity.
// It is the same type as the Problem of every other spec package of this
// module, so one function handles the findings of all of them. This
// package reports every problem with the zero Severity, an error.
//
// Problem is an alias of the module's one Problem type; go doc does not
// show an alias's fields and methods, so here they are:
//
//	type Problem struct {
//		Pointer  string   // JSON Pointer (RFC 6901) of the offending value; "" is the whole document
//		Rule     string   // stable, machine-readable rule name, one of the Rule constants
//		Message  string   // what is wrong, in words a person understands
//		Section  string   // the section of the specification that states the rule, or ""
//		Severity Severity // SeverityError unless the finding is only a warning or a notice
//	}
//
//	func (p Problem) String() string // "pointer: message [rule]", or "... [rule, section S]"
type Problem = problem.Problem

// ValidationError lists every problem of a document, never only the first.
// errors.Is(err, [ErrInvalid]) holds for one returned by [ParseSite],
// [Site.Validate] or [ParseActionProfile]. Its Has and Rules methods look
// problems up by rule.
//
// ValidationError is an alias of the module's one ValidationError type;
// go doc does not show an alias's fields and methods, so here they are:
//
//	type ValidationError struct {
//		Source   string    // the URL the document was fetched from, or "" when parsed from bytes
//		Problems []Problem // the findings of severity error, in a stable order
//		Warnings []Problem // findings that do not break conformance on their own
//	}
//
//	func (e *ValidationError) Error() string                          // one line: the count, the first five problems, "and N more"
//	func (e *ValidationError) Has(rule string) bool                   // whether some problem has the rule
//	func (e *ValidationError) Rules() []string                        // the distinct rule names, sorted
//	func (e *ValidationError) Unwrap() []error                        // the package's sentinels: errors.Is(err, ErrInvalid)
//	func (e *ValidationError) WithSource(url string) *ValidationError // e with Source set to url
type ValidationError = problem.ValidationError

// Severity says how much a [Problem] weighs; every problem of this package
// is an error (the zero value).
//
// Severity is an alias of the module's one Severity type (a uint8 whose
// zero value is SeverityError); go doc does not show an alias's methods,
// so here they are:
//
//	func (s Severity) String() string               // "error", "warning" or "notice"
//	func (s Severity) MarshalText() ([]byte, error) // its String, in JSON
//	func (s *Severity) UnmarshalText(b []byte) error // reads "error", "warning" or "notice"
type Severity = problem.Severity

// Rule names of the URL rules, shared with the other spec packages of this
// module. Every URL of a profile (origin, url, source, document) is https
// and at most [Limits.URLLength] long. It carries no credentials, query,
// fragment or port other than 443. It names neither a local host nor a
// local, private or reserved address ([Agentic Site Profile 1.1], section
// "Resource records").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
const (
	// RuleURLSyntax: not an absolute URL with a host, or an empty port.
	RuleURLSyntax = problem.RuleURLSyntax
	// RuleURLHTTPS: the scheme is not https.
	RuleURLHTTPS = problem.RuleURLHTTPS
	// RuleURLUserinfo: the URL carries credentials (user information).
	RuleURLUserinfo = problem.RuleURLUserinfo
	// RuleURLQuery: the URL has a query, even an empty one.
	RuleURLQuery = problem.RuleURLQuery
	// RuleURLFragment: the URL has a fragment, even an empty one.
	RuleURLFragment = problem.RuleURLFragment
	// RuleURLPort: the URL names a port other than 443.
	RuleURLPort = problem.RuleURLPort
	// RuleURLPrivateAddress: the host is localhost, a name under
	// .localhost or .local, an IP literal that is not public unicast, or a
	// numeric host in a non-canonical form.
	RuleURLPrivateAddress = problem.RuleURLPrivateAddress
)

// Rule names of the semantic rules of a site profile that the schema cannot
// state ([Agentic Site Profile 1.1], section "Required JSON fields", "Resource
// records", "OpenAPI indexes").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
const (
	// RuleOriginForm: origin is not a bare https origin in canonical form.
	RuleOriginForm = "origin-form"
	// RuleRetrievedRequired: no resource has availability "retrieved".
	RuleRetrievedRequired = "retrieved-required"
	// RuleResourceDuplicate: a (kind, url) pair is repeated.
	RuleResourceDuplicate = "resource-duplicate"
	// RuleDocumentBinding: an API document is not the url of a retrieved
	// openapi resource of the profile.
	RuleDocumentBinding = "document-binding"
	// RulePathForm: an operation path does not start with exactly one "/"
	// or contains "?", "#" or "\".
	RulePathForm = "path-form"
	// RuleOperationDuplicate: a (method, path) pair is repeated within an API.
	RuleOperationDuplicate = "operation-duplicate"
	// RuleProfileSize: the compact JSON is over 64 KiB.
	RuleProfileSize = "profile-size"
	// RuleStringUTF8: a string of a Site built in code is not valid UTF-8.
	RuleStringUTF8 = "string-utf8"
)

// Rule names of the JSON Schema and strict JSON layers. A schema failure is
// [RuleSchemaPrefix] followed by the failing keyword ("schema-required",
// "schema-maxLength", "schema-additionalProperties", ...); a document that
// is not a JSON object is [RuleSchemaType].
const (
	RuleSchemaPrefix = problem.RuleSchemaPrefix
	RuleSchemaType   = problem.RuleSchemaPrefix + "type"

	RuleJSONSyntax      = strictjson.RuleSyntax
	RuleJSONBOM         = strictjson.RuleBOM
	RuleJSONUTF8        = strictjson.RuleUTF8
	RuleJSONSurrogate   = strictjson.RuleSurrogate
	RuleJSONDuplicate   = strictjson.RuleDuplicate
	RuleJSONDepth       = strictjson.RuleDepth
	RuleJSONTrailing    = strictjson.RuleTrailing
	RuleJSONNumberRange = strictjson.RuleNumberRange
)

// Rule names of [ParseActionProfile], which reads only the members the
// Action TXT 1.0 index needs.
const (
	// RuleActionVersion: agentic is not "1.0.0", or a type member is present.
	RuleActionVersion = "action-version"
	// RuleActionOrigin: origin is missing or not a bare https origin.
	RuleActionOrigin = "action-origin"
	// RuleActionList: actions is missing or not an array of {id, description}.
	RuleActionList = "action-list"
)

const (
	maxProblems            = 1000 // bound on the problems reported for one document
	maxReportedValueLength = 80   // values quoted in messages are cut to this many bytes
)

// ruleSections names the section of [Agentic Site Profile 1.1] that states
// each rule, for the problems whose position names no closer one
// (siteSection). Every rule cites one. Strict JSON and the string rules
// belong to "Required JSON fields", since the schema defines exact fields.
// The size bound belongs to "Discovery and auditing", which keeps the file
// size bounded. The Action Profile reader belongs to "Tools and
// compatibility".
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
var ruleSections = map[string]string{
	RuleURLSyntax: sectionResourceRecords, RuleURLHTTPS: sectionResourceRecords, RuleURLUserinfo: sectionResourceRecords,
	RuleURLQuery: sectionResourceRecords, RuleURLFragment: sectionResourceRecords, RuleURLPort: sectionResourceRecords,
	RuleURLPrivateAddress: sectionResourceRecords,
	RuleOriginForm:        sectionRequiredFields, RuleRetrievedRequired: sectionRequiredFields,
	RuleResourceDuplicate: sectionResourceRecords,
	RuleDocumentBinding:   sectionOpenAPIIndexes, RulePathForm: sectionOpenAPIIndexes, RuleOperationDuplicate: sectionOpenAPIIndexes,
	RuleProfileSize:  "Discovery and auditing",
	RuleStringUTF8:   sectionRequiredFields,
	RuleSchemaPrefix: sectionRequiredFields, RuleSchemaType: sectionRequiredFields,
	RuleJSONSyntax: sectionRequiredFields, RuleJSONBOM: sectionRequiredFields, RuleJSONUTF8: sectionRequiredFields,
	RuleJSONSurrogate: sectionRequiredFields, RuleJSONDuplicate: sectionRequiredFields, RuleJSONDepth: sectionRequiredFields,
	RuleJSONTrailing: sectionRequiredFields, RuleJSONNumberRange: sectionRequiredFields,
	RuleActionVersion: sectionTools, RuleActionOrigin: sectionTools, RuleActionList: sectionTools,
	"json-": sectionRequiredFields,
}

const sectionTools = "Tools and compatibility"

// invalid returns the *ValidationError of a list of problems, each citing
// its section.
func invalid(ps []Problem) *ValidationError {
	return problem.New(problem.Cite(ps, ruleSections), ErrInvalid)
}

// jsonProblem turns a strict JSON failure into its one problem.
func jsonProblem(err error) *ValidationError {
	var je *strictjson.Error
	if errors.As(err, &je) {
		return invalid([]Problem{{Pointer: je.Pointer, Rule: je.Rule, Message: je.Message}})
	}
	return invalid([]Problem{{Rule: RuleJSONSyntax, Message: err.Error()}})
}
