package agentsignup

import (
	"sort"
	"strings"
)

// ForbiddenField is one row of the table of members that must not appear in a
// discovery document at any nesting depth, extensions included
// ([agent-identity-v1 discovery fields], "Forbidden fields" of the discovery
// page).
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
type ForbiddenField struct {
	// Name is the member name, lower case with underscores.
	Name string
	// Class says why the member is forbidden.
	Class ForbiddenClass
}

// ForbiddenClass says why a [ForbiddenField] is forbidden.
type ForbiddenClass string

const (
	// ForbiddenClassCapability is a capability-catalog member: a discovery
	// document is a parameter document, not a catalog.
	ForbiddenClassCapability ForbiddenClass = "capability"
	// ForbiddenClassProviderIdentity is a provider-identity or
	// provider-capability member other than rp_attestation.
	ForbiddenClassProviderIdentity ForbiddenClass = "provider-identity"
	// ForbiddenClassPrivate is private or account material.
	ForbiddenClassPrivate ForbiddenClass = "private"
)

// forbiddenFields is the one table of forbidden member names. The page that
// defines them lost the body of its "Forbidden fields" section. This table is
// this project's reading of it: the page's own prose turned into names. That
// prose says "not a capability catalog", "do not add any other
// provider-identity or provider-capability field", and "must not carry ...
// provider_url, account ids, prices, or private material".
var forbiddenFields = []ForbiddenField{
	// Capability-catalog members.
	{"capabilities", ForbiddenClassCapability},
	{"tools", ForbiddenClassCapability},
	{"actions", ForbiddenClassCapability},
	{"skills", ForbiddenClassCapability},
	{"features", ForbiddenClassCapability},
	{"products", ForbiddenClassCapability},
	{"pricing", ForbiddenClassCapability},
	{"prices", ForbiddenClassCapability},
	{"plans", ForbiddenClassCapability},
	// Provider identity or capability claims other than rp_attestation.
	{"provider_url", ForbiddenClassProviderIdentity},
	{"provider_id", ForbiddenClassProviderIdentity},
	{"verified", ForbiddenClassProviderIdentity},
	{"verification", ForbiddenClassProviderIdentity},
	{"assurance", ForbiddenClassProviderIdentity},
	{"assurance_level", ForbiddenClassProviderIdentity},
	{"attestation", ForbiddenClassProviderIdentity},
	{"certifications", ForbiddenClassProviderIdentity},
	// Private and account material.
	{"account_id", ForbiddenClassPrivate},
	{"account_ids", ForbiddenClassPrivate},
	{"api_key", ForbiddenClassPrivate},
	{"client_secret", ForbiddenClassPrivate},
	{"secret", ForbiddenClassPrivate},
	{"password", ForbiddenClassPrivate},
	{"private_key", ForbiddenClassPrivate},
	{"access_token", ForbiddenClassPrivate},
	{"refresh_token", ForbiddenClassPrivate},
}

var classReason = map[ForbiddenClass]string{
	ForbiddenClassCapability:       "a discovery document is a parameter document, not a capability catalog (vendor capabilities belong in the post-signup context guide)",
	ForbiddenClassProviderIdentity: "only rp_attestation may describe the provider's identity; no other provider-identity or provider-capability field belongs in discovery",
	ForbiddenClassPrivate:          "private and account material must never be published",
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
	if !forbiddenLengths[len(name)] && isASCII(name) {
		return ForbiddenField{}, false // no forbidden name has this length (folding ASCII keeps it)
	}
	f, ok := forbiddenIndex[foldName(name)]
	return f, ok
}

// forbiddenLengths marks the lengths of the forbidden names: folding (case,
// '-' to '_') keeps an ASCII name's length, so an ASCII key of another
// length is none. (Unicode case folding may not: the Kelvin sign K
// lower-cases to "k".)
var forbiddenLengths = func() (l [65]bool) {
	for _, f := range forbiddenFields {
		if len(f.Name) <= 64 {
			l[len(f.Name)] = true
		}
	}
	return l
}()

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func foldName(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), "-", "_")
}

// findForbidden walks the generic JSON tree v and reports every forbidden
// member with the JSON Pointer of its value. It does not descend into a
// forbidden member (one problem per offending member). The depth of v is
// bounded by the strict decoder.
func findForbidden(v any, ptr string, out []Problem) []Problem {
	return findForbiddenAt(v, []string{ptr}, out)
}

// findForbiddenAt is findForbidden with the pointer kept as its escaped
// tokens, joined only for a finding: a clean document builds no pointer.
func findForbiddenAt(v any, path []string, out []Problem) []Problem {
	switch t := v.(type) {
	case map[string]any:
		for k, v := range t { // problems are sorted by the caller
			if f, ok := forbiddenName(k); ok {
				p := strings.Join(path, "/") + "/" + escapePointer(k)
				out = append(out, Problem{
					Pointer: p,
					Rule:    RuleForbiddenField,
					Message: "member " + quote(k) + " is forbidden at any depth: " + classReason[f.Class],
				})
				continue
			}
			switch v.(type) {
			case map[string]any, []any:
				out = findForbiddenAt(v, append(path, escapePointer(k)), out)
			}
		}
	case []any:
		for i, e := range t {
			switch e.(type) {
			case map[string]any, []any:
				out = findForbiddenAt(e, append(path, itoa(i)), out)
			}
		}
	}
	return out
}
