package readiness

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// authServerMeta is the part of OAuth 2.0 Authorization Server Metadata
// (RFC 8414 §2; OpenID Connect Discovery 1.0 §3 shares the names) the scanner
// reads. It is decoded here, into our own type: no library fetcher decides a
// verdict.
type authServerMeta struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
}

// protectedResourceMeta is the part of OAuth 2.0 Protected Resource
// Metadata (RFC 9728 §2) the scanner reads.
type protectedResourceMeta struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceDocumentation  string   `json:"resource_documentation"`
}

// decodeMeta decodes a metadata document strictly (internal/strictjson:
// no duplicate members, valid UTF-8, bounded depth) into v, which must be a
// JSON object.
func decodeMeta(body []byte, v any) error {
	tree, err := strictjson.Decode(body)
	if err != nil {
		return err
	}
	if _, ok := tree.(map[string]any); !ok {
		return fmt.Errorf("readiness: metadata is not a JSON object")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("readiness: metadata member of the wrong type: %w", err)
	}
	return nil
}

// validateAuthServer checks AS metadata against the issuer its URL was built
// from (RFC 8414 §3.3: identical) and for the members an authorization code
// flow needs.
func validateAuthServer(m *authServerMeta, issuer string) []string {
	var problems []string
	if !sameIdentifier(m.Issuer, issuer) {
		problems = append(problems, fmt.Sprintf("issuer %q does not match %q", truncate(clean(m.Issuer), 120), issuer))
	}
	if m.AuthorizationEndpoint == "" {
		problems = append(problems, "no authorization_endpoint")
	}
	if m.TokenEndpoint == "" {
		problems = append(problems, "no token_endpoint")
	}
	return problems
}

// hasS256 reports whether PKCE S256 is advertised. An absent
// code_challenge_methods_supported means PKCE is not supported (MCP
// authorization 2025-11-25: clients must refuse).
func (m *authServerMeta) hasS256() bool {
	return slices.Contains(m.CodeChallengeMethodsSupported, "S256")
}

// dynamicRegistration reports whether a registration method is advertised:
// a registration endpoint (RFC 7591) or client ID metadata documents.
func (m *authServerMeta) dynamicRegistration() bool {
	return m.RegistrationEndpoint != "" || m.ClientIDMetadataDocumentSupported
}

// sameIdentifier compares two URL identifiers exactly, but for one trailing
// slash on an empty path.
func sameIdentifier(a, b string) bool {
	return a != "" && strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// wellKnownURL inserts a well-known suffix between the host and the path of
// an identifier (RFC 8414 §3.1, RFC 9728 §3.1): https://a.example/t1 and
// "oauth-authorization-server" give
// https://a.example/.well-known/oauth-authorization-server/t1.
func wellKnownURL(identifier, suffix string) (string, bool) {
	u, err := url.Parse(identifier)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", false
	}
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	w := url.URL{Scheme: u.Scheme, Host: u.Host}
	return w.String() + "/.well-known/" + suffix + p, true
}

// signinResult is what version-aware sign-in discovery found for an MCP
// endpoint (readiness-checks.md, mcp_signin_discovery).
type signinResult struct {
	// version is the protocol version whose rules were applied; rules says
	// which in words.
	version string
	rules   string
	tried   []*fetched

	prmURL string
	prm    *protectedResourceMeta
	asURL  string
	as     *authServerMeta
	// resolved: AS metadata was found and its issuer (and, from 2025-06-18,
	// the resource of the protected resource metadata) matches.
	resolved bool
	// legacyFallback: from 2025-06-18, no protected resource metadata was
	// found and the server origin's RFC 8414 metadata was used instead.
	legacyFallback bool
	problems       []string
	unanswered     *fetched
}

// triedURL reports whether discovery requested u.
func (r *signinResult) triedURL(u string) bool {
	for _, f := range r.tried {
		if f.url == u {
			return true
		}
	}
	return false
}

// legacyAuth reports whether a protocol version takes the 2025-03-26
// authorization rules (or predates authorization).
func legacyAuth(version string) bool { return version != "" && version <= "2025-03-26" }

// discoverSignin applies the authorization discovery of the negotiated
// protocol version (readiness-anchors.md §3):
//   - 2025-03-26 and earlier: the MCP server origin's RFC 8414 metadata,
//     whose issuer is that origin;
//   - 2025-06-18 and later: RFC 9728 protected resource metadata, from the
//     401's resource_metadata, else the path-inserted, then the root
//     well-known URI; its resource must match; then the first authorization
//     server's RFC 8414 metadata (and, for 2025-11-25 and later, OpenID
//     Connect discovery), whose issuer must match.
func (s *scan) discoverSignin(version, endpoint, resourceMetadata string) *signinResult {
	r := &signinResult{version: version}
	eu, err := url.Parse(endpoint)
	if err != nil {
		r.problems = append(r.problems, "endpoint is not a URL")
		return r
	}
	origin := (&url.URL{Scheme: eu.Scheme, Host: eu.Host}).String()
	fetchJSON := func(u string) *fetched {
		f := s.get(u, "application/json")
		r.tried = append(r.tried, f)
		if !f.answered() && r.unanswered == nil {
			r.unanswered = f
		}
		return f
	}
	asAt := func(urls []string, issuer string) bool {
		for _, u := range urls {
			f := fetchJSON(u)
			if !f.ok() {
				continue
			}
			m := &authServerMeta{}
			if err := decodeMeta(f.body(), m); err != nil {
				r.problems = append(r.problems, u+": "+clean(err.Error()))
				continue
			}
			r.asURL, r.as = u, m
			if ps := validateAuthServer(m, issuer); len(ps) > 0 {
				for _, p := range ps {
					r.problems = append(r.problems, u+": "+p)
				}
				return false
			}
			return true
		}
		return false
	}

	if legacyAuth(version) {
		r.rules = version + ": RFC 8414 metadata at the MCP server origin"
		u, _ := wellKnownURL(origin, "oauth-authorization-server")
		r.resolved = asAt([]string{u}, origin)
		return r
	}

	r.rules = version + ": RFC 9728 protected resource metadata, then RFC 8414"
	if version >= "2025-11-25" {
		r.rules += ", then OpenID Connect discovery"
	}
	var prmURLs []string
	if resourceMetadata != "" {
		prmURLs = append(prmURLs, resourceMetadata)
	}
	if pi, ok := wellKnownURL(endpoint, "oauth-protected-resource"); ok {
		prmURLs = append(prmURLs, pi)
	}
	if root, ok := wellKnownURL(origin, "oauth-protected-resource"); ok && !slices.Contains(prmURLs, root) {
		prmURLs = append(prmURLs, root)
	}
	for _, u := range prmURLs {
		f := fetchJSON(u)
		if !f.ok() {
			continue
		}
		m := &protectedResourceMeta{}
		if err := decodeMeta(f.body(), m); err != nil {
			r.problems = append(r.problems, u+": "+clean(err.Error()))
			continue
		}
		r.prmURL, r.prm = u, m
		break
	}
	if r.prm == nil {
		// No protected resource metadata: the server origin's RFC 8414
		// metadata is still read, for partial credit at most.
		r.problems = append(r.problems, "no protected resource metadata (RFC 9728 is required from 2025-06-18)")
		u, _ := wellKnownURL(origin, "oauth-authorization-server")
		if asAt([]string{u}, origin) {
			r.legacyFallback = true
			r.resolved = true
		}
		return r
	}
	resourceOK := sameIdentifier(r.prm.Resource, endpoint) || sameIdentifier(r.prm.Resource, origin)
	if !resourceOK {
		r.problems = append(r.problems, fmt.Sprintf("%s: resource %q does not match %q", r.prmURL, truncate(clean(r.prm.Resource), 120), endpoint))
	}
	if len(r.prm.AuthorizationServers) == 0 {
		r.problems = append(r.problems, r.prmURL+": no authorization_servers")
		return r
	}
	issuer := r.prm.AuthorizationServers[0]
	var asURLs []string
	if u, ok := wellKnownURL(issuer, "oauth-authorization-server"); ok {
		asURLs = append(asURLs, u)
	}
	if version >= "2025-11-25" {
		if u, ok := wellKnownURL(issuer, "openid-configuration"); ok {
			asURLs = append(asURLs, u)
		}
		if iu, err := url.Parse(issuer); err == nil && strings.Trim(iu.Path, "/") != "" {
			asURLs = append(asURLs, strings.TrimSuffix(issuer, "/")+"/.well-known/openid-configuration")
		}
	}
	if len(asURLs) == 0 {
		r.problems = append(r.problems, fmt.Sprintf("authorization server %q is not a URL", truncate(clean(issuer), 120)))
		return r
	}
	r.resolved = asAt(asURLs, issuer) && resourceOK
	return r
}

// bearerChallenge reads the Bearer challenge of a WWW-Authenticate field
// value (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1) and returns its
// auth-params, names lower-cased; ok is false when there is no Bearer
// challenge. It reads at most 64 list members.
func bearerChallenge(v string) (params map[string]string, ok bool) {
	var cur map[string]string
	bearer := false
	for n, part := range splitQuoted(v, ',') {
		if n >= 64 {
			break
		}
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		j := 0
		for j < len(part) && isTChar(part[j]) {
			j++
		}
		first, rest := part[:j], strings.TrimLeft(part[j:], " \t")
		if first == "" {
			continue
		}
		if !strings.HasPrefix(rest, "=") || rest == "" {
			// A new challenge: its scheme, then an auth-param or a token68.
			if bearer {
				return cur, true
			}
			bearer = strings.EqualFold(first, "Bearer")
			cur = map[string]string{}
			part = rest
			j = 0
			for j < len(part) && isTChar(part[j]) {
				j++
			}
			first, rest = part[:j], strings.TrimLeft(part[j:], " \t")
			if first == "" || !strings.HasPrefix(rest, "=") || strings.Trim(rest, "=") == "" {
				continue // no parameter, or a token68
			}
		}
		if cur == nil {
			continue
		}
		val := strings.TrimSpace(rest[1:])
		if strings.HasPrefix(val, `"`) {
			var b strings.Builder
			for k := 1; k < len(val) && val[k] != '"'; k++ {
				if val[k] == '\\' && k+1 < len(val) {
					k++
				}
				b.WriteByte(val[k])
			}
			val = b.String()
		}
		if len(cur) < 32 {
			cur[strings.ToLower(first)] = val
		}
	}
	if bearer {
		return cur, true
	}
	return nil, false
}

// splitQuoted splits s at sep outside double-quoted strings.
func splitQuoted(s string, sep byte) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == sep && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func isTChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
