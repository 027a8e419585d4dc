package mcpprobe

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/readiness/internal/oauthmeta"
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

// decodeMetadata is [oauthmeta.Decode], its errors prefixed with the
// package's name as the probe's receipts give them.
func decodeMetadata(body []byte, v any) error {
	if err := oauthmeta.Decode(body, v); err != nil {
		return fmt.Errorf("mcpprobe: %w", err)
	}
	return nil
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
