package openagent

import (
	"encoding/json"
	"math/big"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"
)

// conforms reports whether a decoded document is valid against the embedded
// schema, without building any problem. It is a hand-written copy of the
// schema's constraints: Parse uses it to skip the general schema validator
// for documents that conform (the common case, and five times faster), and
// runs the schema to explain every problem of a document that does not.
// TestConformsAgreesWithSchema and FuzzParse check that the two agree on
// every input they see, so the schema stays the authority.
func conforms(tree any) bool {
	obj, ok := tree.(map[string]any)
	if !ok {
		return false
	}
	for _, m := range requiredMembers {
		if _, ok := obj[m]; !ok {
			return false
		}
	}
	for k, v := range obj {
		var ok bool
		switch k {
		case "type":
			ok = v == Type
		case "version":
			s, isStr := v.(string)
			ok = isStr && isVersion(s)
		case "name":
			s, isStr := v.(string)
			ok = isStr && s != "" && utf8.RuneCountInString(s) <= 120
		case "did", "owner_did":
			s, isStr := v.(string)
			ok = isStr && isDID(s)
		case "description", "logicsrc_compatibility_version":
			_, ok = v.(string)
		case "skills":
			ok = stringList(v, 1, func(s string) bool { return s != "" })
		case "supported_task_types":
			ok = stringList(v, 0, func(s string) bool { return s != "" })
		case "permissions_requested":
			ok = stringList(v, 0, isPermission)
		case "pricing":
			ok = pricingConforms(v)
		case "webhook_url":
			s, isStr := v.(string)
			ok = isStr && isAbsoluteURI(s)
		case "polling_mode", "public":
			_, ok = v.(bool)
		}
		if !ok {
			return false
		}
	}
	return true
}

func pricingConforms(v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range obj {
		var ok bool
		switch k {
		case "model":
			ok = v == PricingFree || v == PricingPerTask || v == PricingHourly || v == PricingSubscription
		case "amount":
			n, isNum := v.(json.Number)
			ok = isNum && !isNegative(n)
		case "currency":
			s, isStr := v.(string)
			if isStr {
				n := utf8.RuneCountInString(s)
				ok = n >= 2 && n <= 12
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// stringList reports whether v is an array of at least minItems unique
// strings that each satisfy item.
func stringList(v any, minItems int, item func(string) bool) bool {
	arr, ok := v.([]any)
	if !ok || len(arr) < minItems {
		return false
	}
	var seen map[string]struct{}
	if len(arr) > 16 {
		seen = make(map[string]struct{}, len(arr))
	}
	for i, e := range arr {
		s, ok := e.(string)
		if !ok || !item(s) {
			return false
		}
		if seen != nil {
			if _, dup := seen[s]; dup {
				return false
			}
			seen[s] = struct{}{}
			continue
		}
		for _, prev := range arr[:i] {
			if prev == s {
				return false
			}
		}
	}
	return true
}

func isNegative(n json.Number) bool {
	s := string(n)
	if !strings.HasPrefix(s, "-") {
		return false
	}
	r, ok := new(big.Rat).SetString(s)
	return !ok || r.Sign() < 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// isNameByte is the class [a-z0-9._-] of the identity and scope patterns.
func isNameByte(c byte) bool {
	return isLower(c) || isDigit(c) || c == '.' || c == '_' || c == '-'
}

// isVersion matches ^\d+\.\d+(\.\d+)?$ (ASCII digits).
func isVersion(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 2 && len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !isDigit(p[i]) {
				return false
			}
		}
	}
	return true
}

// isDID matches the LogicSRC identity pattern
// ^[a-z0-9][a-z0-9._-]*\.[a-z0-9][a-z0-9._-]*$ (openagent-0.1.md,
// "Identity and ownership").
func isDID(s string) bool {
	if s == "" || !(isLower(s[0]) || isDigit(s[0])) {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isNameByte(c) {
			return false
		}
		if c == '.' && i > 0 && i+1 < len(s) && (isLower(s[i+1]) || isDigit(s[i+1])) {
			dot = true
		}
	}
	return dot
}

// isPermission matches the scope pattern ^[a-z][a-z0-9._-]*(:[a-z][a-z0-9._-]*)?$
// (openagent-0.1.md, "Skills and permissions"); a wildcard never matches.
func isPermission(s string) bool {
	resource, action, hasAction := strings.Cut(s, ":")
	return isScopePart(resource) && (!hasAction || isScopePart(action))
}

func isScopePart(s string) bool {
	if s == "" || !isLower(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// isAbsoluteURI is the schema's "uri" format as the validator asserts it: the
// string parses as a URL with a scheme, and an IPv6 host is bracketed and
// well formed.
func isAbsoluteURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() {
		return false
	}
	host := u.Hostname()
	if strings.IndexByte(host, ':') >= 0 {
		if strings.IndexByte(u.Host, '[') < 0 || strings.IndexByte(u.Host, ']') < 0 {
			return false
		}
		return net.ParseIP(host) != nil
	}
	return true
}
