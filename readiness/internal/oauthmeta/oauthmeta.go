// Package oauthmeta reads OAuth metadata documents for the MCP probe and the
// scanner alike: authorization server metadata ([RFC 8414]) and protected
// resource metadata ([RFC 9728]). It decodes a document strictly, builds its
// well-known URL, and compares the identifier it names with the one its URL
// was built from.
//
// [RFC 8414]: https://www.rfc-editor.org/rfc/rfc8414
// [RFC 9728]: https://www.rfc-editor.org/rfc/rfc9728
package oauthmeta

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/weburl"
)

// ErrMetadata is the class of every error of [Decode].
var ErrMetadata = errors.New("metadata")

// Decode decodes a metadata document strictly into v. The document must be
// a JSON object with no duplicate members, valid UTF-8 and bounded depth
// (internal/strictjson). Every error wraps [ErrMetadata].
func Decode(body []byte, v any) error {
	tree, err := strictjson.Decode(body)
	if err != nil {
		return fmt.Errorf("%w: not valid JSON: %v", ErrMetadata, err)
	}
	if _, ok := tree.(map[string]any); !ok {
		return fmt.Errorf("%w: not a JSON object", ErrMetadata)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: a member of the wrong type: %v", ErrMetadata, err)
	}
	return nil
}

// SameIdentifier reports whether a document's identifier is the one its
// URL was built from. RFC 8414 Section 3.3 asks for the issuer to be
// identical, and RFC 9728 Section 3.3 the same of the resource. One
// terminating "/" is the only difference allowed. Sections 3.1 of both
// remove it before inserting the well-known suffix, so both spellings give
// one URL, and the client cannot tell which one it started from.
func SameIdentifier(got, want string) bool {
	return got != "" && strings.TrimSuffix(got, "/") == strings.TrimSuffix(want, "/")
}

// SameResource compares a protected resource's resource with the endpoint's
// URL, as RFC 9728 Section 3.3 asks ("identical"). It allows what
// [SameIdentifier] allows, and the normalizations RFC 3986 Section 6 says
// change no URI's meaning: scheme and host case, an IDN's A-label form, the
// default port, the case of percent-encodings and percent-encoded
// unreserved characters (Section 6.2.2), and an empty path as "/" (Section
// 6.2.3). Another path, a query or a fragment differs.
func SameResource(resource, endpoint string) bool {
	if SameIdentifier(resource, endpoint) {
		return true
	}
	a, okA := normalIdentifier(resource)
	b, okB := normalIdentifier(endpoint)
	return okA && okB && a == b
}

// normalIdentifier is an absolute URL in the RFC 3986 Section 6 normal form
// SameResource compares, without a trailing slash.
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

// WellKnownInsert inserts a well-known suffix between the host and the path
// of an identifier (RFC 8414 Section 3.1, RFC 9728 Section 3.1). For
// example, https://a.example/t1 and "oauth-authorization-server" give
// https://a.example/.well-known/oauth-authorization-server/t1. A
// terminating "/" of the path is removed first.
func WellKnownInsert(identifier, suffix string) (string, bool) {
	u, err := url.Parse(identifier)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", false
	}
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	w := url.URL{Scheme: u.Scheme, Host: u.Host}
	return w.String() + "/.well-known/" + suffix + p, true
}

// WellKnownAppend appends a well-known suffix to the path of an identifier
// (OpenID Connect Discovery 1.0 Section 4). For example,
// https://a.example/t1 gives
// https://a.example/t1/.well-known/openid-configuration. It returns false
// for an identifier without a path, where appending and inserting give one
// URL.
func WellKnownAppend(identifier, suffix string) (string, bool) {
	u, err := url.Parse(identifier)
	if err != nil || u.Scheme == "" || u.Host == "" || strings.Trim(u.EscapedPath(), "/") == "" {
		return "", false
	}
	w := url.URL{Scheme: u.Scheme, Host: u.Host}
	return w.String() + strings.TrimSuffix(u.EscapedPath(), "/") + "/.well-known/" + suffix, true
}

// MissingEndpoints lists the members of authorization server metadata that
// an authorization code flow needs and the document lacks (RFC 8414
// Section 2).
func MissingEndpoints(authorizationEndpoint, tokenEndpoint string) []string {
	var missing []string
	if authorizationEndpoint == "" {
		missing = append(missing, "no authorization_endpoint")
	}
	if tokenEndpoint == "" {
		missing = append(missing, "no token_endpoint")
	}
	return missing
}
