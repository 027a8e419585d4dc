package agentsjson

import (
	"encoding/json"
	"errors"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// Problem is one finding of the reader or the writer. The reader reports a
// member it could not read in [Card.Skipped], with severity notice. The
// writer reports a value it will not write in a [*ValidationError].
//
// Problem is an alias of the module's one Problem type. Go doc does not
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

// ValidationError lists every problem that keeps [Card.Marshal] from
// writing a card. From [Parse], it says why a text could not be read at all.
//
// ValidationError is an alias of the module's one ValidationError type.
// Go doc does not show an alias's fields and methods, so here they are:
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

// Severity says how much a [Problem] weighs.
//
// Severity is an alias of the module's one Severity type, a uint8 whose
// zero value is SeverityError. Go doc does not show an alias's methods, so
// here they are:
//
//	func (s Severity) String() string               // "error", "warning" or "notice"
//	func (s Severity) MarshalText() ([]byte, error) // its String, in JSON
//	func (s *Severity) UnmarshalText(b []byte) error // reads "error", "warning" or "notice"
type Severity = problem.Severity

// The severities the package uses.
const (
	SeverityError  = problem.SeverityError
	SeverityNotice = problem.SeverityNotice
)

// Sentinels. Every error of [Parse] and [Card.Marshal] wraps exactly one of
// them.
var (
	// ErrInvalid: the text is not JSON (strict JSON, RFC 8259: no duplicate
	// member, valid UTF-8), or the card cannot be written.
	ErrInvalid = errors.New("agentsjson: invalid card")
	// ErrNotObject: the text is JSON, but not an object.
	ErrNotObject = errors.New("agentsjson: not a JSON object")
)

// The rule names of the package's problems.
const (
	// RuleSyntax and the other json-* rules are strict JSON's.
	RuleSyntax = strictjson.RuleSyntax
	// RuleNotObject: the document is not a JSON object.
	RuleNotObject = "card-not-object"
	// RuleShape: a recognised member does not have the shape its format
	// gives it, so it was skipped.
	RuleShape = "card-shape"
	// RuleLimit: a list is longer than [MaxItems]; the rest was skipped.
	RuleLimit = "card-limit"
	// RuleEmpty: the card names no publication, interface, sign-in or
	// contact, which is what a card is for.
	RuleEmpty = "card-empty"
	// RuleInterface: an interface has neither a URL nor a type.
	RuleInterface = "card-interface"
	// RuleContact: a contact has neither an email nor a URL.
	RuleContact = "card-contact"
	// RulePublishes: a publication has an empty name or URL.
	RulePublishes = "card-publishes"
)

// MaxItems bounds how many entries of any one list of a card are read. It
// also bounds how many interfaces a card holds. What lies past it is
// reported in [Card.Skipped].
const MaxItems = 256

// Format names an agents.json format the reader recognises.
type Format string

// The formats read by [Parse].
const (
	// FormatMethod is the agent-readiness scoring method's own card: name,
	// url, description, publishes, interfaces, auth, contact.
	FormatMethod Format = "agentweb"
	// FormatAgentsTxt is the JSON companion of the IETF agents.txt draft:
	// site, capabilities, access.
	FormatAgentsTxt Format = "draft-car-agents-txt"
	// FormatWildCard is wild-card-ai's agents.json: agentsJson, info,
	// sources, flows.
	FormatWildCard Format = "wild-card-ai"
	// FormatSiteInfo is the site_info draft: site_info, authentication,
	// intents, policies.
	FormatSiteInfo Format = "jmilinovich"
)

// formatOrder is the precedence of [Card.Format] when several formats'
// members are present.
var formatOrder = []Format{FormatMethod, FormatAgentsTxt, FormatWildCard, FormatSiteInfo}

// Card is a capability card as read, whatever format it came in. It holds
// what the site publishes, its interfaces, how to sign in and whom to contact.
type Card struct {
	// Format is the format read, or "" when none was recognised. When several
	// were seen, it is the first in the order the constants are declared.
	Format Format
	// Formats lists every format whose members were seen, sorted.
	Formats []Format
	// Foreign names a document of another kind found instead of a card. It
	// is one of "an A2A agent card", "an MCP server card", "an OpenAPI
	// document", "an Agentic Site Profile" and "a link set". It is set only
	// when no card format was recognised, and "" otherwise.
	Foreign string

	Name        string
	URL         string
	Description string
	// Publishes maps what the site publishes (llms_txt, sitemap, ...) to its
	// URL.
	Publishes map[string]string
	// Interfaces lists the tools and APIs the card names, from every format.
	// Empty but not nil: the card states that the site offers none.
	Interfaces []Interface
	// Auth is how an agent signs in, when the card says.
	Auth *Auth
	// Contact is where an agent hands a visitor to a person.
	Contact *Contact
	// Policies is true when the card states usage policies. They are the
	// site_info draft's policies or the agents.txt draft's access rules.
	Policies bool

	// Skipped lists what the reader saw but could not read, with the JSON
	// Pointer of each value (severity notice).
	Skipped []Problem
	// Extra keeps the top-level members no recognised format reads, as
	// their JSON text. Marshal writes them after the card's own members.
	Extra map[string]json.RawMessage
}

// Interface is one tool or API a card names.
type Interface struct {
	// ID is the interface's name in the card (id, name, or the intent type).
	ID string
	// Type is the lower-cased kind: "mcp", "openapi", "graphql", "a2a",
	// "intent", ... ("" when the card does not say).
	Type string
	// URL is the endpoint or document, as written (possibly relative to the
	// card).
	URL string
	// Auth is the sign-in the interface needs, as the card writes it
	// ("oauth2", "none", ...).
	Auth string
	// Source is the format the interface was read from.
	Source Format
}

// Auth is the card's sign-in section.
type Auth struct {
	Type     string
	Metadata string // the URL of the authorization server's metadata
	Required *bool
	Methods  []string
	// Public and TokenRequired name the capabilities that need no token and
	// those that need one.
	Public        []string
	TokenRequired []string
}

// Contact is where an agent hands a visitor to a person.
type Contact struct {
	Email, URL string
}

// Names lists which of the four things a card is for it names, in the order
// "publication", "interface", "sign-in", "contact".
func (c *Card) Names() []string {
	var out []string
	if len(c.Publishes) > 0 {
		out = append(out, "publication")
	}
	if len(c.Interfaces) > 0 {
		out = append(out, "interface")
	}
	if c.Auth != nil {
		out = append(out, "sign-in")
	}
	if c.Contact != nil {
		out = append(out, "contact")
	}
	return out
}
