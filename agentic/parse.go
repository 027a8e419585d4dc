package agentic

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/internal/strictjson"
)

//go:embed schema/site-1.1.schema.json
var siteSchemaJSON []byte

// siteSchema is the locally pinned site 1.1 schema, compiled once. Its
// compiler never loads a URL, so a publisher's "$schema" is never fetched.
var siteSchema = sync.OnceValue(func() *schema.Schema {
	return schema.MustCompile(SchemaURI, siteSchemaJSON)
})

// schemaJSON returns a copy of the embedded JSON Schema (draft 2020-12) this
// package validates site profiles with.
func schemaJSON() []byte { return append([]byte(nil), siteSchemaJSON...) }

// Errors callers can branch on with errors.Is.
var (
	// ErrInvalid is wrapped by every *ValidationError.
	ErrInvalid = errors.New("agentic: invalid site profile")
	// ErrActionProfile reports an Action Profile 1.0 document (agentic
	// "1.0.0", no "type") given where a site profile was expected. Read it
	// with ParseActionProfile instead.
	ErrActionProfile = errors.New("agentic: document is an Action Profile 1.0, not a site profile; use ParseActionProfile")
)

type problems struct{ list []Problem }

func (p *problems) add(ptr, rule, msg string) {
	if len(p.list) < maxProblems {
		p.list = append(p.list, Problem{Pointer: ptr, Rule: rule, Message: msg})
	}
}

// ParseSite decodes and validates an Agentic Site Profile 1.1 document
// ([Agentic Site Profile 1.1], section "Required JSON fields", "Resource
// records", "OpenAPI indexes"). It reads strict JSON: no duplicate members,
// no BOM, valid UTF-8 and bounded depth. It applies the pinned schema and
// every semantic rule:
//   - the URL rules and a bare canonical origin;
//   - (kind, url) uniqueness and at least one retrieved resource;
//   - each API document bound to a retrieved openapi resource;
//   - the operation path rules and (method, path) uniqueness per API;
//   - the compact size limit, [Limits.ProfileBytes].
//
// On failure the error is a *ValidationError listing every problem. Each
// problem names the profile's section that states its rule: "Required JSON
// fields", "Resource records" or "OpenAPI indexes". Strict JSON comes under
// "Required JSON fields", the size limit under "Discovery and auditing". An
// Action Profile 1.0 document is refused with ErrActionProfile alone.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
func ParseSite(data []byte) (*Site, error) {
	tree, err := strictjson.Decode(data)
	if err != nil {
		return nil, jsonProblem(err)
	}
	if isActionTree(tree) {
		return nil, ErrActionProfile
	}
	var ps problems
	for _, v := range siteSchema().Validate(tree) {
		ps.add(v.Pointer, RuleSchemaPrefix+v.Keyword, v.Message)
	}
	checkTree(tree, &ps)
	if n := compactSizeOf(data, tree); n > maxProfileBytes {
		ps.add("", RuleProfileSize, fmt.Sprintf("compact JSON is %d bytes, over the %d-byte limit", n, maxProfileBytes))
	}
	if len(ps.list) > 0 {
		for i := range ps.list {
			ps.list[i].Section = siteSection(ps.list[i])
		}
		sortProblems(ps.list)
		return nil, invalid(ps.list)
	}
	return siteFromTree(tree.(map[string]any)), nil
}

// The sections of the Agentic Site Profile 1.1 a site profile's problems cite.
const (
	sectionRequiredFields  = "Required JSON fields"
	sectionResourceRecords = "Resource records"
	sectionOpenAPIIndexes  = "OpenAPI indexes"
)

// siteSection names the section of the profile that states the rule a
// problem breaks, from where the problem is. A resource record's rules are
// in "Resource records", an API index's in "OpenAPI indexes". The top-level
// members' rules, and unknown members', are in "Required JSON fields".
// Strict JSON, the string rule and the size limit are cited from
// ruleSections.
func siteSection(p Problem) string {
	switch {
	case strings.HasPrefix(p.Rule, "json-") || p.Rule == RuleProfileSize || p.Rule == RuleStringUTF8:
		return ruleSections[p.Rule]
	case strings.HasPrefix(p.Pointer, "/resources/"):
		return sectionResourceRecords
	case strings.HasPrefix(p.Pointer, "/apis/"):
		return sectionOpenAPIIndexes
	}
	return sectionRequiredFields
}

func sortProblems(list []Problem) {
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Pointer != list[j].Pointer {
			return pointerLess(list[i].Pointer, list[j].Pointer)
		}
		return list[i].Rule < list[j].Rule
	})
}

// pointerLess orders JSON Pointers token by token, numbers numerically.
func pointerLess(a, b string) bool {
	at, bt := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(at) && i < len(bt); i++ {
		if at[i] == bt[i] {
			continue
		}
		ai, aerr := strconv.Atoi(at[i])
		bi, berr := strconv.Atoi(bt[i])
		if aerr == nil && berr == nil {
			return ai < bi
		}
		return at[i] < bt[i]
	}
	return len(at) < len(bt)
}

// isActionProfile reports whether data is an Action Profile 1.0 document:
// strict JSON, an object whose "agentic" is "1.0.0" and which has no "type"
// member. Such a document is never a site profile.
func isActionProfile(data []byte) bool {
	tree, err := strictjson.Decode(data)
	return err == nil && isActionTree(tree)
}

// isActionTree is isActionProfile for a decoded value.
func isActionTree(tree any) bool {
	m, ok := tree.(map[string]any)
	if !ok {
		return false
	}
	_, hasType := m["type"]
	return m["agentic"] == ActionVersion && !hasType
}

// escapeToken escapes a JSON Pointer reference token (RFC 6901).
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func idx(base string, i int) string { return base + "/" + strconv.Itoa(i) }

// checkTree applies the semantic rules to a decoded document, skipping any
// value whose shape the schema already refused.
func checkTree(tree any, ps *problems) {
	m, ok := tree.(map[string]any)
	if !ok {
		return
	}
	if o, ok := m["origin"].(string); ok {
		for _, p := range checkOrigin(o) {
			ps.add("/origin", p.rule, p.message)
		}
	}
	retrievedOpenAPI := map[string]bool{}
	rs, haveResources := m["resources"].([]any)
	haveResources = haveResources && len(rs) > 0
	if haveResources {
		type key struct{ kind, url string }
		seen := make(map[key]int, len(rs))
		// Sources repeat (a page names many resources): each is checked once.
		sourceChecks := map[string][]urlProblem{}
		anyRetrieved := false
		for i, rv := range rs {
			r, ok := rv.(map[string]any)
			if !ok {
				continue
			}
			ptr := func() string { return idx("/resources", i) }
			kind, _ := r["kind"].(string)
			u, uok := r["url"].(string)
			if uok {
				for _, p := range checkSiteURL(u) {
					ps.add(ptr()+"/url", p.rule, p.message)
				}
			}
			if s, ok := r["source"].(string); ok {
				checks, done := sourceChecks[s]
				if !done {
					checks = checkSiteURL(s)
					sourceChecks[s] = checks
				}
				for _, p := range checks {
					ps.add(ptr()+"/source", p.rule, p.message)
				}
			}
			av, _ := r["availability"].(string)
			if av == string(AvailabilityRetrieved) {
				anyRetrieved = true
				if kind == string(KindOpenAPI) && uok {
					retrievedOpenAPI[u] = true
				}
			}
			if uok && kind != "" {
				k := key{kind, u}
				if first, dup := seen[k]; dup {
					ps.add(ptr(), RuleResourceDuplicate, fmt.Sprintf("(kind, url) pair (%s, %s) already appears at /resources/%d", kind, cut(u), first))
				} else {
					seen[k] = i
				}
			}
		}
		if !anyRetrieved {
			ps.add("/resources", RuleRetrievedRequired, "at least one resource must have availability \"retrieved\"")
		}
	}
	if as, ok := m["apis"].([]any); ok {
		for i, av := range as {
			a, ok := av.(map[string]any)
			if !ok {
				continue
			}
			ptr := idx("/apis", i)
			if d, ok := a["document"].(string); ok {
				for _, p := range checkSiteURL(d) {
					ps.add(ptr+"/document", p.rule, p.message)
				}
				if haveResources && !retrievedOpenAPI[d] {
					ps.add(ptr+"/document", RuleDocumentBinding, "document "+cut(d)+" is not the url of a retrieved openapi resource of this profile")
				}
			}
			ops, ok := a["operations"].([]any)
			if !ok {
				continue
			}
			type key struct{ method, path string }
			seen := make(map[key]int, len(ops))
			for j, ov := range ops {
				o, ok := ov.(map[string]any)
				if !ok {
					continue
				}
				optr := func() string { return idx(ptr+"/operations", j) }
				path, pok := o["path"].(string)
				if pok {
					if msg := pathProblem(path); msg != "" {
						ps.add(optr()+"/path", RulePathForm, msg)
					}
				}
				method, mok := o["method"].(string)
				if pok && mok {
					k := key{method, path}
					if first, dup := seen[k]; dup {
						ps.add(optr(), RuleOperationDuplicate, fmt.Sprintf("%s %s already appears at %s/operations/%d", method, cut(path), ptr, first))
					} else {
						seen[k] = j
					}
				}
			}
		}
	}
}

// pathProblem returns why an operation path breaks the rules ("OpenAPI
// indexes": it starts with one "/" and contains no query, fragment or
// backslash), or "".
func pathProblem(p string) string {
	switch {
	case !strings.HasPrefix(p, "/"):
		return "path must start with \"/\""
	case strings.HasPrefix(p, "//"):
		return "path must start with exactly one \"/\""
	case strings.Contains(p, "?"):
		return "path must not contain a query (\"?\")"
	case strings.Contains(p, "#"):
		return "path must not contain a fragment (\"#\")"
	case strings.Contains(p, "\\"):
		return "path must not contain a backslash"
	}
	return ""
}

// cut shortens a value quoted in a message.
func cut(s string) string {
	if len(s) <= maxReportedValueLength {
		return strconv.Quote(s)
	}
	end := maxReportedValueLength
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return strconv.Quote(s[:end]) + "..."
}

// siteFromTree builds the typed value of a validated document.
func siteFromTree(m map[string]any) *Site {
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	s := &Site{
		Schema:      str(m, "$schema"),
		Agentic:     str(m, "agentic"),
		Type:        str(m, "type"),
		Origin:      str(m, "origin"),
		Name:        str(m, "name"),
		Description: str(m, "description"),
	}
	rs, _ := m["resources"].([]any)
	s.Resources = make([]Resource, 0, len(rs))
	for _, rv := range rs {
		r := rv.(map[string]any)
		s.Resources = append(s.Resources, Resource{
			Kind: Kind(str(r, "kind")), URL: str(r, "url"), Source: str(r, "source"),
			Availability: Availability(str(r, "availability")), Title: str(r, "title"),
		})
	}
	as, _ := m["apis"].([]any)
	s.APIs = make([]API, 0, len(as))
	for _, av := range as {
		a := av.(map[string]any)
		ops, _ := a["operations"].([]any)
		api := API{Document: str(a, "document"), OpenAPI: str(a, "openapi"), Operations: make([]Operation, 0, len(ops))}
		for _, ov := range ops {
			o := ov.(map[string]any)
			api.Operations = append(api.Operations, Operation{
				Method: str(o, "method"), Path: str(o, "path"),
				OperationID: str(o, "operationId"), Summary: str(o, "summary"),
			})
		}
		s.APIs = append(s.APIs, api)
	}
	return s
}

// Validate applies ParseSite's checks to a Site built or changed in code: it
// serialises s as the reference tools would and parses the result. Strings
// that are not valid UTF-8 are reported with RuleStringUTF8 (JSON cannot carry
// them). It returns nil or a *ValidationError.
func (s *Site) Validate() error {
	if s == nil {
		return invalid([]Problem{{Rule: RuleSchemaType, Message: "site is nil"}})
	}
	var ps problems
	s.checkUTF8(&ps)
	if len(ps.list) > 0 {
		return invalid(ps.list)
	}
	_, err := ParseSite(s.compact())
	return err
}

func (s *Site) checkUTF8(ps *problems) {
	chk := func(ptr, v string) {
		if !utf8.ValidString(v) {
			ps.add(ptr, RuleStringUTF8, "string is not valid UTF-8")
		}
	}
	chk("/$schema", s.Schema)
	chk("/agentic", s.Agentic)
	chk("/type", s.Type)
	chk("/origin", s.Origin)
	chk("/name", s.Name)
	chk("/description", s.Description)
	for i, r := range s.Resources {
		p := idx("/resources", i)
		chk(p+"/kind", string(r.Kind))
		chk(p+"/url", r.URL)
		chk(p+"/source", r.Source)
		chk(p+"/availability", string(r.Availability))
		chk(p+"/title", r.Title)
	}
	for i, a := range s.APIs {
		p := idx("/apis", i)
		chk(p+"/document", a.Document)
		chk(p+"/openapi", a.OpenAPI)
		for j, o := range a.Operations {
			q := idx(p+"/operations", j)
			chk(q+"/method", o.Method)
			chk(q+"/path", o.Path)
			chk(q+"/operationId", o.OperationID)
			chk(q+"/summary", o.Summary)
		}
	}
}

// MarshalJSON writes the Site in schema member order with JavaScript's
// escaping rules, so that "<", ">" and "&" stay literal, as the reference
// tools write a profile. It does not validate (see [Site.JSON]). Its value
// receiver keeps that form for a Site stored or passed by value.
func (s Site) MarshalJSON() ([]byte, error) { return s.compact(), nil }

var _ json.Marshaler = Site{}
