package mcpprobe

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/weburl"
)

// AuthServerMetadata is the part of OAuth 2.0 Authorization Server Metadata
// ([RFC 8414] Section 2; [OpenID Connect Discovery 1.0] Section 3 shares the
// names) the probe reads.
//
// [RFC 8414]: https://www.rfc-editor.org/rfc/rfc8414
// [OpenID Connect Discovery 1.0]: https://openid.net/specs/openid-connect-discovery-1_0.html
type AuthServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	ResponseTypesSupported            []string `json:"response_types_supported,omitempty"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported,omitempty"`
}

// HasS256 reports whether PKCE S256 is advertised. An absent
// code_challenge_methods_supported means PKCE is not supported, and MCP
// 2025-11-25 clients must refuse ([MCP authorization 2025-11-25],
// "Authorization Code Protection").
//
// [MCP authorization 2025-11-25]: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
func (m *AuthServerMetadata) HasS256() bool {
	return m != nil && slices.Contains(m.CodeChallengeMethodsSupported, "S256")
}

// ProtectedResourceMetadata is the part of OAuth 2.0 Protected Resource
// Metadata ([RFC 9728] Section 2) the probe reads.
//
// [RFC 9728]: https://www.rfc-editor.org/rfc/rfc9728
type ProtectedResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers,omitempty"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

// errMetadata is the class of a metadata document that cannot be read.
var errMetadata = errors.New("mcpprobe: metadata")

// decodeMetadata decodes a metadata document strictly (no duplicate
// members, valid UTF-8, bounded depth) into v; the document must be a JSON
// object.
func decodeMetadata(body []byte, v any) error {
	tree, err := strictjson.Decode(body)
	if err != nil {
		return fmt.Errorf("%w: not valid JSON: %v", errMetadata, err)
	}
	if _, ok := tree.(map[string]any); !ok {
		return fmt.Errorf("%w: not a JSON object", errMetadata)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: a member of the wrong type: %v", errMetadata, err)
	}
	return nil
}

// sameIdentifier compares two URL identifiers exactly, but for one trailing
// slash.
func sameIdentifier(a, b string) bool {
	return a != "" && strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// sameResource compares a metadata document's resource with the endpoint's
// URL as RFC 9728 Section 3.3 asks ("identical") after the normalizations
// RFC 3986 Section 6 says change no URI's meaning: scheme and host case and
// an IDN's A-label form, the default port, the case of percent-encodings
// and percent-encoded unreserved characters (Section 6.2.2), and an empty
// path as "/" (Section 6.2.3), besides the one trailing slash
// sameIdentifier already allows. Anything else (another path, a query, a
// fragment) differs.
func sameResource(resource, endpoint string) bool {
	if sameIdentifier(resource, endpoint) {
		return true
	}
	a, okA := normalIdentifier(resource)
	b, okB := normalIdentifier(endpoint)
	return okA && okB && a == b
}

// normalIdentifier is an absolute URL in the RFC 3986 Section 6 normal form
// sameResource compares, without a trailing slash.
func normalIdentifier(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Fragment != "" || u.RawFragment != "" {
		return "", false
	}
	n, err := weburl.NormalizeURL(u)
	if err != nil {
		return "", false
	}
	path := strings.TrimSuffix(normalPercent(n.EscapedPath()), "/")
	q := ""
	if n.ForceQuery || n.RawQuery != "" {
		q = "?" + normalPercent(n.RawQuery)
	}
	return n.Scheme + "://" + n.Host + path + q, true
}

// normalPercent upper-cases percent-encodings and decodes those of
// unreserved characters (RFC 3986 Section 6.2.2.2).
func normalPercent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, lo := strings.IndexByte(hex, upper(s[i+1])), strings.IndexByte(hex, upper(s[i+2]))
			if hi >= 0 && lo >= 0 {
				c := byte(hi<<4 | lo)
				if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
					b.WriteByte(c)
				} else {
					b.WriteByte('%')
					b.WriteByte(hex[hi])
					b.WriteByte(hex[lo])
				}
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// wellKnownInsert inserts a well-known suffix between the host and the path
// of an identifier (RFC 8414 Section 3.1, RFC 9728 Section 3.1):
// https://a.example/t1 and "oauth-authorization-server" give
// https://a.example/.well-known/oauth-authorization-server/t1.
func wellKnownInsert(identifier, suffix string) (string, bool) {
	u, err := url.Parse(identifier)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", false
	}
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	w := url.URL{Scheme: u.Scheme, Host: u.Host}
	return w.String() + "/.well-known/" + suffix + p, true
}

// wellKnownAppend appends a well-known suffix to the path of an identifier
// (OpenID Connect Discovery 1.0 Section 4): https://a.example/t1 gives
// https://a.example/t1/.well-known/openid-configuration; ok is false for an
// identifier without a path, where appending and inserting are the same URL.
func wellKnownAppend(identifier, suffix string) (string, bool) {
	u, err := url.Parse(identifier)
	if err != nil || u.Scheme == "" || u.Host == "" || strings.Trim(u.EscapedPath(), "/") == "" {
		return "", false
	}
	w := url.URL{Scheme: u.Scheme, Host: u.Host}
	return w.String() + strings.TrimSuffix(u.EscapedPath(), "/") + "/.well-known/" + suffix, true
}

// origin is the scheme and authority of u.
func origin(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// parseChallenge reads the Bearer challenge of a WWW-Authenticate field
// value (RFC 9110 Section 11.6.1, RFC 6750 Section 3, RFC 9728 Section 5.1)
// and returns its auth-params, names lower-cased; ok is false when there is
// no Bearer challenge. It reads at most 64 list members and keeps at most 32
// parameters.
func parseChallenge(v string) (params map[string]string, ok bool) {
	var cur map[string]string
	bearer := false
	for n, part := range splitQuoted(v, ',', 65) {
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
		if !strings.HasPrefix(rest, "=") {
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

// splitQuoted splits s at sep outside double-quoted strings, into at most
// max parts.
func splitQuoted(s string, sep byte, max int) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s) && len(out) < max-1; i++ {
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
	return append(out, s[min(start, len(s)):])
}

func isTChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
