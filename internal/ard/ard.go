package ard

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/strictjson"
)

//go:embed ai-catalog.schema.json
var schemaJSON []byte

// SchemaURL is the $id of the embedded ARD catalog schema.
const SchemaURL = "https://raw.githubusercontent.com/ards-project/ard-spec/main/spec/schemas/ai-catalog.schema.json"

var catalogSchema = sync.OnceValue(func() *schema.Schema { return schema.MustCompile(SchemaURL, schemaJSON) })

// WellKnownPath is where a catalog is looked for last, and MediaType the
// media type of a catalog (and of a catalog entry that is one).
const (
	WellKnownPath = "/.well-known/ai-catalog.json"
	MediaType     = "application/ai-catalog+json"
	// Rel is the link relation that points to a catalog, in a Link header
	// field or a <link> element.
	Rel = "ai-catalog"
)

// MaxEntries bounds the entries the semantic rules read; more are counted
// and said in a warning.
const MaxEntries = 1000

// urnRE is the conformance test's identifier pattern:
// urn:air:<publisher>[:<namespace>]:<name>.
var urnRE = regexp.MustCompile(`^urn:air:([a-zA-Z0-9.-]+)(?::([a-zA-Z0-9._:-]+))?:([a-zA-Z0-9._-]+)$`)

// EntryTypes are the standard discovery media types of the conformance
// test; an entry of another type is a warning.
func EntryTypes() []string {
	return []string{MediaType, "application/agent-card+json", "application/a2a-agent-card+json", "application/mcp-server-card+json",
		"application/agent-skills+zip", "application/agent-skills+gzip", `text/markdown; profile="urn:air:agent-skills"`,
		"application/ai-registry", "application/ai-registry+json"}
}

// Finding is one departure of a catalog from the specification.
type Finding struct {
	// Pointer is the RFC 6901 JSON Pointer of the value concerned ("" is
	// the whole document).
	Pointer string
	// Message says what is wrong, in the conformance test's words where
	// it has them.
	Message string
	// Warning is true for a recommendation not followed; false is an
	// error.
	Warning bool
}

// String formats the finding as "error /pointer: message".
func (f Finding) String() string {
	sev, p := "error", f.Pointer
	if f.Warning {
		sev = "warning"
	}
	if p == "" {
		p = "/"
	}
	return sev + " " + p + ": " + f.Message
}

// Result is a catalog as validated.
type Result struct {
	// SpecVersion is the catalog's specVersion, "" when it has none.
	SpecVersion string
	// Entries is the number of entries, read or not.
	Entries int
	// Types counts the entries by their type.
	Types map[string]int
	// Findings lists every error and warning, errors first.
	Findings []Finding
}

// Errors reports how many findings are errors.
func (r *Result) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if !f.Warning {
			n++
		}
	}
	return n
}

// Validate reads body as an AI catalog. It reads strict JSON, then applies
// the embedded JSON Schema (every violation an error). Then it applies the
// conformance test's rules. The rules want specVersion present (another
// value than "1.0" a warning) and an entries array. Each entry wants an
// identifier matching urn:air:<publisher>[:<namespace>]:<name>, a
// displayName and a type (one outside [EntryTypes] a warning). It wants
// exactly one of url and data, representativeQueries as an array of
// strings (absent, or fewer than 2 or more than 5, a warning), and a
// trustManifest that is an object with an identity. The rules want no
// top-level collections (removed by ADR-0003). A schema violation at the
// pointer of a rule's error (or, for a member required by the schema, at
// its object's) is not said twice.
func Validate(body []byte) *Result {
	r := &Result{Types: map[string]int{}}
	v, err := strictjson.Decode(body)
	if err != nil {
		r.Findings = []Finding{{Message: "Malformed JSON in manifest: " + err.Error()}}
		return r
	}
	var rules []Finding
	errf := func(p, format string, a ...any) {
		rules = append(rules, Finding{Pointer: p, Message: fmt.Sprintf(format, a...)})
	}
	warnf := func(p, format string, a ...any) {
		rules = append(rules, Finding{Pointer: p, Message: fmt.Sprintf(format, a...), Warning: true})
	}
	m, _ := v.(map[string]any)
	switch sv, ok := m["specVersion"].(string); {
	case m["specVersion"] == nil:
		errf("/specVersion", "Missing required 'specVersion' root property.")
	case !ok:
		errf("/specVersion", "'specVersion' is not a string.")
	default:
		r.SpecVersion = sv
		if sv != "1.0" {
			warnf("/specVersion", "Unrecognized 'specVersion': %s. Expected '1.0'.", clip(sv))
		}
	}
	if _, ok := m["collections"]; ok {
		errf("/collections", "Deprecated field check: Found 'collections' array at root. Top-level collections were REMOVED in ADR-0003. Catalog hierarchies MUST be modeled inside 'entries' using 'type: %s'.", MediaType)
	}
	switch entries, ok := m["entries"].([]any); {
	case m["entries"] == nil:
		errf("/entries", "Missing required 'entries' array.")
	case !ok:
		errf("/entries", "'entries' must be a JSON array.")
	default:
		r.Entries = len(entries)
		if len(entries) > MaxEntries {
			warnf("/entries", "%d entries: the first %d were read.", len(entries), MaxEntries)
			entries = entries[:MaxEntries]
		}
		for i, e := range entries {
			r.entry(fmt.Sprintf("/entries/%d", i), e, errf, warnf)
		}
	}
	// The schema's violations, less those a rule's error already says.
	said := map[string]bool{}
	for _, f := range rules {
		if !f.Warning {
			said[f.Pointer] = true
		}
	}
	var out []Finding
	for _, vi := range catalogSchema().Validate(v) {
		parent := vi.Pointer[:max(strings.LastIndexByte(vi.Pointer, '/'), 0)]
		exact := vi.Keyword == "required" || vi.Keyword == "oneOf" || vi.Keyword == "not"
		if !said[vi.Pointer] && !(exact && said[parent]) {
			out = append(out, Finding{Pointer: vi.Pointer, Message: "JSON Schema validation failed: " + vi.Message + " (" + vi.Keyword + ")"})
		}
	}
	out = append(out, rules...)
	slices.SortStableFunc(out, func(a, b Finding) int {
		switch {
		case a.Warning == b.Warning:
			return 0
		case b.Warning:
			return -1
		}
		return 1
	})
	r.Findings = out
	return r
}

func (r *Result) entry(p string, e any, errf, warnf func(p, format string, a ...any)) {
	o, ok := e.(map[string]any)
	if !ok {
		errf(p, "An entry must be a JSON object.")
		return
	}
	switch id, ok := o["identifier"].(string); {
	case o["identifier"] == nil || id == "" && ok:
		errf(p+"/identifier", "Missing required 'identifier'.")
	case !ok || !urnRE.MatchString(id):
		errf(p+"/identifier", "Identifier '%s' does not match RFC 8141 URN pattern 'urn:air:<publisher>:<namespace>:<agent-name>'.", clip(fmt.Sprint(o["identifier"])))
	}
	if d, _ := o["displayName"].(string); o["displayName"] == nil || isString(o["displayName"]) && d == "" {
		errf(p+"/displayName", "Missing required 'displayName'.")
	}
	switch t, ok := o["type"].(string); {
	case o["type"] == nil || ok && t == "":
		errf(p+"/type", "Missing required 'type' (mediaType).")
	case ok:
		r.Types[t]++
		if !slices.Contains(EntryTypes(), t) {
			warnf(p+"/type", "Media type '%s' is not one of the standard discovery types.", clip(t))
		}
	}
	_, hasURL := o["url"]
	_, hasData := o["data"]
	switch {
	case hasURL && hasData:
		errf(p, "Constraint violation: both 'url' and 'data' are provided. MUST provide exactly one.")
	case !hasURL && !hasData:
		errf(p, "Constraint violation: neither 'url' nor 'data' is provided. MUST provide exactly one.")
	}
	switch q, ok := o["representativeQueries"].([]any); {
	case o["representativeQueries"] == nil:
		warnf(p+"/representativeQueries", "Missing 'representativeQueries'. 2 to 5 queries are recommended for vector index embedding.")
	case !ok:
		errf(p+"/representativeQueries", "'representativeQueries' must be an array of strings.")
	default:
		if len(q) < 2 || len(q) > 5 {
			warnf(p+"/representativeQueries", "'representativeQueries' array has size %d. 2 to 5 queries are recommended for vector index embedding.", len(q))
		}
		for j, s := range q {
			if !isString(s) {
				errf(fmt.Sprintf("%s/representativeQueries/%d", p, j), "Query is not a string.")
			}
		}
	}
	if tm, has := o["trustManifest"]; has && tm != nil {
		t, ok := tm.(map[string]any)
		switch {
		case !ok:
			errf(p+"/trustManifest", "'trustManifest' must be a JSON object.")
		case t["identity"] == nil || t["identity"] == "":
			errf(p+"/trustManifest/identity", "'trustManifest' is missing required 'identity' field.")
		}
	}
}

func isString(v any) bool { _, ok := v.(string); return ok }

// clip keeps a quote of the catalog to 80 characters.
func clip(s string) string { return shorten.Runes(s, 80) }
