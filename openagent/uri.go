package openagent

import (
	"github.com/agentweb/agentweb/internal/problem"
	"net/netip"
	"strings"
)

// uriMessage explains why webhook_url is refused.
func uriMessage(s string) string {
	return problem.URLMessage(problem.RuleURLSyntax, s, " (RFC 3986 Section 4.3): a scheme, then only ASCII characters the URI grammar allows, with anything else percent-encoded")
}

// isURI reports whether s is a URI by the grammar of RFC 3986 Section 3, as
// the "uri" format of JSON Schema asks. The grammar is scheme ":" hier-part
// [ "?" query ] [ "#" fragment ]. It allows ASCII only, no space, and every
// other character percent-encoded. The host is an IP literal, an IPv4
// address or a reg-name. RFC 3986 allows an empty hier-part ("a:", "a:?q");
// the reference's library refuses it, and so does this reader, since a
// callback URI that names nothing is useless.
func isURI(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon < 1 || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < colon; i++ {
		if c := s[i]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	rest := s[colon+1:]
	if rest == "" || rest[0] == '?' || rest[0] == '#' {
		return false
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		if !allOf(rest[i+1:], "/?") {
			return false
		}
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		if !allOf(rest[i+1:], "/?") {
			return false
		}
		rest = rest[:i]
	}
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		end := strings.IndexByte(rest, '/')
		if end < 0 {
			end = len(rest)
		}
		if !isAuthority(rest[:end]) {
			return false
		}
		rest = rest[end:]
	}
	return allOf(rest, "/")
}

// isAuthority checks [ userinfo "@" ] host [ ":" port ] (RFC 3986 Section 3.2).
func isAuthority(a string) bool {
	if i := strings.IndexByte(a, '@'); i >= 0 {
		if !allOf(a[:i], ":") || strings.Contains(a[:i], "@") {
			return false
		}
		a = a[i+1:]
	}
	host, port := a, ""
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 || !isIPLiteral(a[1:end]) {
			return false
		}
		host, port = "", a[end+1:]
		if port != "" {
			if port[0] != ':' {
				return false
			}
			port = port[1:]
		}
	} else if i := strings.IndexByte(a, ':'); i >= 0 {
		host, port = a[:i], a[i+1:]
	}
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return false
		}
	}
	// reg-name = *( unreserved / pct-encoded / sub-delims ); an IPv4
	// address is a reg-name by these characters too.
	return allOf(host, "")
}

// isIPLiteral checks IPv6address / IPvFuture inside brackets (RFC 3986
// Section 3.2.2); a zone identifier is not part of the URI grammar.
func isIPLiteral(s string) bool {
	if len(s) > 1 && (s[0] == 'v' || s[0] == 'V') {
		dot := strings.IndexByte(s, '.')
		if dot < 2 || dot == len(s)-1 {
			return false
		}
		for i := 1; i < dot; i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		for i := dot + 1; i < len(s); i++ {
			if c := s[i]; !isUnreserved(c) && !isSubDelim(c) && c != ':' {
				return false
			}
		}
		return true
	}
	if strings.ContainsRune(s, '%') {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}

// allOf reports whether every character of s is a pchar (unreserved,
// pct-encoded, sub-delims, ":" or "@"; RFC 3986 Section 3.3) or one of
// extra. With extra "" it checks reg-name, which has no ":" or "@".
func allOf(s, extra string) bool {
	pchar := extra != ""
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c), isSubDelim(c):
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case pchar && (c == ':' || c == '@'):
		case strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isHex(c byte) bool   { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}
func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }
