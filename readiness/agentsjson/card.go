package agentsjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// Problem is one finding of the reader or the writer: a member it could not
// read ([Card.Skipped], severity notice) or a value it will not write (in the
// [*ValidationError] of [Card.Marshal]).
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

// ValidationError lists every problem of a card that [Card.Marshal] refuses
// to write, or why [Parse] could not read a text at all.
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

// Severity says how much a [Problem] weighs.
//
// Severity is an alias of the module's one Severity type (a uint8 whose
// zero value is SeverityError); go doc does not show an alias's methods,
// so here they are:
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

// MaxItems bounds how many entries of any one list of a card are read, and
// how many interfaces a card holds; what lies past it is reported in
// [Card.Skipped].
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

// Card is a capability card as read: what the site publishes, its interfaces,
// how to sign in and whom to contact, whatever format it came in.
type Card struct {
	// Format is the format read: the first of Formats in the order the
	// constants are declared, or "" when no format was recognised.
	Format Format
	// Formats lists every format whose members were seen, sorted.
	Formats []Format
	// Foreign names a document of another kind found instead of a card
	// ("an A2A agent card", "an MCP server card", "an OpenAPI document",
	// "an Agentic Site Profile", "a link set"); "" otherwise. It is set only
	// when no card format was recognised.
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
	// Policies is true when the card states usage policies (the site_info
	// draft's policies, the agents.txt draft's access rules).
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

// Parse reads an agents.json text tolerantly. The text must be strict JSON
// (an error wrapping [ErrInvalid], with strict JSON's rule and pointer,
// otherwise) holding an object (else [ErrNotObject]); every other
// irregularity is read around and reported in [Card.Skipped]. A JSON object
// in no recognised format gives a card with an empty Format (and Foreign set
// when it is a known document of another kind).
func Parse(data []byte) (*Card, error) {
	v, err := strictjson.Decode(data)
	if err != nil {
		var se *strictjson.Error
		p := Problem{Rule: RuleSyntax, Message: err.Error()}
		if errors.As(err, &se) {
			p = Problem{Pointer: se.Pointer, Rule: se.Rule, Message: se.Message}
		}
		return nil, problem.New([]Problem{p}, ErrInvalid)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, problem.New([]Problem{{Rule: RuleNotObject, Message: "the card is not a JSON object"}}, ErrNotObject)
	}
	c := read(m)
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) == nil {
		for k, r := range raw {
			if !readMembers[k] && !(k == "source" && (&reader{}).singularSource(m)) {
				if c.Extra == nil {
					c.Extra = map[string]json.RawMessage{}
				}
				c.Extra[k] = r
			}
		}
	}
	return c, nil
}

// readMembers are the top-level members some recognised format reads.
var readMembers = map[string]bool{
	"name": true, "url": true, "description": true, "publishes": true, "interfaces": true, "auth": true, "contact": true,
	"site": true, "capabilities": true, "access": true,
	"info": true, "sources": true, "flows": true,
	"site_info": true, "authentication": true, "intents": true, "policies": true,
}

type reader struct {
	c       *Card
	formats map[Format]bool
}

func (r *reader) skip(pointer, rule, format string, args ...any) {
	if len(r.c.Skipped) < MaxItems {
		r.c.Skipped = append(r.c.Skipped, Problem{Pointer: pointer, Rule: rule, Message: fmt.Sprintf(format, args...), Severity: SeverityNotice})
	}
}

// list returns v as a bounded array, reporting a wrong shape or a cut.
func (r *reader) list(v any, pointer string) []any {
	if v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		r.skip(pointer, RuleShape, "not an array")
		return nil
	}
	if len(l) > MaxItems {
		r.skip(pointer, RuleLimit, "%d entries; only the first %d read", len(l), MaxItems)
		l = l[:MaxItems]
	}
	return l
}

func (r *reader) addInterface(it Interface) bool {
	if len(r.c.Interfaces) >= MaxItems {
		r.skip("", RuleLimit, "more than %d interfaces; the rest skipped", MaxItems)
		return false
	}
	r.formats[it.Source] = true
	r.c.Interfaces = append(r.c.Interfaces, it)
	return true
}

func read(m map[string]any) *Card {
	r := &reader{c: &Card{}, formats: map[Format]bool{}}
	c := r.c
	r.readMethod(m)
	r.readAgentsTxt(m)
	r.readWildCard(m)
	r.readSiteInfo(m)
	for _, f := range formatOrder {
		if r.formats[f] {
			c.Formats = append(c.Formats, f)
		}
	}
	sort.Slice(c.Formats, func(i, j int) bool { return c.Formats[i] < c.Formats[j] })
	for _, f := range formatOrder {
		if r.formats[f] {
			c.Format = f
			break
		}
	}
	if c.Format == "" {
		c.Foreign = foreignKind(m)
	}
	return c
}

// readMethod reads the method's own card.
func (r *reader) readMethod(m map[string]any) {
	c := r.c
	c.Name = str(m["name"])
	c.URL = str(m["url"])
	c.Description = str(m["description"])
	if v, present := m["publishes"]; present {
		pub, ok := v.(map[string]any)
		if !ok {
			r.skip("/publishes", RuleShape, "not an object of names and URLs")
		}
		keys := make([]string, 0, len(pub))
		for k := range pub {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			u := str(pub[k])
			if u == "" {
				r.skip("/publishes/"+escape(k), RuleShape, "not a URL string")
				continue
			}
			if len(c.Publishes) >= MaxItems {
				r.skip("/publishes", RuleLimit, "more than %d publications; the rest skipped", MaxItems)
				break
			}
			if c.Publishes == nil {
				c.Publishes = map[string]string{}
			}
			c.Publishes[k] = u
			r.formats[FormatMethod] = true
		}
	}
	if l, ok := m["interfaces"].([]any); ok && len(l) == 0 {
		// The card states that the site offers no tool or API.
		c.Interfaces = []Interface{}
		r.formats[FormatMethod] = true
	}
	switch v := m["interfaces"].(type) {
	case nil:
	case map[string]any:
		// Some cards key their interfaces by name.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i >= MaxItems {
				r.skip("/interfaces", RuleLimit, "more than %d interfaces; the rest skipped", MaxItems)
				break
			}
			r.methodInterface(v[k], "/interfaces/"+escape(k), k)
		}
	default:
		for i, it := range r.list(v, "/interfaces") {
			r.methodInterface(it, fmt.Sprintf("/interfaces/%d", i), "")
		}
	}
	if v, present := m["auth"]; present {
		if a, ok := v.(map[string]any); ok {
			r.formats[FormatMethod] = true
			c.Auth = &Auth{Type: str(a["type"]), Metadata: str(a["metadata"]), Public: r.strs(a["public"], "/auth/public"), TokenRequired: r.strs(a["token_required"], "/auth/token_required")}
			if b, ok := a["required"].(bool); ok {
				c.Auth.Required = &b
			}
		} else if s := str(v); s != "" {
			r.formats[FormatMethod] = true
			c.Auth = &Auth{Type: s}
		} else {
			r.skip("/auth", RuleShape, "not an object")
		}
	}
	switch ct := m["contact"].(type) {
	case nil:
	case map[string]any:
		if str(ct["email"]) != "" || str(ct["url"]) != "" {
			r.formats[FormatMethod] = true
			c.Contact = &Contact{Email: strings.TrimPrefix(str(ct["email"]), "mailto:"), URL: str(ct["url"])}
		} else {
			r.skip("/contact", RuleShape, "neither an email nor a URL")
		}
	default:
		if s := str(ct); s != "" {
			c.Contact = contactFrom(s)
		} else {
			r.skip("/contact", RuleShape, "not an object or a string")
		}
	}
}

func (r *reader) methodInterface(v any, pointer, key string) {
	switch o := v.(type) {
	case map[string]any:
		it := Interface{ID: first(str(o["id"]), key), Type: strings.ToLower(first(str(o["type"]), str(o["protocol"]))), URL: first(str(o["url"]), str(o["endpoint"])), Auth: authString(o["auth"]), Source: FormatMethod}
		if it.URL == "" && it.Type == "" {
			r.skip(pointer, RuleShape, "an interface with neither a url nor a type")
			return
		}
		r.addInterface(it)
	case string:
		if s := strings.TrimSpace(o); s != "" && key != "" {
			r.addInterface(Interface{ID: key, Type: strings.ToLower(key), URL: s, Source: FormatMethod})
			return
		}
		r.skip(pointer, RuleShape, "not an interface object")
	default:
		r.skip(pointer, RuleShape, "not an interface object")
	}
}

// readAgentsTxt reads the agents.txt draft's JSON form.
func (r *reader) readAgentsTxt(m map[string]any) {
	c := r.c
	if site, ok := m["site"].(map[string]any); ok {
		r.formats[FormatAgentsTxt] = true
		c.Name = first(c.Name, str(site["name"]))
		c.URL = first(c.URL, str(site["url"]))
		c.Description = first(c.Description, str(site["description"]))
		if s := first(str(site["contact"]), str(site["Site-Contact"])); s != "" && c.Contact == nil {
			c.Contact = contactFrom(s)
		}
	}
	for i, it := range r.list(m["capabilities"], "/capabilities") {
		switch o := it.(type) {
		case map[string]any:
			ep := first(str(o["endpoint"]), str(o["url"]))
			if ep == "" {
				r.skip(fmt.Sprintf("/capabilities/%d", i), RuleShape, "a capability without an endpoint")
				continue
			}
			r.addInterface(Interface{ID: first(str(o["id"]), str(o["name"])), Type: strings.ToLower(str(o["protocol"])), URL: ep, Auth: authString(o["auth"]), Source: FormatAgentsTxt})
		case string:
			// agents.txt's own Capabilities line lists names without
			// endpoints: nothing to reach, and not a sign of the format.
		default:
			r.skip(fmt.Sprintf("/capabilities/%d", i), RuleShape, "not a capability object")
		}
	}
	if _, ok := m["access"].(map[string]any); ok {
		r.formats[FormatAgentsTxt] = true
		c.Policies = true
	}
}

// readWildCard reads wild-card-ai's agents.json: every source is an OpenAPI
// document; flows refer to sources by id.
func (r *reader) readWildCard(m map[string]any) {
	c := r.c
	_, openapi := m["openapi"]
	_, swagger := m["swagger"]
	if info, ok := m["info"].(map[string]any); ok && !openapi && !swagger {
		// An OpenAPI document has an info object too; it is not a card.
		r.formats[FormatWildCard] = true
		c.Name = first(c.Name, str(info["title"]))
		c.Description = first(c.Description, str(info["description"]))
	}
	if str(m["agentsJson"]) != "" {
		r.formats[FormatWildCard] = true
	}
	sources := map[string]bool{}
	anySource := false // a source without an id answers every sourceId
	addSource := func(o map[string]any, pointer string) {
		u := first(str(o["path"]), str(o["url"]))
		if u == "" {
			r.skip(pointer, RuleShape, "a source without a path or url")
			return
		}
		typ := strings.ToLower(str(o["type"]))
		if typ == "" {
			typ = "openapi" // the format's sources are OpenAPI documents
		}
		id := str(o["id"])
		sources[id] = true
		anySource = anySource || id == ""
		r.addInterface(Interface{ID: id, Type: typ, URL: u, Source: FormatWildCard})
	}
	for i, it := range r.list(m["sources"], "/sources") {
		o, ok := it.(map[string]any)
		if !ok {
			r.skip(fmt.Sprintf("/sources/%d", i), RuleShape, "a source without a path")
			continue
		}
		addSource(o, fmt.Sprintf("/sources/%d", i))
	}
	// A flows card may name its one interface as a singular source, an
	// object ({"type": "openapi", "url": ...}) or a URL string; read it
	// only beside flows or agentsJson, where the member means this.
	if r.singularSource(m) {
		switch v := m["source"].(type) {
		case map[string]any:
			addSource(v, "/source")
		case string:
			if u := strings.TrimSpace(v); u != "" {
				anySource = true
				r.addInterface(Interface{Type: "openapi", URL: u, Source: FormatWildCard})
			} else {
				r.skip("/source", RuleShape, "an empty source URL")
			}
		default:
			r.skip("/source", RuleShape, "not a source object or URL")
		}
	}
	for i, it := range r.list(m["flows"], "/flows") {
		o, ok := it.(map[string]any)
		if !ok {
			r.skip(fmt.Sprintf("/flows/%d", i), RuleShape, "not a flow object")
			continue
		}
		r.formats[FormatWildCard] = true
		for j, a := range r.list(o["actions"], fmt.Sprintf("/flows/%d/actions", i)) {
			ao, _ := a.(map[string]any)
			if id := str(ao["sourceId"]); id != "" && !sources[id] && !anySource {
				r.skip(fmt.Sprintf("/flows/%d/actions/%d/sourceId", i, j), RuleShape, "names source %q, which the card does not list", truncate(id, 80))
			}
		}
	}
}

// singularSource reports whether m holds a singular source member that the
// flows format reads: beside flows or agentsJson.
func (r *reader) singularSource(m map[string]any) bool {
	if _, ok := m["source"]; !ok {
		return false
	}
	_, flows := m["flows"]
	return flows || str(m["agentsJson"]) != ""
}

// readSiteInfo reads the site_info draft.
func (r *reader) readSiteInfo(m map[string]any) {
	c := r.c
	if si, ok := m["site_info"].(map[string]any); ok {
		r.formats[FormatSiteInfo] = true
		c.Name = first(c.Name, str(si["name"]))
		c.URL = first(c.URL, first(str(si["url"]), str(si["home_url"])))
		c.Description = first(c.Description, str(si["description"]))
		if s := str(si["contact"]); s != "" && c.Contact == nil {
			c.Contact = contactFrom(s)
		}
	}
	if v, present := m["authentication"]; present {
		a, ok := v.(map[string]any)
		if !ok {
			r.skip("/authentication", RuleShape, "not an object")
		} else {
			r.formats[FormatSiteInfo] = true
			ca := &Auth{}
			for i, x := range r.list(a["methods"], "/authentication/methods") {
				switch mv := x.(type) {
				case string:
					if s := strings.TrimSpace(mv); s != "" {
						ca.Methods = append(ca.Methods, s)
					}
				case map[string]any:
					if s := str(mv["type"]); s != "" {
						ca.Methods = append(ca.Methods, s)
					}
				default:
					r.skip(fmt.Sprintf("/authentication/methods/%d", i), RuleShape, "not a method name or object")
				}
			}
			if b, ok := a["required"].(bool); ok {
				ca.Required = &b
			}
			if c.Auth == nil {
				c.Auth = ca
			}
		}
	}
	intents := m["intents"]
	pointer := "/intents"
	if o, ok := intents.(map[string]any); ok {
		// The draft's published examples nest the list: {"supported": [...]}.
		r.formats[FormatSiteInfo] = true
		intents, pointer = o["supported"], "/intents/supported"
	}
	for i, it := range r.list(intents, pointer) {
		o, ok := it.(map[string]any)
		p := fmt.Sprintf("%s/%d", pointer, i)
		if !ok {
			r.skip(p, RuleShape, "not an intent object")
			continue
		}
		r.formats[FormatSiteInfo] = true
		id := first(str(o["name"]), str(o["type"]))
		if ep := str(o["endpoint"]); ep != "" {
			r.addInterface(Interface{ID: id, Type: "intent", URL: ep, Source: FormatSiteInfo})
		}
		for j, e := range r.list(o["endpoints"], p+"/endpoints") {
			eo, _ := e.(map[string]any)
			if path := first(str(eo["path"]), str(eo["url"])); path != "" {
				r.addInterface(Interface{ID: id, Type: "intent", URL: path, Source: FormatSiteInfo})
			} else {
				r.skip(fmt.Sprintf("%s/endpoints/%d", p, j), RuleShape, "an endpoint without a path")
			}
		}
	}
	if _, ok := m["policies"]; ok {
		r.formats[FormatSiteInfo] = true
		c.Policies = true
	}
}

// foreignKind names a known document of another kind.
func foreignKind(m map[string]any) string {
	_, skills := m["skills"].([]any)
	_, linkset := m["linkset"].([]any)
	_, transport := m["transport"].(map[string]any)
	_, remotes := m["remotes"].([]any)
	switch {
	case skills && str(m["name"]) != "":
		return "an A2A agent card"
	case m["serverInfo"] != nil || transport || remotes:
		return "an MCP server card"
	case str(m["openapi"]) != "" || str(m["swagger"]) != "":
		return "an OpenAPI document"
	case str(m["agentic"]) != "":
		return "an Agentic Site Profile"
	case linkset:
		return "a link set"
	}
	return ""
}

func contactFrom(s string) *Contact {
	if e, ok := strings.CutPrefix(s, "mailto:"); ok {
		return &Contact{Email: e}
	}
	if strings.Contains(s, "@") && !strings.Contains(s, "/") {
		return &Contact{Email: s}
	}
	return &Contact{URL: s}
}

func authString(v any) string {
	if s := str(v); s != "" {
		return s
	}
	if o, ok := v.(map[string]any); ok {
		return str(o["type"])
	}
	return ""
}

func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (r *reader) strs(v any, pointer string) []string {
	var out []string
	for i, x := range r.list(v, pointer) {
		if s := str(x); s != "" {
			out = append(out, s)
		} else {
			r.skip(fmt.Sprintf("%s/%d", pointer, i), RuleShape, "not a non-empty string")
		}
	}
	return out
}

// escape escapes a member name for a JSON Pointer (RFC 6901 Section 3).
func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
