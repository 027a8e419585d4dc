package openagent

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// schemaJSON is the agent profile schema written from the OpenAgent 0.1 page
// and the reference's agent schema: draft 2020-12, additionalProperties false
// at the top level and inside pricing.
//
//go:embed agent-0.1.schema.json
var schemaJSON []byte

// SchemaURL is the identifier of the embedded schema. It is never fetched.
const SchemaURL = "https://schemas.agentweb.invalid/openagent/agent-0.1.json"

var agentSchema = sync.OnceValue(func() *schema.Schema {
	return schema.MustCompile(SchemaURL, schemaJSON)
})

// Schema returns a copy of the embedded JSON Schema (draft 2020-12) that
// [Parse] applies, for publishers who want to run it elsewhere.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }

// ErrInvalid is wrapped by every *[ValidationError].
var ErrInvalid = errors.New("openagent: invalid profile")

// ErrUnsupportedVersion is matched (errors.Is) by a *[ValidationError] that
// includes a [RuleVersionUnsupported] problem: the version is well formed but
// is not 0.1, which is the only version this reader supports.
var ErrUnsupportedVersion = errors.New("openagent: unsupported version")

// Rule names of [Problem.Rule]. They are stable: callers and tests may branch
// on them. Syntax problems found while decoding carry the rule names of the
// strict JSON decoder ("json-syntax", "json-duplicate-member", "json-bom",
// "json-utf8", "json-surrogate", "json-depth", "json-trailing-data",
// "json-number-range"): a profile must be I-JSON. A schema failure that no
// rule below explains carries "schema-" followed by the failing keyword, as
// in every package of this module.
const (
	RuleSchemaRequired             = "schema-required"             // a required member is absent
	RuleSchemaAdditionalProperties = "schema-additionalProperties" // a member the schema does not define
	RuleSchemaType                 = "schema-type"                 // a value of the wrong JSON type
	RuleSchemaPrefix               = problem.RuleSchemaPrefix      // starts any other schema failure's rule
	RuleType                       = "type-value"                  // type is not "logicsrc.agent"
	RuleVersionSyntax              = "version-syntax"              // version is not major.minor[.patch]
	RuleVersionUnsupported         = "version-unsupported"         // a well-formed version other than 0.1
	RuleNameLength                 = "name-length"                 // name is not 1 to 120 characters
	RuleDIDSyntax                  = "did-syntax"                  // did or owner_did does not match the LogicSRC pattern
	RuleSkillsEmpty                = "skills-empty"                // skills has no item
	RuleEmptyItem                  = "empty-item"                  // an empty skill or task type
	RuleDuplicateItem              = "duplicate-item"              // a repeated skill, task type or permission
	RulePermissionSyntax           = "permission-syntax"           // a scope that is not resource[:action]
	RulePricingModel               = "pricing-model"               // model is not free, per_task, hourly or subscription
	RulePricingAmount              = "pricing-amount"              // amount is negative
	RulePricingCurrency            = "pricing-currency"            // currency is not 2 to 12 characters
	RuleURLSyntax                  = problem.RuleURLSyntax         // webhook_url is not an absolute URI (RFC 3986)
)

// Problem is one reason a document is not a valid OpenAgent 0.1 profile, or
// one finding of [CheckPublic]. It is the Problem of every package of this
// module.
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

// Severity says how much a [Problem] weighs; [Parse] reports only
// [SeverityError], [CheckPublic] also [SeverityWarning].
//
// Severity is an alias of the module's one Severity type (a uint8 whose
// zero value is SeverityError); go doc does not show an alias's methods,
// so here they are:
//
//	func (s Severity) String() string               // "error", "warning" or "notice"
//	func (s Severity) MarshalText() ([]byte, error) // its String, in JSON
//	func (s *Severity) UnmarshalText(b []byte) error // reads "error", "warning" or "notice"
type Severity = problem.Severity

// The severities of a [Problem].
const (
	SeverityError   = problem.SeverityError
	SeverityWarning = problem.SeverityWarning
)

// ValidationError lists every problem [Parse] found in a document, sorted by
// pointer then rule; Source is the descriptor URL when the document was
// fetched. It unwraps to [ErrInvalid], and also to [ErrUnsupportedVersion]
// when one of its problems is an unsupported version.
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

// The sections of [OpenAgent 0.1] the rules cite.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
const (
	sectionRecord      = "The record"
	sectionIdentity    = "Identity and ownership"
	sectionSkills      = "Skills and permissions"
	sectionPublication = "Publication and discovery"
)

// ruleSections names the section of OpenAgent 0.1 that states each rule:
// every rule cites one. Strict JSON and the schema's keywords belong to
// "The record" (the schema defines the document), the public-file rules to
// "Publication and discovery" ("Public files must contain no access
// tokens, private keys or private workspace paths").
var ruleSections = map[string]string{
	RuleSchemaRequired: sectionRecord, RuleSchemaAdditionalProperties: sectionRecord, RuleSchemaType: sectionRecord,
	RuleSchemaPrefix: sectionRecord, "json-": sectionRecord,
	RuleType: sectionRecord, RuleVersionSyntax: sectionRecord, RuleVersionUnsupported: sectionRecord,
	RuleNameLength: sectionRecord, RuleDIDSyntax: sectionIdentity,
	RuleSkillsEmpty: sectionRecord, RuleEmptyItem: sectionRecord, RuleDuplicateItem: sectionRecord,
	RulePermissionSyntax: sectionSkills,
	RulePricingModel:     sectionRecord, RulePricingAmount: sectionRecord, RulePricingCurrency: sectionRecord,
	RuleURLSyntax:   sectionRecord,
	RuleAccessToken: sectionPublication, RuleCredentialInURL: sectionPublication, RulePrivateKey: sectionPublication,
	RulePrivateJWK: sectionPublication, RuleWorkspacePath: sectionPublication, RuleFileURL: sectionPublication,
	RulePublicFalse: sectionPublication,
}

// invalid builds the *ValidationError of ps, each problem citing its
// section.
func invalid(ps []Problem) *ValidationError {
	ps = problem.Cite(ps, ruleSections)
	for _, p := range ps {
		if p.Rule == RuleVersionUnsupported {
			return problem.New(ps, ErrInvalid, ErrUnsupportedVersion)
		}
	}
	return problem.New(ps, ErrInvalid)
}

// Parse reads an OpenAgent 0.1 profile ([OpenAgent 0.1], "The record").
//
// The document must be strict JSON: UTF-8, no duplicate member, no byte-order
// mark, finite numbers. It must be valid against the embedded schema (seven
// required members, no extra member, identity and scope patterns, pricing
// members). It must be of version 0.1. On any failure Parse returns a nil
// profile and a *[ValidationError] listing every problem at once, each with a
// JSON Pointer and a rule name. A well-formed version other than 0.1 is
// reported as [RuleVersionUnsupported] (errors.Is(err,
// [ErrUnsupportedVersion])); it is never rewritten.
//
// A valid profile is still a set of unverified claims; see [Profile].
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func Parse(data []byte) (*Profile, error) {
	tree, err := strictjson.Decode(data)
	if err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) {
			return nil, invalid([]Problem{{Pointer: se.Pointer, Rule: se.Rule, Message: se.Message}})
		}
		return nil, fmt.Errorf("openagent: %w", err)
	}
	if problems := check(tree); len(problems) > 0 {
		return nil, invalid(problems)
	}
	return fromTree(tree.(map[string]any)), nil
}

// check returns every problem of a decoded document, sorted and without
// duplicates.
func check(tree any) []Problem {
	var problems []Problem
	for _, v := range agentSchema().Validate(tree) {
		problems = append(problems, explain(tree, v)...)
	}
	if obj, ok := tree.(map[string]any); ok {
		if w, ok := obj["webhook_url"].(string); ok && !isURI(w) {
			// The schema library's "uri" format is Go's lenient URL parser;
			// the reference validator (Ajv with ajv-formats) holds the value
			// to RFC 3986, and so does this reader.
			problems = append(problems, Problem{Pointer: "/webhook_url", Rule: RuleURLSyntax, Message: uriMessage(w)})
		}
		if v, ok := obj["version"].(string); ok && isVersion(v) && v != Version {
			problems = append(problems, Problem{
				Pointer: "/version",
				Rule:    RuleVersionUnsupported,
				Message: fmt.Sprintf("version %q is well formed but not supported: this reader supports OpenAgent %s only and does not rewrite other versions", v, Version),
			})
		}
	}
	sort.Slice(problems, func(i, j int) bool {
		if problems[i].Pointer != problems[j].Pointer {
			return problems[i].Pointer < problems[j].Pointer
		}
		return problems[i].Rule < problems[j].Rule
	})
	out := problems[:0]
	for i, p := range problems {
		if i > 0 && p.Pointer == problems[i-1].Pointer && p.Rule == problems[i-1].Rule {
			continue
		}
		out = append(out, p)
	}
	return out
}

// members of the top-level object and of pricing, in schema order.
var (
	topMembers = []string{"type", "version", "name", "did", "owner_did", "description", "skills",
		"supported_task_types", "permissions_requested", "pricing", "webhook_url", "polling_mode",
		"public", "logicsrc_compatibility_version"}
	requiredMembers = []string{"type", "version", "name", "did", "owner_did", "skills", "permissions_requested"}
	pricingMembers  = []string{"model", "amount", "currency"}
)

// explain turns one schema violation into problems with this package's rule
// names, pointers and messages.
func explain(tree any, v schema.Violation) []Problem {
	tokens := splitPointer(v.Pointer)
	field := ""
	if len(tokens) > 0 {
		field = tokens[0]
	}
	if field == "pricing" && len(tokens) > 1 {
		field = "pricing/" + tokens[1]
	}
	at := func(rule, msg string) []Problem { return []Problem{{Pointer: v.Pointer, Rule: rule, Message: msg}} }
	switch v.Keyword {
	case "required":
		if obj, ok := lookup(tree, tokens).(map[string]any); ok {
			// The violation names the object: find the missing members.
			var out []Problem
			for _, m := range requiredMembers {
				if _, ok := obj[m]; !ok {
					out = append(out, missing(v.Pointer+"/"+m, m))
				}
			}
			return out
		}
		return []Problem{missing(v.Pointer, tokens[len(tokens)-1])}
	case "additionalProperties":
		if v.Pointer == "" || v.Pointer == "/pricing" {
			// The violation names the object: find the extra members.
			obj, _ := lookup(tree, tokens).(map[string]any)
			var out []Problem
			for k := range obj {
				if (v.Pointer == "" && !slices.Contains(topMembers, k)) || (v.Pointer != "" && !slices.Contains(pricingMembers, k)) {
					out = append(out, unknown(v.Pointer+"/"+escapeToken(k), k, v.Pointer != ""))
				}
			}
			return out
		}
		return []Problem{unknown(v.Pointer, tokens[len(tokens)-1], len(tokens) == 2 && tokens[0] == "pricing")}
	case "type":
		if v.Pointer == "" {
			return at(RuleSchemaType, "an OpenAgent profile is a single JSON object (the well-known document is one profile, not an array or a directory)")
		}
		return at(RuleSchemaType, fmt.Sprintf("wrong JSON type: %s", v.Message))
	case "const":
		if field == "type" {
			return at(RuleType, fmt.Sprintf(`type must be exactly %q`, Type))
		}
	case "pattern":
		s, _ := lookup(tree, tokens).(string)
		switch field {
		case "version":
			return at(RuleVersionSyntax, fmt.Sprintf("version %q is not a numeric major.minor or major.minor.patch version such as %q", s, Version))
		case "did", "owner_did":
			if strings.HasPrefix(strings.ToLower(s), "did:") {
				return at(RuleDIDSyntax, fmt.Sprintf("%s %q is a W3C decentralized identifier, not a LogicSRC identity: OpenAgent 0.1 identities are LogicSRC names such as research.coinpay", field, s))
			}
			return at(RuleDIDSyntax, fmt.Sprintf("%s %q is not a LogicSRC identity: it must match ^[a-z0-9][a-z0-9._-]*\\.[a-z0-9][a-z0-9._-]*$ (a lower-case name with a dot, such as research.coinpay; not a URL)", field, s))
		case "permissions_requested":
			if strings.Contains(s, "*") {
				return at(RulePermissionSyntax, fmt.Sprintf("permission %q contains a wildcard; wildcards are not part of the OpenAgent profile format: request each scope explicitly", s))
			}
			return at(RulePermissionSyntax, fmt.Sprintf("permission %q is not a scope: a lower-case resource name, optionally one colon and a lower-case action, such as web:read", s))
		}
	case "minLength", "maxLength":
		switch field {
		case "name":
			return at(RuleNameLength, "name must be 1 to 120 characters")
		case "pricing/currency":
			return at(RulePricingCurrency, "pricing currency must be 2 to 12 characters")
		case "skills", "supported_task_types":
			return at(RuleEmptyItem, fmt.Sprintf("%s items must be non-empty strings", field))
		}
	case "minItems":
		if field == "skills" {
			return at(RuleSkillsEmpty, "skills must name at least one advertised specialty")
		}
	case "uniqueItems":
		arr, _ := lookup(tree, tokens).([]any)
		var out []Problem
		seen := make(map[string]bool, len(arr))
		for i, it := range arr {
			key := fmt.Sprintf("%T:%v", it, it)
			if seen[key] {
				out = append(out, Problem{Pointer: v.Pointer + "/" + strconv.Itoa(i), Rule: RuleDuplicateItem,
					Message: fmt.Sprintf("%s item %v repeats an earlier item; items must be unique", field, it)})
			}
			seen[key] = true
		}
		if len(out) > 0 {
			return out
		}
		return at(RuleDuplicateItem, fmt.Sprintf("%s items must be unique", field))
	case "enum":
		if field == "pricing/model" {
			return at(RulePricingModel, "pricing model must be one of free, per_task, hourly, subscription")
		}
	case "minimum":
		if field == "pricing/amount" {
			return at(RulePricingAmount, "pricing amount must be a non-negative number")
		}
	case "format":
		if field == "webhook_url" {
			s, _ := lookup(tree, tokens).(string)
			return at(RuleURLSyntax, uriMessage(s))
		}
	}
	return at(RuleSchemaPrefix+v.Keyword, fmt.Sprintf("%s: %s", v.Keyword, v.Message))
}

func missing(ptr, name string) Problem {
	return Problem{Pointer: ptr, Rule: RuleSchemaRequired,
		Message: fmt.Sprintf("required member %q is missing (seven members are required: %s)", name, strings.Join(requiredMembers, ", "))}
}

func unknown(ptr, name string, inPricing bool) Problem {
	where := "an OpenAgent 0.1 profile"
	if inPricing {
		where = "pricing (model, amount, currency)"
	}
	return Problem{Pointer: ptr, Rule: RuleSchemaAdditionalProperties,
		Message: fmt.Sprintf("member %q is not part of %s; the schema disallows extra properties, so put platform-specific data in a separate record linked by the host", name, where)}
}

// splitPointer returns the unescaped reference tokens of a JSON Pointer.
func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// lookup returns the value at the given tokens of a decoded tree, or nil.
func lookup(tree any, tokens []string) any {
	cur := tree
	for _, t := range tokens {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// fromTree builds a Profile from a schema-valid decoded tree.
func fromTree(obj map[string]any) *Profile {
	str := func(k string) string { s, _ := obj[k].(string); return s }
	list := func(k string) []string {
		arr, ok := obj[k].([]any)
		if !ok {
			return nil
		}
		out := make([]string, 0, len(arr))
		for _, v := range arr {
			s, _ := v.(string)
			out = append(out, s)
		}
		return out
	}
	boolp := func(k string) *bool {
		b, ok := obj[k].(bool)
		if !ok {
			return nil
		}
		return &b
	}
	p := &Profile{
		Type:                         str("type"),
		Version:                      str("version"),
		Name:                         str("name"),
		DID:                          str("did"),
		OwnerDID:                     str("owner_did"),
		Description:                  str("description"),
		Skills:                       list("skills"),
		SupportedTaskTypes:           list("supported_task_types"),
		PermissionsRequested:         list("permissions_requested"),
		WebhookURL:                   str("webhook_url"),
		PollingMode:                  boolp("polling_mode"),
		Public:                       boolp("public"),
		LogicSRCCompatibilityVersion: str("logicsrc_compatibility_version"),
	}
	if pr, ok := obj["pricing"].(map[string]any); ok {
		p.Pricing = &Pricing{}
		m, _ := pr["model"].(string)
		p.Pricing.Model = PricingModel(m)
		p.Pricing.Currency, _ = pr["currency"].(string)
		if n, ok := pr["amount"].(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				p.Pricing.Amount = &f
			}
		}
	}
	return p
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// isNameByte is the class [a-z0-9._-] of the identity pattern.
func isNameByte(c byte) bool {
	return isLower(c) || isDigit(c) || c == '.' || c == '_' || c == '-'
}

// isVersion matches the schema's version pattern ^\d+\.\d+(\.\d+)?$ (ASCII
// digits); check uses it to tell an unsupported version from a malformed one.
func isVersion(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 2 && len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !isDigit(p[i]) {
				return false
			}
		}
	}
	return true
}

// isDID matches the LogicSRC identity pattern
// ^[a-z0-9][a-z0-9._-]*\.[a-z0-9][a-z0-9._-]*$ ([OpenAgent 0.1],
// "Identity and ownership"), the schema's pattern for did and owner_did.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func isDID(s string) bool {
	if s == "" || !(isLower(s[0]) || isDigit(s[0])) {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isNameByte(c) {
			return false
		}
		if c == '.' && i > 0 && i+1 < len(s) && (isLower(s[i+1]) || isDigit(s[i+1])) {
			dot = true
		}
	}
	return dot
}
