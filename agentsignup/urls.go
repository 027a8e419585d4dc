package agentsignup

import (
	"github.com/agentweb/agentweb/internal/problem"
	"net/url"
	"strings"
)

// urlProblem checks a URL member: absolute, with a host, https, without
// userinfo ("all URLs https without userinfo" in this project's reading).
// It reports at most one problem per URL.
func urlProblem(ptr, s string) (Problem, bool) {
	if _, ok := plainHTTPSURL(s); ok {
		return Problem{}, false
	}
	p, _, bad := parsedURLProblem(ptr, s)
	return p, bad
}

// plainHTTPSURL reports whether s is an https URL whose host is a
// lower-case LDH name (no port, no userinfo), and returns the host. The
// host is followed by nothing but characters RFC 3986 allows unescaped,
// '%' and '@' excepted. Such a URL passes every URL rule as url.Parse
// reads it, so the common case skips the parser
// (TestPlainHTTPSURLAgreesWithTheParser).
func plainHTTPSURL(s string) (host string, ok bool) {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		return "", false
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host = rest[:end]
	if host == "" {
		return "", false
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return "", false
		}
	}
	for i := end; i < len(rest); i++ {
		c := rest[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') && strings.IndexByte("-._~:/?#[]!$&'()*+,;=", c) < 0 {
			return "", false
		}
	}
	return host, true
}

// parsedURLProblem is urlProblem that also returns the parsed URL, for a
// caller that reads it further.
func parsedURLProblem(ptr, s string) (Problem, *url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return Problem{Pointer: ptr, Rule: RuleURLSyntax, Message: problem.URLMessage(RuleURLSyntax, s, " with a host")}, nil, true
	}
	if u.Scheme != "https" {
		return Problem{Pointer: ptr, Rule: RuleURLHTTPS, Message: problem.URLMessage(RuleURLHTTPS, s, "")}, u, true
	}
	if u.User != nil {
		return Problem{Pointer: ptr, Rule: RuleURLUserinfo, Message: problem.URLMessage(RuleURLUserinfo, s, "")}, u, true
	}
	return Problem{}, u, false
}

// canonicalOrigin returns the canonical origin of an absolute URL: scheme
// and host, host lower-cased and converted to ASCII (IDNA), default port
// dropped. A URL with a path other than "/", a query or a fragment has no
// origin form of its own and is an error when strict is set.
func canonicalOrigin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	return canonicalOriginOf(u)
}

// canonicalOriginOf is canonicalOrigin of a parsed URL.
func canonicalOriginOf(u *url.URL) (string, error) {
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.User != nil {
		return "", errNotOrigin
	}
	return originOf(u)
}

var errNotOrigin = &originError{"has a path, query, fragment or userinfo"}

type originError struct{ msg string }

func (e *originError) Error() string { return "agentsignup: not an origin: " + e.msg }

func isTermsHashForm(s string) bool {
	if len(s) != len("sha256:")+64 || !strings.HasPrefix(s, "sha256:") {
		return false
	}
	for i := len("sha256:"); i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
