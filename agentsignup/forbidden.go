package agentsignup

import (
	"sort"
	"strings"
)

// ForbiddenField is one row of the table of members that must not appear in a
// discovery document at any nesting depth, extensions included ("Forbidden
// fields" of the discovery page).
type ForbiddenField struct {
	// Name is the member name, lower case with underscores.
	Name string
	// Class says why the member is forbidden: "capability" (a capability-catalog
	// member: a discovery document is a parameter document, not a catalog),
	// "provider-identity" (a provider-identity or provider-capability member
	// other than rp_attestation) or "private" (private or account material).
	Class string
}

// forbiddenFields is the one table of forbidden member names. The page that
// defines them lost the body of its "Forbidden fields" section; this table is
// this project's reading of it (NOTES.md, agent-identity-v1): the page's own
// prose ("not a capability catalog", "do not add any other provider-identity or
// provider-capability field", "must not carry ... provider_url, account ids,
// prices, or private material") turned into names.
var forbiddenFields = []ForbiddenField{
	// Capability-catalog members.
	{"capabilities", "capability"},
	{"tools", "capability"},
	{"actions", "capability"},
	{"skills", "capability"},
	{"features", "capability"},
	{"products", "capability"},
	{"pricing", "capability"},
	{"prices", "capability"},
	{"plans", "capability"},
	// Provider identity or capability claims other than rp_attestation.
	{"provider_url", "provider-identity"},
	{"provider_id", "provider-identity"},
	{"verified", "provider-identity"},
	{"verification", "provider-identity"},
	{"assurance", "provider-identity"},
	{"assurance_level", "provider-identity"},
	{"attestation", "provider-identity"},
	{"certifications", "provider-identity"},
	// Private and account material.
	{"account_id", "private"},
	{"account_ids", "private"},
	{"api_key", "private"},
	{"client_secret", "private"},
	{"secret", "private"},
	{"password", "private"},
	{"private_key", "private"},
	{"access_token", "private"},
	{"refresh_token", "private"},
}

var classReason = map[string]string{
	"capability":        "a discovery document is a parameter document, not a capability catalog (vendor capabilities belong in the post-signup context guide)",
	"provider-identity": "only rp_attestation may describe the provider's identity; no other provider-identity or provider-capability field belongs in discovery",
	"private":           "private and account material must never be published",
}

var forbiddenIndex = func() map[string]ForbiddenField {
	m := make(map[string]ForbiddenField, len(forbiddenFields))
	for _, f := range forbiddenFields {
		m[f.Name] = f
	}
	return m
}()

// ForbiddenFields returns a copy of the table of forbidden member names,
// sorted by name. Member names are matched case-insensitively, with '-'
// read as '_', so that "Provider-URL" is caught as provider_url.
func ForbiddenFields() []ForbiddenField {
	out := append([]ForbiddenField(nil), forbiddenFields...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// forbiddenName reports whether the member name is in the forbidden table.
func forbiddenName(name string) (ForbiddenField, bool) {
	if len(name) > 64 {
		return ForbiddenField{}, false
	}
	f, ok := forbiddenIndex[foldName(name)]
	return f, ok
}

func foldName(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), "-", "_")
}

// findForbidden walks the generic JSON tree v and reports every forbidden
// member with the JSON Pointer of its value. It does not descend into a
// forbidden member (one problem per offending member). The depth of v is
// bounded by the strict decoder.
func findForbidden(v any, ptr string, out []Problem) []Problem {
	switch t := v.(type) {
	case map[string]any:
		for k, v := range t { // problems are sorted by the caller
			if f, ok := forbiddenName(k); ok {
				p := ptr + "/" + escapePointer(k)
				out = append(out, Problem{
					Pointer: p,
					Rule:    RuleForbiddenField,
					Message: "member " + quote(k) + " is forbidden at any depth: " + classReason[f.Class],
				})
				continue
			}
			switch v.(type) {
			case map[string]any, []any:
				out = findForbidden(v, ptr+"/"+escapePointer(k), out)
			}
		}
	case []any:
		for i, e := range t {
			switch e.(type) {
			case map[string]any, []any:
				out = findForbidden(e, ptr+"/"+itoa(i), out)
			}
		}
	}
	return out
}
