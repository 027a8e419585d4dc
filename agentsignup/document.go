package agentsignup

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentweb/agentweb/internal/weburl"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// Protocol is the value of the protocol member of every agent-identity-v1
// discovery document.
const Protocol = "agent-identity-v1"

// WellKnownPath is where a relying party publishes its discovery document
// ([agent-identity-v1 discovery fields], "A relying party publishes one
// identity-only document at GET /.well-known/agent-signup.json").
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
const WellKnownPath = "/.well-known/agent-signup.json"

// MediaType is the content type of a discovery document.
const MediaType = "application/json"

// maxDocumentBytes caps the size of a document Parse accepts. terms.text
// must be the complete agreement, so the cap is generous; it matches the
// default body cap of safefetch.
const maxDocumentBytes = 1 << 20

// SchemaURL is the identifier of the embedded JSON Schema (draft 2020-12).
// It is never fetched.
const SchemaURL = "https://schemas.agentweb.invalid/agent-identity/v1/agent-signup.schema.json"

// Rule names of the problems Parse reports. They are stable: tools may
// branch on them. Problems found by the JSON Schema carry the rule
// "schema-" + the failing keyword (for example "schema-required",
// "schema-pattern", "schema-uniqueItems"); problems found by the strict JSON
// decoder carry its "json-..." rule.
const (
	// RuleTooLarge: the document is over 1 MiB.
	RuleTooLarge = "document-too-large"
	// RuleNotAgentIdentity: the document has no protocol member equal to
	// "agent-identity-v1" (another protocol shares the well-known path).
	// When it applies it is the only problem reported.
	RuleNotAgentIdentity = "not-agent-identity-v1"
	// RuleForbiddenField: a member of the forbidden table at any depth.
	RuleForbiddenField = "forbidden-field"
	// RuleExtensionNamespace: an extensions key that is not a reverse-DNS
	// namespace such as "com.example".
	RuleExtensionNamespace = "extension-namespace"
	// RuleTermsHash: terms.sha256 differs from TermsHash(terms.text).
	RuleTermsHash = "terms-hash-mismatch"
	// RuleURLSyntax: a URL member that is not an absolute URL with a host.
	RuleURLSyntax = problem.RuleURLSyntax
	// RuleURLHTTPS: a URL member whose scheme is not https.
	RuleURLHTTPS = problem.RuleURLHTTPS
	// RuleURLUserinfo: a URL member with userinfo (user:password@).
	RuleURLUserinfo = problem.RuleURLUserinfo
	// RuleIssuerNotOrigin: an issuer_allowlist entry that is not a canonical
	// https origin (scheme and host, default port dropped, no path).
	RuleIssuerNotOrigin = "issuer-not-origin"
	// RuleAttestationMalformed: rp_attestation is not a well-formed
	// agent-rp-attestation+jwt compact JWS (see [Verifier.Verify]).
	RuleAttestationMalformed = "attestation-malformed"
	// RuleUnknownField is the rule of a warning: an unknown member at the
	// top level or inside terms or endpoints. It is accepted.
	RuleUnknownField = "unknown-field"
	// RuleSchemaPrefix starts the rule of a JSON Schema failure:
	// "schema-" followed by the failing keyword.
	RuleSchemaPrefix = problem.RuleSchemaPrefix
)

// ErrInvalid is wrapped by every *ValidationError.
var ErrInvalid = errors.New("agentsignup: document does not conform")

// ErrNotAgentIdentity is wrapped by a *ValidationError whose only problem is
// RuleNotAgentIdentity: the document belongs to another protocol.
var ErrNotAgentIdentity = errors.New("agentsignup: not an agent-identity-v1 document")

// Problem is one conformance error or warning: a JSON Pointer, a rule (the
// Rule constants, "schema-<keyword>" or a strict JSON "json-..." rule) and a
// message. It is the Problem of every package of this module.
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

// Severity says how much a [Problem] weighs: Parse's errors are
// [SeverityError], the unknown members of Warnings [SeverityWarning].
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

// ValidationError lists every conformance problem of a document, sorted by
// pointer then rule, never only the first, and in Warnings the unknown
// members found in the same pass. It unwraps to [ErrInvalid], and also to
// [ErrNotAgentIdentity] when the document belongs to another protocol.
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

// ruleSections names the section of the [agent-identity-v1 discovery
// fields] page that states each rule: every rule cites one. The page has
// no numbered sections; these are its headings. The size bound and strict
// JSON are the validator's ("Verify": run the validator), the URL and
// issuer rules the field tables'.
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
var ruleSections = map[string]string{
	RuleTooLarge:             sectionVerify,
	RuleNotAgentIdentity:     sectionRequired,
	RuleForbiddenField:       "Forbidden fields",
	RuleExtensionNamespace:   sectionOptional,
	RuleTermsHash:            "Terms text and hash",
	RuleURLSyntax:            sectionRequired,
	RuleURLHTTPS:             sectionRequired,
	RuleURLUserinfo:          sectionRequired,
	RuleIssuerNotOrigin:      sectionRequired,
	RuleAttestationMalformed: "The optional provider verification credential",
	RuleUnknownField:         sectionOptional,
	RuleSchemaPrefix:         sectionRequired,
	"json-":                  sectionVerify,
}

const (
	sectionRequired = "Required fields"
	sectionOptional = "Optional fields"
	sectionVerify   = "Verify"
)

// invalid builds the *ValidationError of probs and warnings, each citing
// its section.
func invalid(probs, warnings []Problem) *ValidationError {
	probs, warnings = problem.Cite(probs, ruleSections), problem.Cite(warnings, ruleSections)
	var ve *ValidationError
	if len(probs) == 1 && probs[0].Rule == RuleNotAgentIdentity {
		ve = problem.New(probs, ErrNotAgentIdentity, ErrInvalid)
	} else {
		ve = problem.New(probs, ErrInvalid)
	}
	ve.Warnings = warnings
	return ve
}

// Document is an agent-identity-v1 discovery document. The field set is
// this project's reading of the "Required fields" and "Optional fields"
// tables, whose bodies the published page lost (see the package
// documentation). It is exactly the members of the page's minimal
// conformant example, plus the optional rp_attestation and extensions.
type Document struct {
	// Protocol is always "agent-identity-v1".
	Protocol string `json:"protocol"`
	// Audience identifies the relying party to the broker: non-empty, no
	// whitespace. An attestation's rp.audience must equal it.
	Audience string `json:"audience"`
	// ProviderName is the relying party's display name (1–160 characters).
	ProviderName string `json:"provider_name"`
	// IssuerAllowlist lists the broker origins (canonical https origins,
	// unique, at least one) whose assertions and attestations the relying
	// party accepts.
	IssuerAllowlist []string `json:"issuer_allowlist"`
	// RequiredScopes lists the scopes an assertion must carry (unique,
	// non-empty strings).
	RequiredScopes []string `json:"required_scopes"`
	// Terms is the agreement an agent accepts for its human owner.
	Terms Terms `json:"terms"`
	// Endpoints holds the signup endpoint.
	Endpoints Endpoints `json:"endpoints"`
	// RPAttestation is the optional provider verification credential, a
	// compact JWS ("The optional provider verification credential"). Its
	// form is checked by Parse; its trust by [Verifier.Verify].
	RPAttestation string `json:"rp_attestation,omitempty"`
	// Extensions maps reverse-DNS namespaces ("com.example") to objects of
	// non-capability metadata.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`

	// Unknown holds the unknown top-level members, accepted and reported in
	// Warnings ("Unknown additive fields must be ignored by consumers").
	Unknown map[string]json.RawMessage `json:"-"`
	// Warnings lists the unknown members (rule RuleUnknownField). They do not
	// fail conformance.
	Warnings []Problem `json:"-"`

	raw []byte
}

// Terms is the terms member ([agent-identity-v1 discovery fields], "Terms text
// and hash").
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
type Terms struct {
	// Version labels the agreement (non-empty).
	Version string `json:"version"`
	// URL is the https page of the agreement.
	URL string `json:"url"`
	// SHA256 is TermsHash(Text): "sha256:" + 64 lower-case hex digits.
	SHA256 string `json:"sha256"`
	// Text is the complete agreement, hashed byte for byte.
	Text string `json:"text"`
}

// Endpoints is the endpoints member.
type Endpoints struct {
	// AgentSignup is the https URL an agent calls to sign up.
	AgentSignup string `json:"agent_signup"`
}

// Bytes returns a copy of the exact bytes the document was parsed from (or
// that NewDocument produced).
func (d *Document) Bytes() []byte { return bytes.Clone(d.raw) }

//go:embed agent-signup.schema.json
var schemaJSON []byte

var compiledSchema = sync.OnceValue(func() *schema.Schema {
	return schema.MustCompile(SchemaURL, schemaJSON)
})

// Schema returns a copy of the embedded JSON Schema (draft 2020-12) that
// Parse applies before its cross-field rules.
func Schema() []byte { return bytes.Clone(schemaJSON) }

var (
	knownTop       = map[string]bool{"protocol": true, "audience": true, "provider_name": true, "issuer_allowlist": true, "required_scopes": true, "terms": true, "endpoints": true, "rp_attestation": true, "extensions": true}
	knownTerms     = map[string]bool{"version": true, "url": true, "sha256": true, "text": true}
	knownEndpoints = map[string]bool{"agent_signup": true}
)

// schemaMessages replaces the schema library's wording where a pattern alone
// would not tell a person what is wanted.
var schemaMessages = map[string]string{
	"/audience pattern":     "audience must be a non-empty string without whitespace",
	"/terms/sha256 pattern": `terms.sha256 must be "sha256:" followed by 64 lower-case hexadecimal digits (TermsHash of terms.text)`,
}

// Parse reads and validates a discovery document. It returns a usable
// *Document only when the document conforms; otherwise the error is a
// *ValidationError listing every problem at once, each with a JSON Pointer
// and a rule name. Warnings (unknown members) travel on the returned
// Document.
//
// The checks, in this project's reading of the discovery page:
//   - strict JSON (no duplicate members, no invalid UTF-8, no BOM, bounded
//     depth) and at most 1 MiB;
//   - a document without protocol "agent-identity-v1" gets one error,
//     RuleNotAgentIdentity, and nothing else: another protocol shares the path;
//   - the embedded JSON Schema (required members, types, lengths, formats);
//   - no forbidden member at any depth, extensions included (ForbiddenFields);
//   - extensions keys are reverse-DNS namespaces;
//   - terms.sha256 == TermsHash(terms.text), over the exact bytes;
//   - terms.url and endpoints.agent_signup are https URLs without userinfo,
//     and every issuer_allowlist entry is a canonical https origin;
//   - rp_attestation, when present, is a well-formed agent-rp-attestation+jwt
//     compact JWS (its trust is [Verifier.Verify]'s job).
func Parse(data []byte) (*Document, error) {
	if len(data) > maxDocumentBytes {
		return nil, invalid([]Problem{{
			Rule:    RuleTooLarge,
			Message: fmt.Sprintf("document is %d bytes, over the %d-byte cap", len(data), maxDocumentBytes),
		}}, nil)
	}
	tree, err := strictjson.Decode(data)
	if err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) {
			return nil, invalid([]Problem{{Pointer: se.Pointer, Rule: se.Rule, Message: se.Message}}, nil)
		}
		return nil, invalid([]Problem{{Rule: strictjson.RuleSyntax, Message: err.Error()}}, nil)
	}
	obj, ok := tree.(map[string]any)
	if !ok || obj["protocol"] != Protocol {
		return nil, invalid([]Problem{notAgentIdentity(tree)}, nil)
	}

	var probs []Problem
	for _, v := range compiledSchema().Validate(tree) {
		msg := v.Message
		if m, ok := schemaMessages[v.Pointer+" "+v.Keyword]; ok {
			msg = m
		}
		probs = append(probs, Problem{Pointer: v.Pointer, Rule: RuleSchemaPrefix + v.Keyword, Message: msg})
	}
	probs = findForbidden(obj, "", probs)
	probs = checkExtensions(obj, probs)
	probs = checkTermsHash(obj, probs)
	probs = checkURLs(obj, probs)
	if s, ok := obj["rp_attestation"].(string); ok {
		if _, err := parseToken(s); err != nil {
			probs = append(probs, Problem{Pointer: "/rp_attestation", Rule: RuleAttestationMalformed, Message: err.Error()})
		}
	}
	warnings := unknownMembers(obj)
	if len(probs) > 0 {
		sortProblems(probs)
		return nil, invalid(probs, warnings)
	}

	d := fromTree(obj)
	d.Warnings = problem.Cite(warnings, ruleSections)
	d.raw = bytes.Clone(data)
	return d, nil
}

// fromTree builds the typed document from a tree the schema has accepted,
// so every known member has its schema type.
func fromTree(obj map[string]any) *Document {
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	strs := func(v any) []string {
		list, _ := v.([]any)
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, _ := e.(string)
			out = append(out, s)
		}
		return out
	}
	terms, _ := obj["terms"].(map[string]any)
	endpoints, _ := obj["endpoints"].(map[string]any)
	d := &Document{
		Protocol:        str(obj, "protocol"),
		Audience:        str(obj, "audience"),
		ProviderName:    str(obj, "provider_name"),
		IssuerAllowlist: strs(obj["issuer_allowlist"]),
		RequiredScopes:  strs(obj["required_scopes"]),
		Terms:           Terms{Version: str(terms, "version"), URL: str(terms, "url"), SHA256: str(terms, "sha256"), Text: str(terms, "text")},
		Endpoints:       Endpoints{AgentSignup: str(endpoints, "agent_signup")},
		RPAttestation:   str(obj, "rp_attestation"),
	}
	if ext, ok := obj["extensions"].(map[string]any); ok {
		d.Extensions = make(map[string]json.RawMessage, len(ext))
		for k, v := range ext {
			d.Extensions[k] = rawJSON(v)
		}
	}
	for k, v := range obj {
		if !knownTop[k] {
			if d.Unknown == nil {
				d.Unknown = make(map[string]json.RawMessage)
			}
			d.Unknown[k] = rawJSON(v)
		}
	}
	return d
}

// rawJSON re-encodes a value of the strict tree. Such values always encode
// (strings are valid UTF-8, numbers are json.Number).
func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

func notAgentIdentity(tree any) Problem {
	p := Problem{Rule: RuleNotAgentIdentity}
	obj, ok := tree.(map[string]any)
	switch {
	case !ok:
		p.Message = "not an agent-identity-v1 document (not a JSON object)"
	case obj["protocol"] == nil:
		p.Message = "not an agent-identity-v1 document (no protocol member; another protocol also uses " + WellKnownPath + ")"
	default:
		p.Pointer = "/protocol"
		desc, _ := json.Marshal(obj["protocol"])
		if len(desc) > 80 {
			desc = append(desc[:77:77], "..."...)
		}
		p.Message = "not an agent-identity-v1 document (protocol is " + string(desc) + ")"
	}
	return p
}

func unknownMembers(obj map[string]any) []Problem {
	var out []Problem
	add := func(prefix string, m map[string]any, known map[string]bool) {
		for k := range m { // sorted below
			if known[k] {
				continue
			}
			if _, forbidden := forbiddenName(k); forbidden {
				continue
			}
			out = append(out, Problem{
				Pointer:  prefix + "/" + escapePointer(k),
				Rule:     RuleUnknownField,
				Severity: SeverityWarning,
				Message:  "unknown member " + quote(k) + " accepted and ignored (put non-capability metadata under extensions.<reverse-dns-namespace>)",
			})
		}
	}
	add("", obj, knownTop)
	if t, ok := obj["terms"].(map[string]any); ok {
		add("/terms", t, knownTerms)
	}
	if e, ok := obj["endpoints"].(map[string]any); ok {
		add("/endpoints", e, knownEndpoints)
	}
	sortProblems(out)
	return out
}

func checkExtensions(obj map[string]any, out []Problem) []Problem {
	ext, ok := obj["extensions"].(map[string]any)
	if !ok {
		return out
	}
	for _, k := range sortedKeys(ext) {
		if _, forbidden := forbiddenName(k); forbidden {
			continue // reported once, as a forbidden member
		}
		if !IsReverseDNS(k) {
			out = append(out, Problem{
				Pointer: "/extensions/" + escapePointer(k),
				Rule:    RuleExtensionNamespace,
				Message: "extensions key " + quote(k) + " is not a reverse-DNS namespace such as \"com.example\"",
			})
		}
	}
	return out
}

// IsReverseDNS reports whether s is a reverse-DNS namespace as extensions
// keys must be. That is at least two dot-separated lower-case labels of
// letters, digits and inner hyphens, each 1–63 characters, at most 253 in
// all. The first label, a top-level domain, starts with a letter.
// "com.example" and "dev.agentregistrar.beta" qualify; "example",
// "Com.Example", "example.com." and "x_y.z" do not.
func IsReverseDNS(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for i, l := range labels {
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		if i == 0 && (l[0] < 'a' || l[0] > 'z') {
			return false
		}
		for j := 0; j < len(l); j++ {
			c := l[j]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

func checkTermsHash(obj map[string]any, out []Problem) []Problem {
	terms, ok := obj["terms"].(map[string]any)
	if !ok {
		return out
	}
	sum, ok1 := terms["sha256"].(string)
	text, ok2 := terms["text"].(string)
	if !ok1 || !ok2 || text == "" || !isTermsHashForm(sum) {
		return out // the schema reports the member itself
	}
	// Compare the digests as bytes: the hex form is built only for the
	// message of a mismatch.
	if termsDigestOf(sum) == sha256.Sum256([]byte(text)) {
		return out
	}
	if want := TermsHash(text); sum != want {
		out = append(out, Problem{
			Pointer: "/terms/sha256",
			Rule:    RuleTermsHash,
			Message: "terms.sha256 is " + sum + " but the SHA-256 of the exact bytes of terms.text is " + want,
		})
	}
	return out
}

// termsDigestOf decodes the digest of a terms.sha256 value in the form
// isTermsHashForm accepts ("sha256:" and 64 lower-case hex digits).
func termsDigestOf(sum string) (d [sha256.Size]byte) {
	hexDigit := func(c byte) byte {
		if c <= '9' {
			return c - '0'
		}
		return c - 'a' + 10
	}
	h := sum[len("sha256:"):]
	for i := range d {
		d[i] = hexDigit(h[2*i])<<4 | hexDigit(h[2*i+1])
	}
	return d
}

func checkURLs(obj map[string]any, out []Problem) []Problem {
	if terms, ok := obj["terms"].(map[string]any); ok {
		if s, ok := terms["url"].(string); ok {
			out = appendURLProblem(out, "/terms/url", s)
		}
	}
	if ep, ok := obj["endpoints"].(map[string]any); ok {
		if s, ok := ep["agent_signup"].(string); ok {
			out = appendURLProblem(out, "/endpoints/agent_signup", s)
		}
	}
	if list, ok := obj["issuer_allowlist"].([]any); ok {
		for i, e := range list {
			s, ok := e.(string)
			if !ok {
				continue
			}
			ptr := "/issuer_allowlist/" + itoa(i)
			if host, ok := plainHTTPSURL(s); ok && s == "https://"+host {
				// A bare https origin of a lower-case LDH host is canonical
				// when the host is a valid name.
				if h, err := weburl.NormalizeHost(host); err == nil && h == host {
					continue
				}
			}
			p, u, bad := parsedURLProblem(ptr, s)
			if bad {
				out = append(out, p)
				continue
			}
			canon, err := canonicalOriginOf(u)
			if err != nil || canon != s {
				msg := "issuer " + quote(s) + " is not a canonical https origin (scheme and host only, lower case, default port dropped, no path)"
				if err == nil {
					msg += "; did you mean " + quote(canon) + "?"
				}
				out = append(out, Problem{Pointer: ptr, Rule: RuleIssuerNotOrigin, Message: msg})
			}
		}
	}
	return out
}

func appendURLProblem(out []Problem, ptr, s string) []Problem {
	if p, bad := urlProblem(ptr, s); bad {
		out = append(out, p)
	}
	return out
}

func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Pointer != ps[j].Pointer {
			return ps[i].Pointer < ps[j].Pointer
		}
		return ps[i].Rule < ps[j].Rule
	})
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// escapePointer escapes one JSON Pointer reference token (RFC 6901 Section 3).
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func quote(s string) string {
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return strconv.Quote(s)
}

func itoa(i int) string { return strconv.Itoa(i) }
