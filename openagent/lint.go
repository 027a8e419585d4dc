package openagent

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentweb/agentweb/internal/problem"
)

// Rule names of the findings of [CheckPublic].
const (
	RuleAccessToken     = "access-token"      // a string shaped like a token or API key
	RuleCredentialInURL = "credential-in-url" // userinfo or a secret-looking query parameter in a URL
	RulePrivateKey      = "private-key"       // a PEM private key block
	RulePrivateJWK      = "private-jwk"       // a JWK carrying private members (d, p, q, dp, dq, qi, k, oth)
	RuleWorkspacePath   = "workspace-path"    // an absolute filesystem path
	RuleFileURL         = "file-url"          // a file: URL
	RulePublicFalse     = "public-false-unauthenticated"
)

// CheckPublicOptions configure [CheckPublic]. The zero value, and a nil
// pointer, report every finding.
type CheckPublicOptions struct {
	// Allow lists rules of CheckPublic (RuleAccessToken, RuleWorkspacePath,
	// ...) whose findings are not reported, for a value known to be a false
	// positive. Allowing one rule leaves every other check in force, which
	// is why it is preferred to skipping the check.
	Allow []string
}

func (o *CheckPublicOptions) allows(rule string) bool {
	return o != nil && slices.Contains(o.Allow, rule)
}

// tokenShape is one family of credential shapes CheckPublic looks for.
type tokenShape struct {
	name string
	re   *regexp.Regexp
}

var tokenShapes = []tokenShape{
	{"a JSON Web Token", regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)},
	{"a GitHub token", regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`)},
	{"a Slack token", regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-[0-9]-[A-Za-z0-9-]{10,}`)},
	{"an AWS access key id", regexp.MustCompile(`\b(AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b`)},
	{"an OpenAI-style secret key", regexp.MustCompile(`\bsk-(proj-|ant-|svcacct-)?[A-Za-z0-9_-]{20,}`)},
	{"a Stripe secret key", regexp.MustCompile(`\b[rs]k_(live|test)_[A-Za-z0-9]{16,}`)},
	{"a Google API key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{"a bearer token", regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*`)},
	{"an authorization header value", regexp.MustCompile(`(?i)\bauthorization\s*:\s*((basic|bearer|token|digest)\s+)?[A-Za-z0-9._~+/=-]{8,}`)},
}

var (
	pemPrivateRE = regexp.MustCompile(`-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----`)
	jwkKtyRE     = regexp.MustCompile(`"kty"\s*:`)
	jwkPrivateRE = regexp.MustCompile(`"(d|p|q|dp|dq|qi|k|oth)"\s*:`)
	// absolute paths: a Unix path under a well-known root, a home-relative
	// path, a Windows drive path or a UNC path. Each is matched at the start
	// of the string or after a space, quote, bracket or equals sign, so the
	// path of an https URL does not match.
	unixPathRE = regexp.MustCompile(`(^|[\s"'(\[=,;])(~/|/(home|Users|root|etc|var|tmp|opt|srv|mnt|private|workspace|workspaces|data|usr|proc|run|Volumes)(/|$))`)
	winPathRE  = regexp.MustCompile(`(^|[\s"'(\[=,;])([A-Za-z]:\\|\\\\[A-Za-z0-9._-]+\\)`)
	fileURLRE  = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9+.-])file:`)
	// query parameters whose name says they carry a secret.
	secretParams = []string{"token", "access_token", "id_token", "refresh_token", "api_key", "apikey", "key",
		"secret", "client_secret", "password", "passwd", "pwd", "sig", "signature", "auth", "code", "session"}
)

// CheckPublic lints a profile that is about to be served publicly
// ([OpenAgent 0.1], "Publication and discovery": "Public files must contain
// no access tokens, private keys or private workspace paths"). It looks in
// every string of the profile for:
//   - access tokens in common shapes: JSON Web Tokens, GitHub, Slack, AWS,
//     OpenAI-style, Stripe and Google keys, bearer and authorization header
//     values, and URLs with userinfo or secret-looking query parameters;
//   - private keys: PEM private key blocks, and JWKs with private members;
//   - private workspace paths: absolute filesystem paths and file: URLs;
//
// all reported as [SeverityError]. A profile with public: false is reported
// as a [SeverityWarning]. CheckPublic assumes the file is served without
// authentication, and public: false is descriptive metadata, not protection.
// A publisher must enforce access control for a private profile, and a
// directory must not index it.
//
// A reader can apply CheckPublic to a profile it fetched without
// credentials: a fetched profile that says public: false is exactly the case
// of the warning.
//
// The checks are heuristics over shapes: an empty result is not proof that a
// file is free of secrets. Messages name the kind of secret, never its value.
// [CheckPublicOptions].Allow turns off named rules, for a known false
// positive.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func CheckPublic(p *Profile, opts *CheckPublicOptions) []Problem {
	if p == nil {
		return nil
	}
	var out []Problem
	for _, f := range stringsOf(p) {
		for _, x := range lintString(f.pointer, f.value) {
			if !opts.allows(x.Rule) {
				out = append(out, x)
			}
		}
	}
	if !p.IsPublic() && !opts.allows(RulePublicFalse) {
		out = append(out, Problem{Pointer: "/public", Rule: RulePublicFalse, Severity: SeverityWarning,
			Message: "public is false but this file is being published: public: false is descriptive metadata, not protection; serve a private profile only behind authentication, and directories must not index it"})
	}
	return problem.Cite(out, ruleSections)
}

type pointed struct{ pointer, value string }

func stringsOf(p *Profile) []pointed {
	out := []pointed{
		{"/type", p.Type}, {"/version", p.Version}, {"/name", p.Name}, {"/did", p.DID},
		{"/owner_did", p.OwnerDID}, {"/description", p.Description},
	}
	for i, s := range p.Skills {
		out = append(out, pointed{"/skills/" + strconv.Itoa(i), s})
	}
	for i, s := range p.SupportedTaskTypes {
		out = append(out, pointed{"/supported_task_types/" + strconv.Itoa(i), s})
	}
	for i, s := range p.PermissionsRequested {
		out = append(out, pointed{"/permissions_requested/" + strconv.Itoa(i), s})
	}
	if p.Pricing != nil {
		out = append(out, pointed{"/pricing/model", string(p.Pricing.Model)}, pointed{"/pricing/currency", p.Pricing.Currency})
	}
	out = append(out, pointed{"/webhook_url", p.WebhookURL},
		pointed{"/logicsrc_compatibility_version", p.LogicSRCCompatibilityVersion})
	return out
}

func lintString(ptr, s string) []Problem {
	if s == "" {
		return nil
	}
	var out []Problem
	add := func(rule, msg string) {
		out = append(out, Problem{Pointer: ptr, Rule: rule, Severity: SeverityError, Message: msg})
	}
	for _, t := range tokenShapes {
		if t.re.MatchString(s) {
			add(RuleAccessToken, "contains what looks like "+t.name+"; public files must contain no access tokens: remove it and revoke it")
			break
		}
	}
	if pemPrivateRE.MatchString(s) {
		add(RulePrivateKey, "contains a PEM private key block; public files must contain no private keys: remove it and replace the key")
	}
	if jwkKtyRE.MatchString(s) && jwkPrivateRE.MatchString(s) {
		add(RulePrivateJWK, "contains a JSON Web Key with private members; public files must contain no private keys: publish only the public members")
	}
	if fileURLRE.MatchString(s) {
		add(RuleFileURL, "contains a file: URL; public files must contain no private workspace paths")
	} else if unixPathRE.MatchString(s) || winPathRE.MatchString(s) {
		add(RuleWorkspacePath, "contains an absolute filesystem path; public files must contain no private workspace paths")
	}
	if msg := urlCredential(s); msg != "" {
		add(RuleCredentialInURL, msg)
	}
	return out
}

var urlRE = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s"'<>]+`)

// urlCredential reports a URL in s that carries userinfo or a query
// parameter named like a secret.
func urlCredential(s string) string {
	for _, raw := range urlRE.FindAllString(s, 16) {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		if u.User != nil {
			return "contains a URL with userinfo (credentials); public files must contain no access tokens"
		}
		for name := range u.Query() {
			if slices.Contains(secretParams, strings.ToLower(name)) {
				return fmt.Sprintf("contains a URL whose query parameter %q looks like a credential; public files must contain no access tokens", name)
			}
		}
	}
	return ""
}
